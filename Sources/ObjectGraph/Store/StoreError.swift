import GRDB

/// A failure of the store, with what was being done and where: the entity and property involved, and
/// SQLite's own code and message when SQLite reported it.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Equatable, Sendable {
        case cannotOpen
        case notADatabase
        case notAStore
        case incompatibleModel
        case newerModel
        /// Opened for reading, but an older model wrote it and its schema must change first.
        case needsUpgrade
        case uniqueConstraint
        case foreignKey
        case conflict
        case sqlite
    }

    public var code: Code
    /// A sentence a user can read.
    public var message: String
    public var path: String?
    public var entity: String?
    public var property: String?
    /// The object the failure is about, when one could be found.
    public var object: ObjectID?
    public var sqliteCode: Int32?
    public var sqliteMessage: String?
    public var sql: String?

    public init(
        _ code: Code, _ message: String, path: String? = nil, entity: String? = nil, property: String? = nil,
        sqliteCode: Int32? = nil, sqliteMessage: String? = nil, sql: String? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.entity = entity
        self.property = property
        self.sqliteCode = sqliteCode
        self.sqliteMessage = sqliteMessage
        self.sql = sql
    }

    /// Wraps an error thrown by GRDB while doing `what`.
    static func wrap(_ error: any Error, _ what: String, path: String? = nil) -> StoreError {
        if let e = error as? StoreError { return e }
        if let db = error as? DatabaseError {
            let code: Code
            switch db.extendedResultCode {
            case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: code = .uniqueConstraint
            case .SQLITE_CONSTRAINT_FOREIGNKEY: code = .foreignKey
            case .SQLITE_NOTADB: code = .notADatabase
            default: code = .sqlite
            }
            var message = db.message ?? "SQLite error \(db.resultCode.rawValue)"
            // What a user can do something about, said plainly; the transaction rolled back whole.
            switch db.resultCode {
            case .SQLITE_FULL, .SQLITE_IOERR:
                message = "the disk is full or refused to write (\(message)); nothing was changed"
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                message = "another program kept the outline locked for too long (\(message)); nothing was changed, try again"
            case .SQLITE_READONLY:
                message = "the outline cannot be written here (\(message)); nothing was changed"
            default: break
            }
            return StoreError(
                code, "\(what): \(message)", path: path,
                sqliteCode: db.extendedResultCode.rawValue, sqliteMessage: db.message, sql: db.sql)
        }
        return StoreError(.sqlite, "\(what): \(error)", path: path)
    }

    public var description: String {
        var s = message
        if let path { s += " [\(path)]" }
        return s
    }
}
