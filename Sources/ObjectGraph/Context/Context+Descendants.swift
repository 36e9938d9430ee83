import GRDB

extension Context {
    /// How many objects are reachable from `object` through the to-many `relationship` and the same
    /// relationship of each of them, at every depth (`object` not counted), as saved: the store follows the
    /// foreign keys themselves, so no stored count is trusted, no objects are made and depth costs no
    /// stack. A cycle (only a damaged store has one) is followed once.
    ///
    /// ```swift
    /// let below = try context.countDescendants(of: groceries, through: "children")   // 12
    /// ```
    public func countDescendants(of object: ManagedObject, through relationship: String) throws(StoreError) -> Int {
        let (sql, args) = try descendantsSQL(of: object, through: relationship, select: "count(*)")
        do {
            return try store.read { db in try Int.fetchOne(db, sql: sql, arguments: StatementArguments(args)) ?? 0 }
        } catch {
            throw StoreError.wrap(error, "cannot count what is below \(object.entity.name) \(object.objectID)", path: store.path)
        }
    }

    /// The row IDs reachable from `object` as ``countDescendants(of:through:)`` counts them, in no order.
    public func descendantIDs(of object: ManagedObject, through relationship: String) throws(StoreError) -> [Int64] {
        let (sql, args) = try descendantsSQL(of: object, through: relationship, select: "id")
        do {
            return try store.read { db in try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(args)) }
        } catch {
            throw StoreError.wrap(error, "cannot read what is below \(object.entity.name) \(object.objectID)", path: store.path)
        }
    }

    private func descendantsSQL(of object: ManagedObject, through relationship: String, select: String) throws(StoreError)
        -> (String, [Int64])
    {
        let e = object.entity
        guard let slot = e.slot(relationship), let r = e.relationshipOfSlot[slot], r.isToMany, r.destination == e.index else {
            throw StoreError(.sqlite, "\(e.name).\(relationship) is not a to-many relationship of \(e.name) to itself", entity: e.name, property: relationship)
        }
        let table = Schema.quote(e.name)
        let key = Schema.quote(e.properties[r.inverseSlot].name)
        // UNION, not UNION ALL: a row met twice (a cycle) is not followed again.
        let sql = "WITH RECURSIVE below(id) AS (SELECT id FROM \(table) WHERE \(key) = ? "
            + "UNION SELECT t.id FROM \(table) t JOIN below ON t.\(key) = below.id) SELECT \(select) FROM below"
        return (sql, [object.objectID.rowID])
    }
}
