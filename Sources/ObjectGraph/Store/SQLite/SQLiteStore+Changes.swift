import Foundation
import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// One `PRAGMA data_version`: it changes when another connection commits.
    func mayHaveChangedElsewhere() throws(StoreError) -> Bool {
        do {
            return try read { db -> Bool in
                let v = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                defer { dataVersion = v }
                return v != dataVersion
            }
        } catch {
            throw StoreError.wrap(error, "cannot read changes made elsewhere", path: path)
        }
    }

    func latestChange() throws(StoreError) -> Int64 {
        do {
            // The log's AUTOINCREMENT counter, not its largest row: pruning never lowers it, so a reader that
            // starts now can tell entries it missed (pruned) from a log that was always empty.
            return try read { db in try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'og_changes'") ?? 0 }
        } catch {
            throw StoreError.wrap(error, "cannot read the change log", path: path)
        }
    }

    func changes(after seq: Int64) throws(StoreError) -> (entries: [(seq: Int64, changes: ChangeSet?)], oldest: Int64?) {
        var entries: [(seq: Int64, changes: ChangeSet?)] = []
        var oldest: Int64?
        do {
            try read { db in
                // A real read first: inside a snapshot it starts what everything after it reads.
                // Prepared once: every save asks, and parsing the SQL cost more than the rest of a small save's reads.
                let newest = try statement(db, .changesNewest)
                let top = try newest.step(db) ? newest.int64(at: 0) : 0
                newest.reset()
                guard top > seq else { return }
                let first = try statement(db, .changesOldest)
                if try first.step(db), sqlite3_column_type(first.handle, 0) != SQLITE_NULL { oldest = first.int64(at: 0) }
                first.reset()
                let rows = try statement(db, .changesAfter)
                rows.bind(seq, at: 1)
                defer { rows.reset() }
                while try rows.step(db) {
                    let bytes = UnsafeRawBufferPointer(
                        start: sqlite3_column_blob(rows.handle, 1), count: Int(sqlite3_column_bytes(rows.handle, 1)))
                    entries.append((rows.int64(at: 0), ChangeLog.decode([UInt8](bytes), model: model)))
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read changes made elsewhere", path: path)
        }
        return (entries, oldest)
    }

    /// Appends a change set to the log inside the saving transaction; returns its sequence number. Entries
    /// older than `ChangeLog.retention` go now and then.
    func log(_ changes: ChangeSet, _ db: Database) throws -> Int64 {
        let stmt = try statement(db, .changeLogInsert)
        stmt.bind(.double(Date().timeIntervalSince1970), at: 1)
        stmt.bind(.data(Data(ChangeLog.encode(changes, model: model))), at: 2)
        try stmt.run(db)
        savesSincePrune += 1
        if savesSincePrune >= 256 {
            savesSincePrune = 0
            try db.execute(sql: "DELETE FROM og_changes WHERE at < ?", arguments: [Date().timeIntervalSince1970 - ChangeLog.retention])
        }
        return db.lastInsertedRowID
    }
}
