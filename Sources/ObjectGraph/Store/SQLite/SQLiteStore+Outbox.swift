import Foundation
import GRDB
import GRDBSQLite

/// The outbox in `og_outbox`: present only while a store keeps one, so whether to record is a look in the
/// schema SQLite holds in memory (no statement run per save), current inside a write transaction because its
/// first statement checked the schema's version.
extension SQLiteStore {
    static let outboxTable =
        "CREATE TABLE IF NOT EXISTS og_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, model_hash TEXT NOT NULL, step BLOB NOT NULL, kind INTEGER NOT NULL DEFAULT 0, history INTEGER)"

    /// Whether the outbox has `column` (`kind` and `history` came later: an outbox started by an older
    /// program lacks them).
    private func has(_ db: Database, column: String) -> Bool {
        sqlite3_table_column_metadata(db.sqliteConnection, "main", "og_outbox", column, nil, nil, nil, nil, nil) == SQLITE_OK
    }

    /// The kind of an entry of an outbox without the column, from its name: the only place a name says what
    /// an entry is (an undo's or a redo's began so).
    private static let kindFromName = "CASE WHEN name LIKE 'Undo %' THEN 1 WHEN name LIKE 'Redo %' THEN 2 ELSE 0 END"

    /// Gives an older outbox its later columns, inside the write transaction under way: kinds from names; no
    /// history (its entries are sent as they are, an undo as the inverse).
    private func addColumns(_ db: Database) throws {
        if !has(db, column: "kind") {
            try db.execute(sql: "ALTER TABLE og_outbox ADD COLUMN kind INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "UPDATE og_outbox SET kind = \(Self.kindFromName)")
        }
        if !has(db, column: "history") { try db.execute(sql: "ALTER TABLE og_outbox ADD COLUMN history INTEGER") }
    }

    /// Rewrites the entries written under the model a migration leaves (`hash`, laid out as `old`) in
    /// `model`'s numbers, inside the migration's transaction: a replicator then sends what was done offline
    /// before the upgrade instead of stopping at an entry it cannot read. One that cannot be translated stays,
    /// and is refused when read, as a damaged one is.
    static func translateOutbox(_ db: Database, from old: SlotLayout?, hash: String, to model: Model) throws {
        guard let old, sqlite3_table_column_metadata(db.sqliteConnection, "main", "og_outbox", nil, nil, nil, nil, nil, nil) == SQLITE_OK
        else { return }
        let rows = try Row.fetchAll(db, sql: "SELECT seq, name, step FROM og_outbox WHERE model_hash = ? ORDER BY seq", arguments: [hash])
        for row in rows {
            guard let name = String.fromDatabaseValue(row[1] as DatabaseValue), let step = Data.fromDatabaseValue(row[2] as DatabaseValue),
                let translated = UndoRecord.translated([UInt8](step), name: name, from: old, to: model)
            else { continue }
            try db.execute(
                sql: "UPDATE og_outbox SET step = ?, model_hash = ? WHERE seq = ?",
                arguments: [Data(translated), model.versionHash, row[0] as DatabaseValue])
        }
    }

    func setOutbox(enabled: Bool) throws(StoreError) {
        do {
            try withWriteTransaction { db in
                try db.execute(sql: enabled ? Self.outboxTable : "DROP TABLE IF EXISTS og_outbox")
                memoInTransaction.outbox = nil
            }
        } catch {
            throw StoreError.wrap(error, enabled ? "cannot start the outbox" : "cannot stop the outbox", path: path)
        }
    }

    func outboxIsEnabled() throws(StoreError) -> Bool {
        do {
            // Every save that records an action asks: inside its transaction, as the last commit left it when
            // nothing has committed since (see `CommitMemo`).
            if let db = transaction {
                if let known = memoInTransaction.outbox {
                    #if DEBUG
                        let has = try hasOutbox(db)
                        precondition(has == known, "the memo of the outbox is stale")
                    #endif
                    return known
                }
                let has = try hasOutbox(db)
                memoInTransaction.outbox = has
                return has
            }
            return try read { db in try hasOutbox(db) }
        } catch {
            throw StoreError.wrap(error, "cannot read the outbox", path: path)
        }
    }

    /// Whether the outbox table is there now. Not GRDB's `tableExists`: its answer is cached per connection,
    /// and another connection's `setOutbox(enabled: false)` (a detach while the outliner syncs) left a
    /// long-lived one reading a table that was gone.
    private func hasOutbox(_ db: Database) throws -> Bool {
        try SQLiteStore.hasTable(db, "og_outbox", current: transaction != nil)
    }

    func appendOutbox(_ row: OutboxRow) throws(StoreError) -> Int64 {
        guard let db = transaction else { preconditionFailure("the outbox is written inside a write transaction") }
        do {
            try addColumns(db)
            let insert = try statement(db, "INSERT INTO og_outbox (name, model_hash, step, kind, history) VALUES (?, ?, ?, ?, ?)")
            insert.bind(.string(row.name), at: 1)
            insert.bind(.string(row.modelHash), at: 2)
            insert.bind(bytes: row.step, at: 3)
            insert.bind(.integer(Int64(row.kind)), at: 4)
            insert.bind(row.history.map(Value.integer) ?? .null, at: 5)
            try insert.run(db)
            return db.lastInsertedRowID
        } catch {
            throw StoreError.wrap(error, "cannot record the change for sending", path: path)
        }
    }

    func outbox(after seq: Int64, limit: Int) throws(StoreError) -> [OutboxRow] {
        do {
            return try read { db in
                guard try hasOutbox(db) else { return [] }
                // An older outbox not written to since lacks later columns: read as `addColumns` sets them.
                let kind = has(db, column: "kind") ? "kind" : Self.kindFromName
                let history = has(db, column: "history") ? "history" : "NULL"
                return try Row.fetchAll(
                    db, sql: "SELECT seq, name, step, model_hash, \(kind), \(history) FROM og_outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                    arguments: [seq, max(0, limit)]
                ).map { row in
                    // Values of the wrong type (another program's) read as nothing: the step then fails to decode.
                    OutboxRow(
                        seq: row[0], name: String.fromDatabaseValue(row[1] as DatabaseValue) ?? "",
                        kind: Int.fromDatabaseValue(row[4] as DatabaseValue) ?? 0, history: Int64.fromDatabaseValue(row[5] as DatabaseValue),
                        step: Data.fromDatabaseValue(row[2] as DatabaseValue).map { [UInt8]($0) } ?? [],
                        modelHash: String.fromDatabaseValue(row[3] as DatabaseValue) ?? "")
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the outbox", path: path)
        }
    }

    func outboxCount() throws(StoreError) -> Int {
        do {
            return try read { db in
                guard try hasOutbox(db) else { return 0 }
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM og_outbox") ?? 0
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the outbox", path: path)
        }
    }

    func removeOutbox(through seq: Int64) throws(StoreError) {
        func remove(_ db: Database) throws {
            if try hasOutbox(db) { try db.execute(sql: "DELETE FROM og_outbox WHERE seq <= ?", arguments: [seq]) }
        }
        do {
            // Inside a context's transaction when there is one: a replicator removes what it sent in the same
            // commit as what it takes back of it.
            if let db = transaction { return try remove(db) }
            try withWriteTransaction(remove)
        } catch {
            throw StoreError.wrap(error, "cannot empty the outbox", path: path)
        }
    }
}
