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
}
