extension Context {
    /// Reserves `count` permanent IDs of `entity`, for rows added with ``insertRows(_:ids:values:)`` (so
    /// rows of one batch can point to each other).
    public func reserveObjectIDs(_ entity: EntityDescription, count: Int) throws(StoreError) -> [ObjectID] {
        guard count > 0 else { return [] }
        let range = try store.reserveIDs(count)
        return range.map { ObjectID(entity: entity.index, rowID: $0) }
    }

    /// Adds whole rows without making objects (like Core Data's batch insert), for imports. `values` are in
    /// slot order (start from `entity.defaults`); foreign keys hold the row ID of their target. The rows are
    /// validated and written at the next save, in the same transaction as the other changes, and they are
    /// in its change set and undo step; fetches see them only after that save.
    ///
    /// ```swift
    /// let ids = try context.reserveObjectIDs(item, count: 2)
    /// context.insertRows(item, ids: ids, values: [row1, row2])
    /// ```
    public func insertRows(_ entity: EntityDescription, ids: [ObjectID], values: [[Value]]) {
        precondition(ids.count == values.count, "one ID per row")
        precondition(values.allSatisfy { $0.count == entity.properties.count }, "rows must have one value per slot")
        pendingRows.append((entity, ids, values))
    }

    /// Checks batch rows like inserted objects.
    func validateRows(into errors: inout [ValidationError]) {
        for (entity, ids, rows) in pendingRows {
            for (id, row) in zip(ids, rows) {
                validator.validate(values: row, id: id, entity: entity, into: &errors)
                for slot in entity.requiredToOneSlots where row[slot].isNull {
                    errors.append(
                        ValidationError(object: id, entity: entity.name, property: entity.properties[slot].name, rule: .required, value: .null))
                }
            }
        }
    }

    /// After a save: objects that point-to sets may now miss the new rows, so they reload when next read.
    func forgetRelationsTouchedByRows() {
        for (entity, _, rows) in pendingRows {
            for slot in entity.storedSlots {
                guard let r = entity.properties[slot].relationship else { continue }
                var targets = Set<Int64>()
                for row in rows { if case .integer(let t) = row[slot] { targets.insert(t) } }
                for t in targets { registered[ObjectID(entity: r.destination, rowID: t)]?.relations[r.inverseSlot] = nil }
            }
        }
        pendingRows = []
    }
}
