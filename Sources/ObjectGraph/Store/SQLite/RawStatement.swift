import Foundation
import GRDB
import GRDBSQLite

/// The C-level view of a GRDB statement, for the hot loops (bulk insert, batch loads) where GRDB's
/// per-call argument handling would cost more than SQLite itself.
struct RawStatement {
    let statement: Statement
    var handle: OpaquePointer { statement.sqliteStatement }

    init(_ statement: Statement) {
        self.statement = statement
        sqlite3_reset(statement.sqliteStatement)
    }

    /// Binds `value` to parameter `index` (1-based), converted to the column's storage class.
    func bind(_ value: Value, at index: Int32) {
        let s = handle
        switch value {
        case .null: sqlite3_bind_null(s, index)
        case .integer(let i): sqlite3_bind_int64(s, index, i)
        case .bool(let b): sqlite3_bind_int64(s, index, b ? 1 : 0)
        case .double(let d): sqlite3_bind_double(s, index, d)
        case .date(let d): sqlite3_bind_double(s, index, d.timeIntervalSince1970)
        case .string(var str):
            str.withUTF8 { buf in
                let p = UnsafeRawPointer(buf.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
                _ = sqlite3_bind_text(s, index, p, Int32(buf.count), sqliteTransient)
            }
        case .data(let d):
            d.withUnsafeBytes { buf in
                _ = sqlite3_bind_blob(s, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buf.count), sqliteTransient)
            }
        case .uuid(let u):
            withUnsafeBytes(of: u.uuid) { buf in
                _ = sqlite3_bind_blob(s, index, buf.baseAddress, 16, sqliteTransient)
            }
        }
    }

    func bind(_ i: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, i) }

    /// Binds `i`, or NULL for nil.
    func bind(_ i: Int64?, at index: Int32) {
        if let i { sqlite3_bind_int64(handle, index, i) } else { sqlite3_bind_null(handle, index) }
    }

    /// Binds a string as text (copied by SQLite), without boxing it in a ``Value``.
    func bind(text: String, at index: Int32) {
        var text = text
        text.withUTF8 { buf in
            let p = UnsafeRawPointer(buf.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(handle, index, p, Int32(buf.count), sqliteTransient)
        }
    }

    /// The rows the last statement run on `db` changed, and the row ID it inserted last: SQLite's own, without
    /// GRDB's check of the calling queue (a tenth of what recording an action for undo cost).
    static func changes(_ db: Database) -> Int { Int(sqlite3_changes(db.sqliteConnection)) }
    static func lastInsertedRowID(_ db: Database) -> Int64 { sqlite3_last_insert_rowid(db.sqliteConnection) }

    /// Binds bytes as a blob (copied by SQLite).
    func bind(bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { buf in
            _ = sqlite3_bind_blob(handle, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buf.count), sqliteTransient)
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    func run(_ db: Database) throws {
        let rc = sqlite3_step(handle)
        guard rc == SQLITE_DONE else {
            let e = error(db, rc)
            sqlite3_reset(handle)
            throw e
        }
        sqlite3_reset(handle)
    }

    /// Steps to the next row; false at the end.
    func step(_ db: Database) throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE {
            sqlite3_reset(handle)
            return false
        }
        let e = error(db, rc)
        sqlite3_reset(handle)
        throw e
    }

    func reset() {
        sqlite3_reset(handle)
    }

    /// Column `column` as an integer, through the value rather than `sqlite3_column_int64`, which takes the
    /// connection's mutex (see `value(at:as:)`).
    func int64(at column: Int32) -> Int64 { sqlite3_value_int64(sqlite3_column_value(handle, column)) }

    /// Reads column `column` as a value of `type` (NULL stays `.null`).
    func value(at column: Int32, as type: AttributeType) -> Value {
        // One `sqlite3_column_value` per column, then the value's own accessors: each `sqlite3_column_*`
        // call takes and releases the connection's mutex, which the queue that owns the connection makes
        // redundant (the unprotected value is used on that queue only, before the next step).
        guard let v = sqlite3_column_value(handle, column), sqlite3_value_type(v) != SQLITE_NULL else { return .null }
        switch type {
        case .string:
            guard let p = sqlite3_value_text(v) else { return .string("") }
            let n = Int(sqlite3_value_bytes(v))
            return .string(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
        case .integer64: return .integer(sqlite3_value_int64(v))
        case .bool: return .bool(sqlite3_value_int64(v) != 0)
        case .double: return .double(sqlite3_value_double(v))
        case .date: return .date(Date(timeIntervalSince1970: sqlite3_value_double(v)))
        case .binary, .uuid:
            let n = Int(sqlite3_value_bytes(v))
            let bytes = UnsafeRawBufferPointer(start: sqlite3_value_blob(v), count: n)
            if type == .uuid, let u = UUID(bytes: bytes) { return .uuid(u) }
            return .data(n == 0 ? Data() : Data(bytes))
        }
    }

    private func error(_ db: Database, _ rc: Int32) -> DatabaseError {
        let ext = sqlite3_extended_errcode(db.sqliteConnection)
        let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
        return DatabaseError(resultCode: ResultCode(rawValue: ext), message: message, sql: statement.sql)
    }
}

/// SQLite's "copy this buffer" destructor, which Swift cannot import as a macro. Safe because it is exactly
/// sqlite3.h's `SQLITE_TRANSIENT`, `((sqlite3_destructor_type)-1)`: SQLite compares the pointer with -1 and
/// never calls it, copying the bytes before `bind` returns. That copy is what makes `bind` correct: the buffers
/// it is given (`withUTF8`, `withUnsafeBytes`) are gone when the statement runs, after every row of a batch
/// is bound (`AttributeTests.manyRowsBoundInOneStatementKeepTheirOwnBytes` fails, and ASan reports a
/// use after free, if it ever stops copying).
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
