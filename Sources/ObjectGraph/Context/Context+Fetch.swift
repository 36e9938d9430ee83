extension Context {
    /// Fetches the IDs matching `request`, in order; objects are made lazily as the result is read.
    /// Unsaved inserts, changes and deletes of this context are included (see `includesPendingChanges`).
    public func fetch(_ request: FetchRequest) throws(StoreError) -> FetchResults {
        let entity = try entityOf(request)
        let layout = try RowLayout(request, entity)
        let pending = request.includesPendingChanges ? pendingObjects(of: entity) : []
        var ids: [Int64]
        var prefetched: PrefetchedRows?
        if pending.isEmpty, request.propertiesToFetch != nil {
            // The caller named what it reads: read it with the IDs, in one pass (see `PrefetchedRows`).
            let rows = PrefetchedRows(entity: entity, layout: try RowLayout(request, entity, sortKeys: false), generation: generation)
            ids = try store.backend.fetchIDs(request, of: entity, prefetching: rows)
            prefetched = rows
        } else if pending.isEmpty {
            ids = try store.backend.fetchIDs(request, of: entity, prefetching: nil)
        } else {
            ids = try merged(request, entity, pending).map(\.id)
            let start = min(request.offset, ids.count)
            let end = request.limit.map { min(ids.count, start + $0) } ?? ids.count
            ids = Array(ids[start..<end])
        }
        return FetchResults(entity: entity, rowIDs: ids, request: request, layout: layout, context: self, prefetched: prefetched)
    }

    /// The stored values of `keys` (attributes or to-one relationships, as row IDs) for every object
    /// `request` matches, in order, without making objects — like Core Data's dictionary results, for
    /// reading a lot once (an export). It reads the store as saved: this context's unsaved changes are
    /// not in it.
    ///
    /// ```swift
    /// for row in try context.fetchValues(FetchRequest("Color"), keys: ["name"]) { print(row.values[0]) }
    /// ```
    public func fetchValues(_ request: FetchRequest, keys: [String]) throws(StoreError) -> [(id: ObjectID, values: [Value])] {
        let entity = try entityOf(request)
        var slots: [Int] = []
        for key in keys { slots.append(try entity.storedProperty(key).slot) }
        return try store.backend.fetchValues(request, of: entity, slots: slots).map { (ObjectID(entity: entity.index, rowID: $0.id), $0.values) }
    }

    /// The number of objects `request` would fetch.
    public func count(_ request: FetchRequest) throws(StoreError) -> Int {
        let entity = try entityOf(request)
        let pending = request.includesPendingChanges ? pendingObjects(of: entity) : []
        if pending.isEmpty && request.limit == nil && request.offset == 0 {
            return try store.backend.count(request, of: entity)
        }
        var ids = request
        ids.propertiesToFetch = nil
        return try fetch(ids).count
    }

    /// The stored result with this context's unsaved changes applied, in request order (no window).
    private func merged(_ request: FetchRequest, _ entity: EntityDescription, _ pending: [ManagedObject]) throws(StoreError)
        -> [(id: Int64, keys: [Value])]
    {
        let dirty = Set(pending.map(\.objectID.rowID))
        // At most `pending.count` stored rows can drop out, so a window needs only that many more rows.
        let limit = request.limit.map { request.offset + $0 + pending.count }
        let stored = try store.backend.fetchSortKeys(request, of: entity, limit: limit).filter { !dirty.contains($0.id) }
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

    /// Objects of `entity` whose stored row differs from this context's view: inserted, deleted, or with
    /// changed attributes or keys.
    func pendingObjects(of entity: EntityDescription) -> [ManagedObject] {
        var out: [ManagedObject] = []
        for o in inserted where o.entity === entity && !o.isDeleted { out.append(o) }
        for o in updated where o.entity === entity && o.committed != nil && !o.isDeleted { out.append(o) }
        for o in deleted where o.entity === entity { out.append(o) }
        return out
    }

    private func entityOf(_ request: FetchRequest) throws(StoreError) -> EntityDescription {
        try entity(named: request.entity)
    }

    /// The model's entity called `name`, or an error naming it.
    func entity(named name: String) throws(StoreError) -> EntityDescription {
        guard let e = model.entity(name) else {
            throw StoreError(.unknownEntity, "no entity named \(name) in the model", entity: name)
        }
        return e
    }
}
