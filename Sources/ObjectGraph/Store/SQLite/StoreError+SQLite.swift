import GRDB

extension StoreError {
    /// Wraps an error thrown by GRDB while doing `what`.
    static func wrap(_ error: any Error, _ what: String, path: String? = nil) -> StoreError {
        if let e = error as? StoreError { return e }
        if let db = error as? DatabaseError {
            var code: Code
            switch db.extendedResultCode {
            case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: code = .uniqueConstraint
            case .SQLITE_CONSTRAINT_FOREIGNKEY: code = .foreignKey
            case .SQLITE_NOTADB: code = .notADatabase
            default: code = .storage
            }
            var message = db.message ?? "SQLite error \(db.resultCode.rawValue)"
            // What a user can do something about, said plainly; the transaction rolled back whole.
            switch db.resultCode {
            case .SQLITE_FULL, .SQLITE_IOERR:
                code = .diskFull
                message = "the disk is full or refused to write (\(message)); nothing was changed"
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                code = .busy
                message = "another program kept the store locked for too long (\(message)); nothing was changed, try again"
            case .SQLITE_READONLY:
                code = .readOnly
                message = "the store cannot be written here (\(message)); nothing was changed"
            default: break
            }
            return StoreError(
                code, "\(what): \(message)", path: path,
                engine: EngineReport(code: db.extendedResultCode.rawValue, message: db.message, statement: db.sql))
        }
        return StoreError(.storage, "\(what): \(error)", path: path)
    }
}
