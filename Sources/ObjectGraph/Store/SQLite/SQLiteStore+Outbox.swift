import Foundation
import GRDB
import GRDBSQLite

/// The outbox in `og_outbox`: present only while a store keeps one, so whether to record is a look in the
/// schema SQLite holds in memory (no statement run per save), current inside a write transaction because its
/// first statement checked the schema's version.
extension SQLiteStore {
    static let outboxTable =
        "CREATE TABLE IF NOT EXISTS og_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, model_hash TEXT NOT NULL, step BLOB NOT NULL, kind INTEGER NOT NULL DEFAULT 0)"

    /// Whether the outbox has its `kind` column (an outbox started by a program before it has not).
    private func hasKind(_ db: Database) -> Bool {
        sqlite3_table_column_metadata(db.sqliteConnection, "main", "og_outbox", "kind", nil, nil, nil, nil, nil) == SQLITE_OK
    }

    /// Gives an older outbox its `kind` column, inside the write transaction under way: its entries' kinds from
    /// their names, the only place a name says what an entry is (an undo's or a redo's began so).
    private func addKind(_ db: Database) throws {
        guard !hasKind(db) else { return }
        try db.execute(sql: "ALTER TABLE og_outbox ADD COLUMN kind INTEGER NOT NULL DEFAULT 0")
        try db.execute(sql: "UPDATE og_outbox SET kind = CASE WHEN name LIKE 'Undo %' THEN 1 WHEN name LIKE 'Redo %' THEN 2 ELSE 0 END")
    }

    func setOutbox(enabled: Bool) throws(StoreError) {
        do {
            try withWriteTransaction { db in try db.execute(sql: enabled ? Self.outboxTable : "DROP TABLE IF EXISTS og_outbox") }
        } catch {
            throw StoreError.wrap(error, enabled ? "cannot start the outbox" : "cannot stop the outbox", path: path)
        }
    }

    func outboxIsEnabled() throws(StoreError) -> Bool {
        do {
            return try read { db in try hasOutbox(db) }
        } catch {
            throw StoreError.wrap(error, "cannot read the outbox", path: path)
        }
    }

    /// Whether the outbox table is there now. Not GRDB's `tableExists`: its answer is cached per connection,
    /// and another connection's `setOutbox(enabled: false)` (a detach while the outliner syncs) left a
    /// long-lived one reading a table that was gone.
    private func hasOutbox(_ db: Database) throws -> Bool {
        // Outside a transaction the schema may be stale: a statement first brings it up to date.
        if transaction == nil { _ = try Int.fetchOne(db, sql: "SELECT 1 FROM sqlite_master LIMIT 1") }
        return sqlite3_table_column_metadata(db.sqliteConnection, "main", "og_outbox", nil, nil, nil, nil, nil, nil) == SQLITE_OK
    }

    func appendOutbox(_ step: [UInt8], name: String, kind: Int, modelHash: String) throws(StoreError) -> Int64 {
        guard let db = transaction else { preconditionFailure("the outbox is written inside a write transaction") }
        do {
            try addKind(db)
            let insert = try statement(db, "INSERT INTO og_outbox (name, model_hash, step, kind) VALUES (?, ?, ?, ?)")
            insert.bind(.string(name), at: 1)
            insert.bind(.string(modelHash), at: 2)
            insert.bind(bytes: step, at: 3)
            insert.bind(.integer(Int64(kind)), at: 4)
            try insert.run(db)
            return db.lastInsertedRowID
        } catch {
            throw StoreError.wrap(error, "cannot record the change for sending", path: path)
        }
    }

    func outbox(after seq: Int64, limit: Int) throws(StoreError) -> [(seq: Int64, name: String, kind: Int, step: [UInt8], modelHash: String)] {
        do {
            return try read { db in
                guard try hasOutbox(db) else { return [] }
                // An older outbox not written to since has no kind column: its kinds are read as `addKind` sets them.
                let kind = hasKind(db) ? "kind" : "CASE WHEN name LIKE 'Undo %' THEN 1 WHEN name LIKE 'Redo %' THEN 2 ELSE 0 END"
                return try Row.fetchAll(
                    db, sql: "SELECT seq, name, step, model_hash, \(kind) FROM og_outbox WHERE seq > ? ORDER BY seq LIMIT ?",
                    arguments: [seq, max(0, limit)]
                ).map { row in
                    // Values of the wrong type (another program's) read as nothing: the step then fails to decode.
                    (
                        row[0], String.fromDatabaseValue(row[1] as DatabaseValue) ?? "", Int.fromDatabaseValue(row[4] as DatabaseValue) ?? 0,
                        Data.fromDatabaseValue(row[2] as DatabaseValue).map { [UInt8]($0) } ?? [],
                        String.fromDatabaseValue(row[3] as DatabaseValue) ?? ""
                    )
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
