import Foundation
import GRDB
import GRDBSQLite

/// External names in `og_external`, made on first use: row ID (store-wide, so it alone names an object),
/// entity index, and a 16-byte UUID that is unique. Rows are never deleted with their objects: an undone
/// delete brings back the same IDs, and so the same names.
extension SQLiteStore {
    static let externalTable =
        "CREATE TABLE IF NOT EXISTS og_external (id INTEGER PRIMARY KEY, entity INTEGER NOT NULL, uuid BLOB NOT NULL UNIQUE)"

    func externalIDs(_ ids: [ObjectID], assign: Bool) throws(StoreError) -> [UUID?] {
        func look(_ db: Database) throws -> [UUID?] {
            guard try externalTableExists(db) else { return Array(repeating: nil, count: ids.count) }
            let select = try statement(db, "SELECT uuid FROM og_external WHERE id = ?")
            return try ids.map { id in
                select.bind(id.rowID, at: 1)
                defer { select.reset() }
                guard try select.step(db) else { return nil }
                return UUID(
                    bytes: UnsafeRawBufferPointer(
                        start: sqlite3_column_blob(select.handle, 0), count: Int(sqlite3_column_bytes(select.handle, 0))))
            }
        }
        func give(_ db: Database) throws -> [UUID?] {
            try db.execute(sql: Self.externalTable)
            var names = try look(db)
            let insert = try statement(db, "INSERT INTO og_external (id, entity, uuid) VALUES (?, ?, ?)")
            // The names given here, by object: the same object twice in `ids` gets the first one's (a search of
            // the IDs before it, as this once was, made naming 100,000 items take four minutes).
            var given: [ObjectID: UUID] = [:]
            for k in names.indices where names[k] == nil {
                if let earlier = given[ids[k]] {
                    names[k] = earlier
                    continue
                }
                let uuid = UUID()
                insert.bind(ids[k].rowID, at: 1)
                insert.bind(Int64(ids[k].entity), at: 2)
                insert.bind(bytes: uuid.bytes, at: 3)
                try insert.run(db)
                names[k] = uuid
                given[ids[k]] = uuid
            }
            return names
        }
        do {
            if !assign { return try read(look) }
            if let db = transaction { return try give(db) }
            return try withWriteTransaction(give)
        } catch {
            throw StoreError.wrap(error, assign ? "cannot name objects for sharing" : "cannot read the objects' shared names", path: path)
        }
    }

    func objects(named uuids: [UUID]) throws(StoreError) -> [ObjectID?] {
        do {
            return try read { db in
                guard try externalTableExists(db) else { return Array(repeating: nil, count: uuids.count) }
                let select = try statement(db, "SELECT id, entity FROM og_external WHERE uuid = ?")
                return try uuids.map { uuid in
                    select.bind(bytes: uuid.bytes, at: 1)
                    defer { select.reset() }
                    guard try select.step(db) else { return nil }
                    let entity = select.int64(at: 1)
                    // A row another program wrote with an entity this model lacks names nothing here.
                    guard entity >= 0, entity < Int64(model.entities.count) else { return nil }
                    return ObjectID(entity: Int(entity), rowID: select.int64(at: 0))
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read the objects' shared names", path: path)
        }
    }

    func name(_ id: ObjectID, _ uuid: UUID) throws(StoreError) -> Bool {
        func write(_ db: Database) throws -> Bool {
            try db.execute(sql: Self.externalTable)
            let insert = try statement(db, "INSERT OR IGNORE INTO og_external (id, entity, uuid) VALUES (?, ?, ?)")
            insert.bind(id.rowID, at: 1)
            insert.bind(Int64(id.entity), at: 2)
            insert.bind(bytes: uuid.bytes, at: 3)
            try insert.run(db)
            if db.changesCount == 1 { return true }
            // Already there: true when it is this very name.
            let current = try externalIDsIn(db, id)
            if current == uuid { return true }
            guard current == nil,
                let holder = try Row.fetchOne(db, sql: "SELECT id, entity FROM og_external WHERE uuid = ?", arguments: [Data(uuid.bytes)])
            else { return false }
            // The name's object is gone (deleted here): the name moves to `id`.
            let entity: Int64 = holder[1], row: Int64 = holder[0]
            guard entity >= 0, entity < Int64(model.entities.count) else { return false }
            let table = Schema.quote(model.entities[Int(entity)].name)
            if try Int64.fetchOne(db, sql: "SELECT id FROM \(table) WHERE id = ?", arguments: [row]) != nil { return false }
            try db.execute(
                sql: "UPDATE og_external SET id = ?, entity = ? WHERE uuid = ?", arguments: [id.rowID, id.entity, Data(uuid.bytes)])
            return true
        }
        do {
            if let db = transaction { return try write(db) }
            return try withWriteTransaction(write)
        } catch {
            throw StoreError.wrap(error, "cannot name an object for sharing", path: path)
        }
    }

    /// Whether the table exists, as SQLite's in-memory schema says (another connection may have made it
    /// since GRDB last looked, which its cached answer would miss).
    private func externalTableExists(_ db: Database) throws -> Bool {
        // Outside a transaction the schema may be stale: a statement first brings it up to date.
        if transaction == nil { _ = try Int.fetchOne(db, sql: "SELECT 1 FROM sqlite_master LIMIT 1") }
        return sqlite3_table_column_metadata(db.sqliteConnection, "main", "og_external", nil, nil, nil, nil, nil, nil) == SQLITE_OK
    }

    private func externalIDsIn(_ db: Database, _ id: ObjectID) throws -> UUID? {
        guard let data = try Data.fetchOne(db, sql: "SELECT uuid FROM og_external WHERE id = ?", arguments: [id.rowID]) else {
            return nil
        }
        return data.withUnsafeBytes { UUID(bytes: $0) }
    }
}
