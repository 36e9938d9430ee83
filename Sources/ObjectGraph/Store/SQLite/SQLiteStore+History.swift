import Foundation
import GRDB

/// The undo history in `og_history` (see `Schema.historyTable`), with its totals in `og_metadata` so that
/// recording an action reads two rows whatever the size of the history.
extension SQLiteStore {
    private struct Totals {
        var done = 0
        var undone = 0
        var bytes = 0
    }

    private static let columns =
        "seq, name, at, origin, container_entity, container_id, focus_entity, focus_id, undone, objects, size, model_hash"

    func appendHistory(_ entry: HistoryEntry, step: [UInt8], modelHash: String, limits: HistoryLimits) throws(StoreError) -> Int64 {
        do {
            return try withOpenTransaction { db in
                var totals = try Self.totals(db)
                if totals.undone > 0 {
                    // A new action cuts redo.
                    let sizes = try Int.fetchAll(db, sql: "DELETE FROM og_history WHERE undone = 1 RETURNING size")
                    totals.undone = 0
                    totals.bytes -= sizes.reduce(0, +)
                }
                let insert = try db.cachedStatement(
                    sql: """
                        INSERT INTO og_history (name, at, origin, container_entity, container_id, focus_entity, focus_id, \
                        undone, objects, size, model_hash, step) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
                        """)
                try insert.execute(arguments: [
                    entry.name, entry.date.timeIntervalSince1970, entry.origin,
                    entry.place.container?.entity, entry.place.container?.rowID, entry.place.focus?.entity, entry.place.focus?.rowID,
                    entry.objectCount, step.count, modelHash, Data(step)
                ])
                let seq = db.lastInsertedRowID
                totals.done += 1
                totals.bytes += step.count
                try Self.trim(db, &totals, limits, keeping: seq)
                try Self.write(totals, db)
                return seq
            }
        } catch {
            throw StoreError.wrap(error, "cannot record the action for undo", path: path)
        }
    }

    func replaceHistoryStep(_ sequence: Int64, step: [UInt8], objectCount: Int) throws(StoreError) {
        do {
            try withOpenTransaction { db in
                var totals = try Self.totals(db)
                let old = try Int.fetchOne(db, sql: "SELECT size FROM og_history WHERE seq = ?", arguments: [sequence]) ?? 0
                try db.execute(
                    sql: "UPDATE og_history SET step = ?, size = ?, objects = ? WHERE seq = ?",
                    arguments: [Data(step), step.count, objectCount, sequence])
                totals.bytes += step.count - old
                try Self.write(totals, db)
            }
        } catch {
            throw StoreError.wrap(error, "cannot record the action for undo", path: path)
        }
    }

    func historyTop(undone: Bool, withStep: Bool) throws(StoreError) -> (entry: HistoryEntry, step: [UInt8]?, modelHash: String)? {
        do {
            return try read { db -> (HistoryEntry, [UInt8]?, String)? in
                guard try hasHistory(db) else { return nil }
                let order = undone ? "ASC" : "DESC"
                let sql =
                    "SELECT \(Self.columns)\(withStep ? ", step" : "") FROM og_history WHERE undone = ? ORDER BY seq \(order) LIMIT 1"
                guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [undone ? 1 : 0]) else { return nil }
                let step: [UInt8]? = withStep ? [UInt8](row[12] as Data) : nil
                return (Self.entry(row), step, row[11])
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the undo history", path: path)
        }
    }

    func setHistoryUndone(_ sequence: Int64, _ undone: Bool) throws(StoreError) {
        do {
            try withOpenTransaction { db in
                var totals = try Self.totals(db)
                try db.execute(
                    sql: "UPDATE og_history SET undone = ? WHERE seq = ? AND undone = ?", arguments: [undone ? 1 : 0, sequence, undone ? 0 : 1])
                guard db.changesCount == 1 else { return }
                totals.done += undone ? -1 : 1
                totals.undone += undone ? 1 : -1
                try Self.write(totals, db)
            }
        } catch {
            throw StoreError.wrap(error, "cannot record the undo", path: path)
        }
    }

