/// A fetch that must include a context's unsaved changes: the stored rows (without those the context
/// changed) merged in request order with the changed objects that match, as evaluated in memory.
struct PendingMerge {
    let request: FetchRequest
    let entity: EntityDescription
    /// Inserted, changed and deleted objects of the entity.
    let pending: [ManagedObject]
    /// Rows deleted without objects (`Context.deleteTree`).
    var deletedRows: Set<Int64> = []

    /// The stored result with the unsaved changes applied, in request order (no window).
    func merged(with store: any PersistentStore) throws(StoreError) -> [(id: Int64, keys: [Value])] {
        let dirty = deletedRows.union(pending.map(\.objectID.rowID))
        // At most `dirty.count` stored rows can drop out, so a window needs only that many more rows.
        let limit = request.limit.map { request.offset + $0 + dirty.count }
        let stored = try store.fetchSortKeys(request, of: entity, limit: limit).filter { !dirty.contains($0.id) }
        let slots = request.sortKeys.map { entity.property($0.key)!.slot }
        var local: [(id: Int64, keys: [Value])] = []
        for o in pending where !o.isDeleted && request.predicate.evaluate(o) {
            local.append((o.objectID.rowID, slots.map { o.value(slot: $0) }))
        }
        let ascending = request.sortKeys.map(\.ascending)
        func before(_ a: (id: Int64, keys: [Value]), _ b: (id: Int64, keys: [Value])) -> Bool {
            for i in 0..<ascending.count {
                let c = Value.compare(ObjectPredicate.normalized(a.keys[i]), ObjectPredicate.normalized(b.keys[i]))
                if c != 0 { return ascending[i] ? c < 0 : c > 0 }
            }
            return request.idAscending ? a.id < b.id : a.id > b.id
        }
        local.sort(by: before)
        var out: [(id: Int64, keys: [Value])] = []
        out.reserveCapacity(stored.count + local.count)
        var i = 0, j = 0
        while i < stored.count || j < local.count {
            if j == local.count || (i < stored.count && before(stored[i], local[j])) {
                out.append(stored[i]); i += 1
            } else {
                out.append(local[j]); j += 1
            }
        }
        return out
    }
}
