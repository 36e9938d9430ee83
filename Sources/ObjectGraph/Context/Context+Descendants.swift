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
        noteRead(object.entity.index)
        let keySlot = try selfRelationKey(of: object, relationship)
        return try store.backend.countDescendants(of: object.objectID.rowID, entity: object.entity, keySlot: keySlot)
    }

    /// The row IDs reachable from `object` as ``countDescendants(of:through:)`` counts them, in no order.
    public func descendantIDs(of object: ManagedObject, through relationship: String) throws(StoreError) -> [Int64] {
        noteRead(object.entity.index)
        let keySlot = try selfRelationKey(of: object, relationship)
        return try store.backend.descendants(of: [object.objectID.rowID], entity: object.entity, keySlot: keySlot).map(\.id)
    }

    /// The slot of the key that `relationship` (to-many, of the object's entity to itself) follows back.
    private func selfRelationKey(of object: ManagedObject, _ relationship: String) throws(StoreError) -> Int {
        let e = object.entity
        guard let slot = e.slot(relationship), let r = e.relationshipOfSlot[slot], r.isToMany, !r.isManyToMany, r.destination == e.index else {
            throw StoreError(
                .notSelfToMany, "\(e.name).\(relationship) is not a to-many relationship of \(e.name) to itself", entity: e.name,
                property: relationship)
        }
        return r.inverseSlot
    }
}