    func removeHistory(_ sequences: [Int64]?) throws(StoreError) {
        do {
            try withOpenTransaction { db in
                guard let sequences else {
                    try db.execute(sql: "DELETE FROM og_history")
                    try Self.write(Totals(), db)
                    return
                }
                var totals = try Self.totals(db)
                for seq in sequences {
                    guard let row = try Row.fetchOne(db, sql: "DELETE FROM og_history WHERE seq = ? RETURNING undone, size", arguments: [seq])
                    else { continue }
                    if row[0] as Int == 0 { totals.done -= 1 } else { totals.undone -= 1 }
                    totals.bytes -= row[1] as Int
                }
                try Self.write(totals, db)
            }
        } catch {
            throw StoreError.wrap(error, "cannot change the undo history", path: path)
        }
    }

    func historyEntries(limit: Int) throws(StoreError) -> [HistoryEntry] {
        do {
            return try read { db in
                guard try hasHistory(db) else { return [] }
                return try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM og_history ORDER BY seq DESC LIMIT ?", arguments: [max(0, limit)])
                    .map(Self.entry)
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the undo history", path: path)
        }
    }

    func historyTotals() throws(StoreError) -> (undo: Int, redo: Int, bytes: Int) {
        do {
            return try read { db in
                guard try hasHistory(db) else { return (0, 0, 0) }
                let t = try Self.totals(db)
                return (t.done, t.undone, t.bytes)
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the undo history", path: path)
        }
    }

    /// Drops the oldest actions until the history is within `limits`, never `newest`.
    private static func trim(_ db: Database, _ totals: inout Totals, _ limits: HistoryLimits, keeping newest: Int64) throws {
        func drop(through last: Int64) throws {
            let rows = try Row.fetchAll(
                db, sql: "DELETE FROM og_history WHERE seq <= ? AND seq <> ? RETURNING undone, size", arguments: [last, newest])
            for row in rows {
                if row[0] as Int == 0 { totals.done -= 1 } else { totals.undone -= 1 }
                totals.bytes -= row[1] as Int
            }
        }
        let excess = totals.done + totals.undone - max(1, limits.actions)
        if excess > 0,
            let last = try Int64.fetchOne(
                db, sql: "SELECT seq FROM og_history WHERE seq <> ? ORDER BY seq LIMIT 1 OFFSET ?", arguments: [newest, excess - 1])
        {
            try drop(through: last)
        }
        guard totals.bytes > limits.bytes else { return }
        // The oldest first, until what they take brings the rest within the limit.
        let need = totals.bytes - limits.bytes
        var freed = 0
        var last: Int64?
        let rows = try Row.fetchCursor(db, sql: "SELECT seq, size FROM og_history WHERE seq <> ? ORDER BY seq", arguments: [newest])
        while freed < need, let row = try rows.next() {
            last = row[0]
            freed += row[1] as Int
        }
        if let last { try drop(through: last) }
    }

    private static func totals(_ db: Database) throws -> Totals {
        var t = Totals()
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT key, value FROM og_metadata WHERE key IN ('history_done', 'history_undone', 'history_bytes')"))
        for row in rows {
            let v: Int = row[1] ?? 0
            switch row[0] as String {
            case "history_done": t.done = v
            case "history_undone": t.undone = v
            default: t.bytes = v
            }
        }
        return t
    }

    private static func write(_ t: Totals, _ db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO og_metadata (key, value) VALUES ('history_done', ?), ('history_undone', ?), ('history_bytes', ?)"
        ).execute(arguments: [t.done, t.undone, t.bytes])
    }

    private static func entry(_ row: Row) -> HistoryEntry {
        func id(_ e: Int, _ r: Int) -> ObjectID? {
            guard let entity = row[e] as Int?, let rowID = row[r] as Int64? else { return nil }
            return ObjectID(entity: entity, rowID: rowID)
        }
        return HistoryEntry(
            sequence: row[0], name: row[1], date: Date(timeIntervalSince1970: row[2]), origin: row[3],
            place: ActionPlace(container: id(4, 5), focus: id(6, 7)), isUndone: (row[8] as Int) != 0,
            objectCount: row[9], size: row[10])
    }

    /// True when the store has a history table (a store written before it, opened read-only, has none).
    private func hasHistory(_ db: Database) throws -> Bool {
        if let known = historyTableExists { return known }
        let exists = try db.tableExists("og_history")
        historyTableExists = exists
        return exists
    }

    /// The open write transaction's connection; history is only ever written inside one.
    private func withOpenTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        guard let db = transaction else { preconditionFailure("the undo history is written inside a write transaction") }
        return try body(db)
    }
}
