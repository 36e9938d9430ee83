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

    /// The log is two tables: `og_changes`, and the history rows of actions (`og_history.logged`, `.changes`),
    /// so that a save recording an action writes one row, not one in each. One counter numbers both (the
    /// AUTOINCREMENT counter of `og_changes`, which a history row takes by hand), so every number up to
    /// the newest belongs to one entry until it is pruned.
    func changes(after seq: Int64) throws(StoreError) -> (entries: [(seq: Int64, changes: ChangeSet?)], newest: Int64) {
        let (entries, newest) = try authoredChanges(after: seq)
        return (entries.map { ($0.seq, $0.changes) }, newest)
    }

    func authoredChanges(after seq: Int64) throws(StoreError) -> (entries: [LoggedCommit], newest: Int64) {
        var entries: [LoggedCommit] = []
        var top: Int64 = 0
        do {
            try read { db in
                // A real read first: inside a snapshot it starts what everything after it reads.
                // Prepared once: every save asks, and parsing the SQL cost more than the rest of a small save's reads.
                let newest = try statement(db, .changesNewest)
                top = try newest.step(db) ? newest.int64(at: 0) : 0
                newest.reset()
                if transaction != nil { counterInTransaction = top }
                guard top > seq else { return }
                try readEntries(db, .changesAfter, after: seq, upTo: top, into: &entries)
                guard try historyHoldsLog(db) else { return }
                let fromLog = entries.count
                try readEntries(db, .historyLogAfter, after: seq, upTo: top, into: &entries)
                guard fromLog > 0 && entries.count > fromLog else { return }
                entries.sort { $0.seq < $1.seq }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read changes made elsewhere", path: path)
        }
        return (entries, top)
    }

    /// Entries numbered past the counter (read on the same snapshot) are damage, a number another program
    /// wrote: taken, they would move a reader's cursor past entries still to come.
    private func readEntries(
        _ db: Database, _ which: HotSQL, after seq: Int64, upTo top: Int64, into entries: inout [LoggedCommit]
    ) throws {
        let rows = try statement(db, which)
        rows.bind(seq, at: 1)
        defer { rows.reset() }
        while try rows.step(db) {
            let number = rows.int64(at: 0)
            guard number > seq && number <= top else { continue }
            let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(rows.handle, 1), count: Int(sqlite3_column_bytes(rows.handle, 1)))
            let entry = ChangeLog.decodeEntry([UInt8](bytes), model: model)
            let at = Date(timeIntervalSince1970: sqlite3_column_double(rows.handle, 2))
            entries.append(LoggedCommit(seq: number, changes: entry?.changes, author: entry?.author, date: at))
        }
    }

    /// Inside the saving transaction: the unit's change set is logged once its undo step is known (the
    /// step's history row may take it); an entry still open is written first.
    func openLog(_ changes: ChangeSet, _ db: Database, author: String?) throws {
        try flushLog(db)
        pendingLog = ChangeLog.encode(changes, model: model, author: author)
    }

    /// The largest entry a history row takes. A larger one (a subtree deleted) goes to `og_changes`: beside
    /// such a save one more row costs nothing, and every undo or redo rewrites the whole history row.
    static let largestEntryInHistory = 1024

    /// Writes the open entry to `og_changes`. Entries older than `ChangeLog.retention` go now and then.
    func flushLog(_ db: Database) throws {
        guard let bytes = pendingLog else { return }
        pendingLog = nil
        let stmt = try statement(db, .changeLogInsert)
        stmt.bind(.double(Date().timeIntervalSince1970), at: 1)
        stmt.bind(bytes: bytes, at: 2)
        try stmt.run(db)
        loggedSeq = RawStatement.lastInsertedRowID(db)
        counterInTransaction = loggedSeq
        try pruneLogNowAndThen(db)
    }

    func pruneLogNowAndThen(_ db: Database) throws {
        savesSincePrune += 1
        guard savesSincePrune >= 256 else { return }
        savesSincePrune = 0
        try db.execute(sql: "DELETE FROM og_changes WHERE at < ?", arguments: [Date().timeIntervalSince1970 - ChangeLog.retention])
    }

    func finishLog() throws(StoreError) -> Int64 {
        guard let db = transaction else { preconditionFailure("finishLog() outside a write transaction") }
        do {
            try flushLog(db)
        } catch {
            throw SQLiteStore.saveError(error, path: path)
        }
        defer { loggedSeq = 0 }
        return loggedSeq
    }

    /// Takes the open entry into the history row being written: its number (the log's counter moved on by
    /// hand) and its bytes. Nil when nothing is open, when it is large, or when the counter has no row yet
    /// (`og_changes` was never written: the entry then goes there, which makes the row).
    func takeOpenLog(_ db: Database) throws -> (seq: Int64, bytes: [UInt8])? {
        guard let bytes = pendingLog, bytes.count <= Self.largestEntryInHistory else { return nil }
        try statement(db, .changeLogNumber).run(db)
        guard RawStatement.changes(db) == 1 else { return nil }
        // The transaction's first read (its poll) gave the counter: read again only without one.
        let seq = try counterInTransaction.map { $0 + 1 } ?? logCounter(db)
        counterInTransaction = seq
        pendingLog = nil
        loggedSeq = seq
        try pruneLogNowAndThen(db)
        return (seq, bytes)
    }

    /// The log's counter as it stands (0 before the first entry).
    func logCounter(_ db: Database) throws -> Int64 {
        let newest = try statement(db, .changesNewest)
        defer { newest.reset() }
        return try newest.step(db) ? newest.int64(at: 0) : 0
    }

    /// True when `og_history` has the log's columns. A store written before them is upgraded when opened
    /// for writing; one opened read-only is asked again each time (another process may upgrade it).
    func historyHoldsLog(_ db: Database) throws -> Bool {
        if historyLogColumns { return true }
        let sql = "SELECT count(*) = 2 FROM pragma_table_info('og_history') WHERE name IN ('logged', 'changes')"
        historyLogColumns = try Bool.fetchOne(db, sql: sql) ?? false
        return historyLogColumns
    }

    /// Before history rows go (trimmed, cut, cleared): the log entries they hold that a reader may still
    /// need move to `og_changes`, under the same numbers. Older ones go with them, as pruning would take them.
    func keepLogEntries(_ db: Database, where condition: String, arguments: StatementArguments = []) throws {
        guard try historyHoldsLog(db) else { return }
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO og_changes (seq, at, changes) SELECT logged, at, changes FROM og_history \
                WHERE logged IS NOT NULL AND changes IS NOT NULL AND at >= ? AND (\(condition))
                """, arguments: [Date().timeIntervalSince1970 - ChangeLog.retention] + arguments)
    }
}
