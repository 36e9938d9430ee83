import Foundation
import GRDB

/// The undo history in `og_history` (see `Schema.historyTable`). Each row keeps its position (1, 2, 3… with
/// no gaps) and the bytes of every step up to its own (`cum`), and only a prefix (trimming) or a suffix (a
/// new action cutting redo) is ever removed, so the newest and oldest rows alone give how many actions and
/// bytes there are: recording an action reads the newest row, and the oldest one only near a limit, whatever
/// the size of the history.
extension SQLiteStore {
    /// The newest done action's `seq`, found by walking back from the newest row (over the redo actions).
    private static let newestDone = "SELECT seq FROM og_history WHERE undone = 0 ORDER BY seq DESC LIMIT 1"

    private static let columns =
        "seq, name, at, origin, container_entity, container_id, focus_entity, focus_id, undone, objects, size, model_hash"

    func appendHistory(_ entry: HistoryEntry, step: [UInt8], modelHash: String, limits: HistoryLimits) throws(StoreError) -> Int64 {
        do {
            return try withOpenTransaction { db in
                var newest = try newestEnd(db)
                // Unknown until this append's row is in (a failure on the way leaves it unknown).
                memoInTransaction.historyNewest = nil
                if let n = newest, n.state != HistoryState.done.rawValue {
                    // A new action cuts redo: everything after the newest done action goes (a suffix).
                    let done = try Int64.fetchOne(db, sql: Self.newestDone) ?? 0
                    try keepLogEntries(db, where: "seq > ?", arguments: [done])
                    try db.execute(sql: "DELETE FROM og_history WHERE seq > ?", arguments: [done])
                    newest = try end(db, .historyNewest)
                }
                let insert = try statement(db, .historyInsert)
                insert.bind(text: entry.name, at: 1)
                insert.bind(.double(entry.date.timeIntervalSince1970), at: 2)
                insert.bind(text: entry.origin, at: 3)
                insert.bind(entry.place.container.map { Int64($0.entity) }, at: 4)
                insert.bind(entry.place.container?.rowID, at: 5)
                insert.bind(entry.place.focus.map { Int64($0.entity) }, at: 6)
                insert.bind(entry.place.focus?.rowID, at: 7)
                // Wrapping: numbers another program wrote into a row must not stop the recording (the checks report them).
                let position = (newest?.position ?? 0) &+ 1, cum = (newest?.cum ?? 0) &+ Int64(step.count)
                insert.bind(Int64(entry.objectCount), at: 8)
                insert.bind(Int64(step.count), at: 9)
                insert.bind(text: modelHash, at: 10)
                insert.bind(position, at: 11)
                insert.bind(cum, at: 12)
                insert.bind(bytes: step, at: 13)
                // The save's change-log entry goes in this row (one row written, not one in each table). A
                // row without one still takes the counter as it stands, so `logged` only grows.
                if let log = try takeOpenLog(db) {
                    insert.bind(log.seq, at: 14)
                    insert.bind(bytes: log.bytes, at: 15)
                } else {
                    insert.bind(try counterInTransaction ?? logCounter(db), at: 14)
                    insert.bind(.null, at: 15)
                }
                try insert.run(db)
                let seq = RawStatement.lastInsertedRowID(db)
                let added = HistoryEnd(seq: seq, state: 0, position: position, cum: cum, size: Int64(step.count))
                // Positions start at 1 and `cum` counts from 0, so the history holds at most `position` actions
                // and `cum` bytes: the oldest row is read only when those could pass a limit (or are damaged).
                let mayPass = position > Int64(max(1, limits.actions)) || cum > Int64(limits.bytes) || position < 1 || cum < 0
                if mayPass, let oldest = try end(db, .historyOldest) {
                    try trim(db, from: oldest, to: added, limits)
                }
                memoInTransaction.historyNewest = .some(added)
                return seq
            }
        } catch {
            throw StoreError.wrap(error, "cannot record the action for undo", path: path)
        }
    }

    func replaceHistoryStep(_ sequence: Int64, step: [UInt8], objectCount: Int) throws(StoreError) -> Bool {
        do {
            return try withOpenTransaction { db in
                memoInTransaction.historyNewest = nil
                // Gone (trimmed, cleared) or undone by another process meanwhile: the group goes on as a new action.
                guard let old = try Int64.fetchOne(db, sql: "SELECT size FROM og_history WHERE seq = ? AND undone = 0", arguments: [sequence])
                else { return false }
                let delta = Int64(step.count) - old
                try db.execute(
                    sql: "UPDATE og_history SET step = ?, size = ?, objects = ?, cum = cum + ? WHERE seq = ?",
                    arguments: [Data(step), step.count, objectCount, delta, sequence])
                // Rows recorded after it (by other processes) keep their running totals right.
                if delta != 0 { try db.execute(sql: "UPDATE og_history SET cum = cum + ? WHERE seq > ?", arguments: [delta, sequence]) }
                return true
            }
        } catch {
            throw StoreError.wrap(error, "cannot record the action for undo", path: path)
        }
    }

