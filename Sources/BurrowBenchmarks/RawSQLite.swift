import Foundation
import GRDBSQLite

/// The baseline: the SQLite C API doing the same work, with no layer in between.
final class RawSQLite {
    let db: OpaquePointer

    init(path: String) {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            fatalError("cannot open \(path)")
        }
        db = handle
        exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000")
    }

    deinit { sqlite3_close_v2(db) }

    func exec(_ sql: String) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            fatalError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func prepare(_ sql: String) -> OpaquePointer {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            fatalError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return stmt
    }

    func bind(_ stmt: OpaquePointer, _ i: Int32, _ s: String) {
        var s = s
        s.withUTF8 { buf in
            let p = UnsafeRawPointer(buf.baseAddress!).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(stmt, i, p, Int32(buf.count), rawTransient)
        }
    }

    /// Binds bytes as a blob (copied by SQLite).
    func bind(_ stmt: OpaquePointer, _ i: Int32, bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = sqlite3_bind_blob(stmt, i, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), rawTransient) }
    }

    func step(_ stmt: OpaquePointer) {
        let rc = sqlite3_step(stmt)
        guard rc == SQLITE_DONE || rc == SQLITE_ROW else { fatalError(String(cString: sqlite3_errmsg(db))) }
        sqlite3_reset(stmt)
    }

    func scalar(_ sql: String) -> Int64 {
        let s = prepare(sql)
        defer { sqlite3_finalize(s) }
        _ = sqlite3_step(s)
        return sqlite3_column_int64(s, 0)
    }

    func text(_ stmt: OpaquePointer, _ column: Int32) -> String {
        let p = sqlite3_column_text(stmt, column)!
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, column))), as: UTF8.self)
    }
}

let rawTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
