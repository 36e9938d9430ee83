import GRDB
import GRDBSQLite

extension SQLiteStore {
    func batchUpdate(_ e: EntityDescription, where predicate: ObjectPredicate, set values: [(slot: Int, value: Value)], author: String?)
        throws(StoreError) -> ChangeSet
    {
        guard let db = transaction else { preconditionFailure("batchUpdate outside a write transaction") }
        let (condition, args) = predicate.sql(for: e, absent: absentSlots[e.index] ?? [])
        let sql =
            "UPDATE \(Schema.quote(e.name)) SET " + values.map { "\(Schema.quote(e.properties[$0.slot].name)) = ?" }.joined(separator: ", ")
            + " WHERE \(condition)"
        do {
            let stmt = try statement(db, sql)
            for (k, v) in values.enumerated() { stmt.bind(v.value, at: Int32(k + 1)) }
            for (k, a) in args.enumerated() { stmt.bind(a, at: Int32(values.count + k + 1)) }
            let ids = try ChangedRowIDs.collect(db, table: e.name, operation: SQLITE_UPDATE) { try stmt.run(db) }
            guard !ids.isEmpty else { return ChangeSet() }
            let changes = ChangeSet(
                entity: e.index, updated: ids, mask: PropertyMask(rawValue: values.reduce(UInt64(0)) { $0 | 1 << UInt64($1.slot) }))
            try openLog(changes, db, author: author)
            return changes
        } catch let error as StoreError {
            throw error
        } catch {
            throw SQLiteStore.saveError(error, path: path)
        }
    }

    func batchDelete(_ e: EntityDescription, where predicate: ObjectPredicate, author: String?) throws(StoreError) -> StoreWriteResult {
        guard let db = transaction else { preconditionFailure("batchDelete outside a write transaction") }
        let (condition, args) = predicate.sql(for: e, absent: absentSlots[e.index] ?? [])
        let table = Schema.quote(e.name)
        do {
            var counts = MaintainedCounts()
            if !e.countFeeds.isEmpty {
                // The members each owner loses, read in one grouped pass before the rows go (in the same
                // transaction, so the same rows): the delete itself could only say through RETURNING's
                // temporary table, which cost more than this read.
                let keys = e.countFeeds.map { Schema.quote(e.properties[$0.keySlot].name) }.joined(separator: ", ")
                let grouped = try statement(db, "SELECT \(keys), count(*) FROM \(table) WHERE \(condition) GROUP BY \(keys)")
                for (k, a) in args.enumerated() { grouped.bind(a, at: Int32(k + 1)) }
                let n = Int32(e.countFeeds.count)
                while try grouped.step(db) {
                    let members = grouped.int64(at: n)
                    for (k, feed) in e.countFeeds.enumerated() where grouped.value(at: Int32(k), as: .integer64) != .null {
                        counts.add(feed, owner: grouped.int64(at: Int32(k)), -members)
                    }
                }
            }
            let delete = try statement(db, "DELETE FROM \(table) WHERE \(condition)")
            for (k, a) in args.enumerated() { delete.bind(a, at: Int32(k + 1)) }
            let ids = try ChangedRowIDs.collect(db, table: e.name, operation: SQLITE_DELETE) { try delete.run(db) }
            guard !ids.isEmpty else { return StoreWriteResult(changes: ChangeSet(), counts: []) }
            var changes = ChangeSet()
            changes.delete(contentsOf: ids.lazy.map { ObjectID(entity: e.index, rowID: $0) })
            if !e.fullTextSlots.isEmpty {
                var gone = StoreWrite()
                gone.deletes = ids.map { (e, $0) }
                try writeFullText(db, gone)
            }
            var results = counts.written
            if counts.hasIncrements {
                // The owners are of other entities (an entity with members of its own is refused): none goes.
                let updated = try counts.write(db, store: self, skipping: [])
                for r in updated { changes.update(r.id, PropertyMask(slot: r.slot)) }
                results += updated
            }
            try openLog(changes, db, author: author)
            return StoreWriteResult(changes: changes, counts: results)
        } catch let error as StoreError {
            throw error
        } catch {
            throw SQLiteStore.saveError(error, path: path)
        }
    }
}