    func historyTop(undone: Bool, withStep: Bool) throws(StoreError) -> (entry: HistoryEntry, step: [UInt8]?, modelHash: String)? {
        do {
            return try read { db -> (HistoryEntry, [UInt8]?, String)? in
                guard try hasHistory(db) else { return nil }
                // Undone actions follow the done ones (`checkHistory` reports otherwise): the oldest undone one is the
                // first after the newest done one.
                let which = undone ? "undone = 1 AND seq > coalesce((\(Self.newestDone)), 0) ORDER BY seq" : "undone = 0 ORDER BY seq DESC"
                let sql = "SELECT \(Self.columns)\(withStep ? ", step" : "") FROM og_history WHERE \(which) LIMIT 1"
                guard let row = try Row.fetchOne(db.cachedStatement(sql: sql)) else { return nil }
                // A step that is not bytes (damage) is read as none: undo then skips it with a message.
                let step: [UInt8]? = withStep ? Data.fromDatabaseValue(row[12] as DatabaseValue).map { [UInt8]($0) } ?? [] : nil
                return (entry(row), step, String.fromDatabaseValue(row[11] as DatabaseValue) ?? "")
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the undo history", path: path)
        }
    }

    func setHistoryState(_ sequence: Int64, _ state: HistoryState) throws(StoreError) {
        do {
            try withOpenTransaction { db in
                memoInTransaction.historyNewest = nil
                try db.execute(sql: "UPDATE og_history SET undone = ? WHERE seq = ?", arguments: [state.rawValue, sequence])
            }
        } catch {
            throw StoreError.wrap(error, "cannot record the undo", path: path)
        }
    }

    func dropNewestHistory(_ sequence: Int64) throws(StoreError) {
        do {
            try withOpenTransaction { db in
                memoInTransaction.historyNewest = nil
                let newest = "seq = ? AND seq = (SELECT max(seq) FROM og_history)"
                try keepLogEntries(db, where: newest, arguments: [sequence])
                try db.execute(sql: "DELETE FROM og_history WHERE \(newest)", arguments: [sequence])
            }
        } catch {
            throw StoreError.wrap(error, "cannot change the undo history", path: path)
        }
    }

    func clearHistory() throws(StoreError) {
        do {
            try withOpenTransaction { db in
                memoInTransaction.historyNewest = nil
                try keepLogEntries(db, where: "1")
                try db.execute(sql: "DELETE FROM og_history")
            }
        } catch {
            throw StoreError.wrap(error, "cannot clear the undo history", path: path)
        }
    }

    func historyEntries(limit: Int) throws(StoreError) -> [HistoryEntry] {
        do {
            return try read { db in
                guard try hasHistory(db) else { return [] }
                return try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM og_history ORDER BY seq DESC LIMIT ?", arguments: [max(0, limit)])
                    .map(entry)
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the undo history", path: path)
        }
    }

    func historyTotals() throws(StoreError) -> (undo: Int, redo: Int, bytes: Int) {
        do {
            return try read { db in
                guard try hasHistory(db) else { return (0, 0, 0) }
                let row = try Row.fetchOne(
                    db, sql: "SELECT total(undone = 0), total(undone = 1), total(size) FROM og_history")
                func whole(_ d: Double?) -> Int { Int(min(max(d ?? 0, -9.0e18), 9.0e18)) }
                return (whole(row?[0]), whole(row?[1]), whole(row?[2]))
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the undo history", path: path)
        }
    }

    /// (Wrapping arithmetic throughout: a damaged row's numbers give a wrong trim at worst, never a crash.)
    /// Past either limit, drops the oldest actions down to nine tenths of it (so that trimming runs once in
    /// many actions, not on every one; a limit under 10 is kept exactly), never `newest`.
    private func trim(_ db: Database, from oldest: HistoryEnd, to newest: HistoryEnd, _ limits: HistoryLimits) throws {
        let count = newest.position &- oldest.position &+ 1
        let bytes = newest.cum &- oldest.cum &+ oldest.size
        let maxCount = Int64(max(1, limits.actions)), maxBytes = Int64(limits.bytes)
        guard count > maxCount || bytes > maxBytes else { return }
        let keepCount = maxCount - maxCount / 10, keepBytes = maxBytes - maxBytes / 10
        // The last position to drop by count, and by bytes: the first row whose running total leaves what is
        // after it within the limit.
        var last = max(oldest.position &- 1, newest.position &- keepCount)
        if bytes > maxBytes {
            let cut =
                try Int64.fetchOne(
                    db, sql: "SELECT position FROM og_history WHERE cum >= ? ORDER BY seq LIMIT 1", arguments: [newest.cum &- keepBytes]) ?? 0
            last = max(last, cut)
        }
        last = min(last, newest.position &- 1)
        guard last >= oldest.position else { return }
        // Positions follow the rows in order with no gaps: the row at `last` is the (last - oldest)th one. Where
        // they have gaps (damage) that row may be the newest: it stays, the action just recorded.
        let dropped = "seq <= (SELECT seq FROM og_history ORDER BY seq LIMIT 1 OFFSET ?) AND seq < ?"
        let arguments: StatementArguments = [last &- oldest.position, newest.seq]
        try keepLogEntries(db, where: dropped, arguments: arguments)
        try db.execute(sql: "DELETE FROM og_history WHERE \(dropped)", arguments: arguments)
    }

    /// Gives a history table from before 2026-11-27 the change log's columns, before `step` as a new table
    /// has them (read without going through a large step's overflow pages): the rows are copied into a new
    /// table, and its AUTOINCREMENT counter is kept, so that no action number is given twice.
    static func addHistoryLogColumns(_ db: Database) throws {
        let counter = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'og_history'") ?? 0
        let columns = Self.columns + ", position, cum, step"
        try db.execute(sql: "ALTER TABLE og_history RENAME TO og_history_before_log")
        for sql in Schema.historyTable { try db.execute(sql: sql) }
        try db.execute(sql: "INSERT INTO og_history (\(columns)) SELECT \(columns) FROM og_history_before_log")
        try db.execute(sql: "DROP TABLE og_history_before_log")
        try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'og_history'")
        try db.execute(
            sql: "INSERT INTO sqlite_sequence (name, seq) SELECT 'og_history', max(?, coalesce(max(seq), 0)) FROM og_history", arguments: [counter])
    }

    /// The newest (`.historyNewest`) or oldest (`.historyOldest`) row's bookkeeping, nil when there is no history.
    /// The newest row's bookkeeping: as the connection's last commit left it when nothing has committed since
    /// (see ``CommitMemo``), else read.
    private func newestEnd(_ db: Database) throws -> HistoryEnd? {
        guard let known = memoInTransaction.historyNewest else {
            historyMemoTally.reads += 1
            return try end(db, .historyNewest)
        }
        historyMemoTally.hits += 1
        #if DEBUG
            // Every debug build's test that records an action checks the memo against the row.
            let read = try end(db, .historyNewest)
            precondition(read == known, "the newest history row's memo is stale: \(String(describing: known)), not \(String(describing: read))")
        #endif
        return known
    }

    private func end(_ db: Database, _ which: HotSQL) throws -> HistoryEnd? {
        let stmt = try statement(db, which)
        guard try stmt.step(db) else { return nil }
        defer { stmt.reset() }
        return HistoryEnd(
            seq: stmt.int64(at: 0), state: Int(stmt.int64(at: 1)), position: stmt.int64(at: 2), cum: stmt.int64(at: 3),
            size: stmt.int64(at: 4))
    }

    /// An entry from its row, whatever another program wrote into it: a column of the wrong type reads as
    /// nothing (a name of "?", a state of skipped), and a place of an entity this model lacks as no place.
    private func entry(_ row: Row) -> HistoryEntry {
        func value<T: DatabaseValueConvertible>(_ i: Int, _: T.Type) -> T? { T.fromDatabaseValue(row[i] as DatabaseValue) }
        func id(_ e: Int, _ r: Int) -> ObjectID? {
            guard let entity = value(e, Int.self), entity >= 0, entity < model.entities.count, let rowID = value(r, Int64.self) else {
                return nil
            }
            return ObjectID(entity: entity, rowID: rowID)
        }
        return HistoryEntry(
            sequence: value(0, Int64.self) ?? 0, name: value(1, String.self) ?? "?",
            date: Date(timeIntervalSince1970: value(2, Double.self) ?? 0), origin: value(3, String.self) ?? "?",
            place: ActionPlace(container: id(4, 5), focus: id(6, 7)),
            state: value(8, Int.self).flatMap(HistoryState.init(rawValue:)) ?? .skipped, objectCount: value(9, Int.self) ?? 0,
            size: value(10, Int.self) ?? 0)
    }

    /// True when the store has a history table (a store written before it, opened read-only, has none).
    private func hasHistory(_ db: Database) throws -> Bool {
        if let known = historyTableExists { return known }
        let exists = try SQLiteStore.hasTable(db, "og_history")
        historyTableExists = exists
        return exists
    }

    /// The open write transaction's connection; history is only ever written inside one.
    private func withOpenTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        guard let db = transaction else { preconditionFailure("the undo history is written inside a write transaction") }
        return try body(db)
    }
}
