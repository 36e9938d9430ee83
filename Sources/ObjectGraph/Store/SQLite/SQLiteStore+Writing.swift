import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// Writes a unit of work in the open transaction: its rows, the counts the store maintains, and its
    /// change-log entry. Deletes go first (a unique value freed by one can be taken by an insert), then
    /// inserts, then updates.
    func write(_ unit: StoreWrite) throws(StoreError) -> StoreWriteResult {
        guard let db = transaction else { preconditionFailure("write(_:) outside a write transaction") }
        do {
            var counts = MaintainedCounts()
            for run in unit.inserts where !run.entity.countFeeds.isEmpty {
                for row in run.rows { counts.countInserted(run.entity, row) }
            }
            let counted = unit.deletes.count - unit.uncountedDeletes
            try writeDeletes(db, unit.deletes[..<counted], counting: true, &counts)
            try writeDeletes(db, unit.deletes[counted...], counting: false, &counts)
            for run in unit.inserts { try writeRun(db, run.entity, run.ids, run.rows, &counts) }
            try writeUpdates(db, unit.updates, &counts)
            try writeFullText(db, unit)
            var changes = unit.changes
            var results = counts.written
            if counts.hasIncrements {
                // The owners this save deletes, found among the few owners with increments (a set of every
                // deleted row cost a 100,000-row delete 12 ms).
                let owners = counts.owners()
                var gone: Set<ObjectID> = []
                for d in unit.deletes {
                    let id = ObjectID(entity: d.entity.index, rowID: d.id)
                    if owners.contains(id) { gone.insert(id) }
                }
                let updated = try counts.write(db, store: self, skipping: gone)
                for r in updated { changes.update(r.id, PropertyMask(slot: r.slot)) }
                results += updated
            }
            if !changes.isEmpty && unit.logs { try openLog(changes, db, author: unit.author) }
            return StoreWriteResult(changes: changes, counts: results)
        } catch let e as StoreError {
            noteIfTransactionEnded(db)
            throw e
        } catch {
            noteIfTransactionEnded(db)
            throw SQLiteStore.saveError(error, path: path)
        }
    }

    /// After a failed write: when SQLite ended the transaction itself (a full disk, an I/O error or no
    /// memory in a statement it cannot take back alone, as an `INSERT OR FAIL` of several rows), every later
    /// statement of this write transaction fails instead of running in autocommit, where each would commit
    /// at once.
    func noteIfTransactionEnded(_ db: Database) {
        if sqlite3_get_autocommit(db.sqliteConnection) != 0 { transactionEnded = true }
    }

    /// A failed write as a ``StoreError`` that names what it can: SQLite says which entity and column a
    /// unique constraint failed on ("UNIQUE constraint failed: Entity.column").
    static func saveError(_ error: any Error, path: String?) -> StoreError {
        var e = StoreError.wrap(error, "cannot save", path: path)
        if e.code == .uniqueConstraint, let msg = e.engine?.message, let r = msg.range(of: "failed: ") {
            let parts = msg[r.upperBound...].split(separator: ",")[0].split(separator: ".")
            if parts.count == 2 {
                e.entity = String(parts[0]).trimmingCharacters(in: .whitespaces)
                e.property = String(parts[1])
                e.message = "cannot save: another \(e.entity!) already has this \(e.property!)"
            }
        }
        return e
    }

    /// Rows of one INSERT statement, when there are that many left; the rest go one by one: the stepping
    /// in, halting and resetting of a statement was most of the cost of a small row.
    static let rowsPerInsert = 32

    /// Writes the rows of `e`. A count the store maintains is written as the number of its members this
    /// save inserts (see `MaintainedCounts`). Columns NULL in every row of the run are left out of the
    /// statement where leaving them out stores NULL: an imported item binds 8 values instead of 22, and
    /// the binding and unbinding of the other 14 was a tenth of the writing thread's instructions.
    ///
    /// `INSERT OR FAIL`: a row that breaks a constraint ends the statement with the rows before it written,
    /// where the default (`ABORT`) takes them back, for which SQLite keeps a statement journal of every
    /// multi-row statement in a transaction: a copy of each page it first touches, 16 KiB apiece, 8 % of a
    /// big import's writing thread. Nothing is lost by it: the error fails the whole write transaction
    /// (`Context.transaction`; a failed `flushRows` fails it even when caught).
    private func writeRun(
        _ db: Database, _ e: EntityDescription, _ ids: [Int64], _ rows: [[Value]], _ counts: inout MaintainedCounts
    ) throws {
        // A few rows (an edit) keep the one statement of every column: the columns' defaults are read once a
        // store, which would cost a quick command more than it saves.
        let omitted = rows.count >= Self.rowsPerInsert ? try nullInEveryRow(db, e, rows) : 0
        let slots = omitted == 0 ? e.storedSlots : e.storedSlots.filter { omitted & (1 << UInt64($0)) == 0 }
        let width = Int32(slots.count + 1)
        let maintained = e.maintainedMask != 0
        var start = 0
        while start < rows.count {
            let n = rows.count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
            let stmt = try statement(db, insertSQL(e, rows: n, omitting: omitted, slots))
            for i in 0..<n {
                let id = ids[start + i], values = rows[start + i]
                var column = 1 + Int32(i) * width
                stmt.bind(id, at: column)
                column += 1
                for slot in slots {
                    if maintained && e.isMaintained(slot) {
                        stmt.bind(.integer(counts.take(e.index, slot: slot, id: id)), at: column)
                    } else {
                        stmt.bind(values[slot], at: column)
                    }
                    column += 1
                }
            }
            try stmt.run(db)
            start += n
            if start % 4096 < n { heartbeat?() }
        }
    }

    /// The slots (as a mask) NULL in every one of `rows` whose column stores NULL when an `INSERT` leaves
    /// it out; never a count the store maintains. Only the slots NULL in the first row are looked at.
    private func nullInEveryRow(_ db: Database, _ e: EntityDescription, _ rows: [[Value]]) throws -> UInt64 {
        guard let first = rows.first else { return 0 }
        var mask: UInt64 = 0
        let allowed = try slotsNullWhenLeftOut(db, e)
        for slot in e.storedSlots where allowed & (1 << UInt64(slot)) != 0 && first[slot].isNull { mask |= 1 << UInt64(slot) }
        // A walk over the set bits: a few instructions a row, where narrowing an array cost 1 % of an import.
        for row in rows.dropFirst() {
            if mask == 0 { return 0 }
            var left = mask
            while left != 0 {
                let slot = left.trailingZeroBitCount
                left &= left - 1
                if !row[slot].isNull { mask &= ~(1 << UInt64(slot)) }
            }
        }
        return mask
    }

    /// The stored slots of `e` that an `INSERT` may leave out to store NULL: their columns have no
    /// default (a column a migration added with one does), and they are not counts the store maintains.
    private func slotsNullWhenLeftOut(_ db: Database, _ e: EntityDescription) throws -> UInt64 {
        if let mask = slotsNullWhenLeftOut[e.index] { return mask }
        var noDefault = Set<String>()
        for row in try Row.fetchAll(db, sql: "SELECT name, dflt_value FROM pragma_table_info(?)", arguments: [e.name]) {
            let dflt: String? = row["dflt_value"]
            if dflt == nil || dflt?.uppercased() == "NULL" { noDefault.insert(row["name"]) }
        }
        var mask: UInt64 = 0
        for slot in e.storedSlots where !e.isMaintained(slot) && noDefault.contains(e.properties[slot].name) { mask |= 1 << UInt64(slot) }
        slotsNullWhenLeftOut[e.index] = mask
        return mask
    }

    /// `INSERT INTO <entity> ("id", <columns of slots>) VALUES (?, …), …` for `rows` rows, built once per
    /// store and shape.
    private func insertSQL(_ e: EntityDescription, rows: Int, omitting omitted: UInt64, _ slots: [Int]) -> String {
        let key = InsertShape(entity: e.index, rows: rows, omitted: omitted)
        if let sql = insertSQL[key] { return sql }
        let row = "(" + Array(repeating: "?", count: slots.count + 1).joined(separator: ",") + ")"
        let columns = (["\"id\""] + slots.map { Schema.quote(e.properties[$0].name) }).joined(separator: ", ")
        let sql =
            "INSERT OR FAIL INTO \(Schema.quote(e.name)) (\(columns)) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ",")
        insertSQL[key] = sql
        return sql
    }

    /// Writes the changed columns of each row. A row that is gone was deleted elsewhere since it was read:
    /// the save fails rather than report a change nobody can see. A changed foreign key that a count
    /// follows moves one member from the owner the store holds to the new one.
    private func writeUpdates(
        _ db: Database, _ updates: [(entity: EntityDescription, id: Int64, slots: [Int], values: [Value])],
        _ counts: inout MaintainedCounts
    ) throws {
        for (e, id, slots, values) in updates {
            for feed in e.countFeeds where slots.contains(feed.keySlot) {
                // The key as stored now, not as the context read it: another process may have moved it.
                let read = try statement(db, "SELECT \(Schema.quote(e.properties[feed.keySlot].name)) FROM \(Schema.quote(e.name)) WHERE id = ?")
                read.bind(id, at: 1)
                let old: Value = try read.step(db) ? read.value(at: 0, as: .integer64) : .null
                read.reset()
                let new = values[feed.keySlot]
                guard old != new else { continue }
                if case .integer(let p) = old { counts.add(feed, owner: p, -1) }
                if case .integer(let p) = new { counts.add(feed, owner: p, 1) }
            }
            let sql =
                "UPDATE \(Schema.quote(e.name)) SET "
                + slots.map { "\(Schema.quote(e.properties[$0].name)) = ?" }.joined(separator: ", ") + " WHERE id = ?"
            let stmt = try statement(db, sql)
            for (k, slot) in slots.enumerated() { stmt.bind(values[slot], at: Int32(k + 1)) }
            stmt.bind(id, at: Int32(slots.count + 1))
            try stmt.run(db)
            if RawStatement.changes(db) == 0 {
                throw StoreError(
                    .conflict, "cannot save: \(e.name) #\(id) was deleted elsewhere", path: path, entity: e.name,
                    object: ObjectID(entity: e.index, rowID: id))
            }
        }
    }

    /// Deletes each row. `counting`, for an entity whose keys feed counts, the statement returns the keys as
    /// stored, so the counts that lose a member are the ones the store says, not the ones the context read;
    /// not counting (`StoreWrite.uncountedDeletes`), no keys are read back (RETURNING was a fifth of a
    /// 100,000-row subtree's delete).
    private func writeDeletes(
        _ db: Database, _ deletes: ArraySlice<(entity: EntityDescription, id: Int64)>, counting: Bool, _ counts: inout MaintainedCounts
    ) throws {
        try forEachDeleteRun(deletes) { e, ids in
            guard counting, !e.countFeeds.isEmpty else {
                try deleteStatement(db, table: Schema.quote(e.name), key: "id", ids).run(db)
                return
            }
            let keys = e.countFeeds.map { Schema.quote(e.properties[$0.keySlot].name) }.joined(separator: ", ")
            let stmt = try deleteStatement(db, table: Schema.quote(e.name), key: "id", ids, returning: keys)
            // A row already deleted elsewhere returns nothing.
            while try stmt.step(db) {
                for (k, feed) in e.countFeeds.enumerated() where stmt.value(at: Int32(k), as: .integer64) != .null {
                    counts.add(feed, owner: stmt.int64(at: Int32(k)), -1)
                }
            }
        }
    }

    /// Runs of one entity among `deletes`, at most `deleteBatch` rows each, with a heartbeat between runs.
    func forEachDeleteRun(
        _ deletes: ArraySlice<(entity: EntityDescription, id: Int64)>, _ body: (EntityDescription, ArraySlice<Int64>) throws -> Void
    ) throws {
        var start = deletes.startIndex
        let ids = Array(deletes.lazy.map { $0.id })[...]
        while start < deletes.endIndex {
            let e = deletes[start].entity
            var end = start + 1
            while end < deletes.endIndex && deletes[end].entity === e && end - start < Self.deleteBatch { end += 1 }
            try body(e, ids[(start - deletes.startIndex)..<(end - deletes.startIndex)])
            start = end
            heartbeat?()
        }
    }

    /// `DELETE FROM table WHERE key = ?` for one row; for more, one statement given the IDs as one JSON
    /// array (`IN (SELECT value FROM json_each(?))`). One statement, not one per few rows: SQLite opens a
    /// statement journal for each statement that can change several rows, and FTS5 writes out its pending
    /// terms at each one, so 256 rows to a statement cost a full-text index 1.8× as much as one statement
    /// for 100,000 (PERFORMANCE.md, "Undo history").
    func deleteStatement(_ db: Database, table: String, key: String, _ ids: ArraySlice<Int64>, returning: String = "") throws -> RawStatement {
        let tail = returning.isEmpty ? "" : " RETURNING \(returning)"
        if ids.count == 1 {
            let stmt = try statement(db, "DELETE FROM \(table) WHERE \(key) = ?" + tail)
            stmt.bind(ids.first!, at: 1)
            return stmt
        }
        let stmt = try statement(db, "DELETE FROM \(table) WHERE \(key) IN (SELECT value FROM json_each(?))" + tail)
        stmt.bind(.string(Self.jsonArray(ids)), at: 1)
        return stmt
    }

    /// How many rows one delete statement removes at most: a heartbeat (the progress shown on screen) comes
    /// between statements.
    static let deleteBatch = 16384
}
