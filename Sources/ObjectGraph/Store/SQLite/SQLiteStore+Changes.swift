import Foundation
import GRDB

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
                let top = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM og_changes") ?? 0
                guard top > seq else { return }
                oldest = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM og_changes")
                let rows = try Row.fetchCursor(db, sql: "SELECT seq, changes FROM og_changes WHERE seq > ? ORDER BY seq", arguments: [seq])
                while let row = try rows.next() {
                    entries.append((row[0], ChangeLog.decode([UInt8](row[1] as Data), model: model)))
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
        let stmt = try statement(db, "INSERT INTO og_changes (at, changes) VALUES (?, ?)")
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
