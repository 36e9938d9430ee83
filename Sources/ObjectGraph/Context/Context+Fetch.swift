extension Context {
    /// Fetches the IDs matching `request`, in order; objects are made lazily as the result is read.
    /// Unsaved inserts, changes and deletes of this context are included (see `includesPendingChanges`).
    public func fetch(_ request: FetchRequest) throws(StoreError) -> FetchResults {
        let entity = try entityOf(request)
        noteRead(entity.index)
        statistics.noteSkipped(request.offset)
        let layout = try RowLayout(request, entity)
        let pending = request.includesPendingChanges ? pendingObjects(of: entity) : []
        let gone = request.includesPendingChanges ? pendingDeletedRowIDs(of: entity) : []
        var ids: [Int64]
        var prefetched: PrefetchedRows?
        if pending.isEmpty, gone.isEmpty, request.propertiesToFetch != nil {
            // The caller named what it reads: read it with the IDs, in one pass (see `PrefetchedRows`).
            let rows = PrefetchedRows(entity: entity, layout: try RowLayout(request, entity, sortKeys: false), generation: generation)
            ids = try store.backend.fetchIDs(request, of: entity, prefetching: rows)
            prefetched = rows
            try noteQuery(request, .ids, .ids(ids))
        } else if pending.isEmpty, gone.isEmpty {
            ids = try store.backend.fetchIDs(request, of: entity, prefetching: nil)
            try noteQuery(request, .ids, .ids(ids))
        } else {
            // What the store answers without this unit's changes is the question a save can ask again: asked
            // here only when it is kept (not inside a transaction, not asked before, not past the limit).
            try noteQuery(request, .ids, .ids(try store.backend.fetchIDs(request, of: entity, prefetching: nil)))
            ids = try PendingMerge(request: request, entity: entity, pending: pending, deletedRows: gone).merged(with: store.backend).map(\.id)
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
        noteRead(entity.index)
        statistics.noteSkipped(request.offset)
        var slots: [Int] = []
        for key in keys { slots.append(try entity.storedProperty(key).slot) }
        let rows = try store.backend.fetchValues(request, of: entity, slots: slots)
        try noteQuery(request, .values(slots: slots), .values(ids: rows.map(\.id), values: rows.map(\.values)))
        return rows.map { (ObjectID(entity: entity.index, rowID: $0.id), $0.values) }
    }

    /// The number of objects `request` would fetch.
    public func count(_ request: FetchRequest) throws(StoreError) -> Int {
        let entity = try entityOf(request)
        noteRead(entity.index)
        let pending = request.includesPendingChanges ? pendingObjects(of: entity) : []
        let gone = request.includesPendingChanges ? pendingDeletedRowIDs(of: entity) : []
        if pending.isEmpty && gone.isEmpty && request.limit == nil && request.offset == 0 {
            let n = try store.backend.count(request, of: entity)
            try noteQuery(request, .count, .count(n))
            return n
        }
        var ids = request
        ids.propertiesToFetch = nil
        return try fetch(ids).count
    }

    /// Objects of `entity` whose stored row differs from this context's view: inserted, deleted, or with
    /// changed attributes or keys.
    func pendingObjects(of entity: EntityDescription) -> [ManagedObject] {
        var out: [ManagedObject] = []
        for o in inserted where o.entity === entity && !o.isDeleted { out.append(o) }
        for o in updated where o.entity === entity && o.committed != nil && !o.isDeleted { out.append(o) }
        for o in deleted where o.entity === entity { out.append(o) }
        for o in deferredDeletes where o.entity === entity && !o.isInserted { out.append(o) }
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
