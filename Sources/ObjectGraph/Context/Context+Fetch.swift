import GRDB

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
            ids = try fetchIDs(request, entity, prefetching: rows)
            prefetched = rows
        } else if pending.isEmpty {
            ids = try fetchIDs(request, entity)
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
        var types: [AttributeType] = []
        for key in keys { types.append(try entity.storedProperty(key).attribute?.type ?? .integer64) }
        let columns = (["\"id\""] + keys.map { ObjectPredicate.column($0, entity) }).joined(separator: ", ")
        let (sql, args) = selectSQL(request, entity, columns: columns, limit: request.limit, offset: request.offset)
        var out: [(id: ObjectID, values: [Value])] = []
        do {
            try store.read { db in
                let stmt = try store.statement(db, sql)
                for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                while try stmt.step(db) {
                    var values: [Value] = []
                    values.reserveCapacity(types.count)
                    for (k, t) in types.enumerated() { values.append(stmt.value(at: Int32(k + 1), as: t)) }
                    out.append((ObjectID(entity: entity.index, rowID: stmt.int64(at: 0)), values))
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot fetch \(entity.name) values", path: store.path)
        }
        return out
    }

    /// The number of objects `request` would fetch.
    public func count(_ request: FetchRequest) throws(StoreError) -> Int {
        let entity = try entityOf(request)
        let pending = request.includesPendingChanges ? pendingObjects(of: entity) : []
        if pending.isEmpty && request.limit == nil && request.offset == 0 {
            let (condition, args) = request.predicate.sql(for: entity)
            do {
                return try store.read { db in
                    let stmt = try store.statement(db, "SELECT count(*) FROM \"\(entity.name)\" WHERE \(condition)")
                    for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                    _ = try stmt.step(db)
                    let n = Int(stmt.int64(at: 0))
                    stmt.reset()
                    return n
                }
            } catch {
                throw StoreError.wrap(error, "cannot count \(entity.name) objects", path: store.path)
            }
        }
        var ids = request
        ids.propertiesToFetch = nil
        return try fetch(ids).count
    }

    /// Sorted IDs as stored, with the request's window; with `rows`, the columns of its layout are read
    /// into it in the same pass.
    private func fetchIDs(_ request: FetchRequest, _ entity: EntityDescription, prefetching rows: PrefetchedRows? = nil)
        throws(StoreError) -> [Int64]
    {
        let columns = rows?.layout.columns ?? "\"id\""
        let (sql, args) = selectSQL(request, entity, columns: columns, limit: request.limit, offset: request.offset)
        var out: [Int64] = []
        do {
            try store.read { db in
                let stmt = try store.statement(db, sql)
                for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                if let rows {
                    while try stmt.step(db) {
                        out.append(stmt.int64(at: 0))
                        rows.append(stmt)
                    }
                } else {
                    while try stmt.step(db) { out.append(stmt.int64(at: 0)) }
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot fetch \(entity.name) objects", path: store.path)
        }
        return out
    }

    func selectSQL(
        _ request: FetchRequest, _ entity: EntityDescription, columns: String, limit: Int?, offset: Int,
        and extra: (String, [Value])? = nil
    ) -> (String, [Value]) {
        var (condition, args) = request.predicate.sql(for: entity)
        if let extra {
            condition = "(\(condition)) AND \(extra.0)"
            args += extra.1
        }
        let order = (request.sortKeys.map { "\(ObjectPredicate.column($0.key, entity)) \($0.ascending ? "ASC" : "DESC")" }
            + ["\"id\" \(request.idAscending ? "ASC" : "DESC")"]).joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \"\(entity.name)\" WHERE \(condition) ORDER BY \(order)"
        if limit != nil || offset > 0 {
            // Bound, not written into the text: one cached statement for every window of a request.
            sql += " LIMIT ? OFFSET ?"
            args += [.integer(Int64(limit ?? -1)), .integer(Int64(offset))]
        }
        return (sql, args)
    }

    /// Sorted (id, sort keys) pairs as stored, optionally with the request's limit and offset applied.
    func fetchRows(_ request: FetchRequest, _ entity: EntityDescription, limit: Int?, offset: Int) throws(StoreError)
        -> [(id: Int64, keys: [Value])]
    {
        let sortKeys = request.sortKeys.map { d in entity.property(d.key)! }
        let (sql, args) = selectSQL(
            request, entity, columns: (["\"id\""] + request.sortKeys.map { ObjectPredicate.column($0.key, entity) }).joined(separator: ", "),
            limit: limit, offset: offset)
        let types = sortKeys.map { $0.attribute?.type ?? .integer64 }
        var out: [(id: Int64, keys: [Value])] = []
        do {
            try store.read { db in
                let stmt = try store.statement(db, sql)
                for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                while try stmt.step(db) {
                    var keys: [Value] = []
                    if !types.isEmpty {
                        keys.reserveCapacity(types.count)
                        for (k, t) in types.enumerated() { keys.append(stmt.value(at: Int32(k + 1), as: t)) }
                    }
                    out.append((stmt.int64(at: 0), keys))
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot fetch \(entity.name) objects", path: store.path)
        }
        return out
    }

    /// The stored result with this context's unsaved changes applied, in request order (no window).
    private func merged(_ request: FetchRequest, _ entity: EntityDescription, _ pending: [ManagedObject]) throws(StoreError)
        -> [(id: Int64, keys: [Value])]
    {
        let dirty = Set(pending.map(\.objectID.rowID))
        // At most `pending.count` stored rows can drop out, so a window needs only that many more rows.
        let limit = request.limit.map { request.offset + $0 + pending.count }
        let stored = try fetchRows(request, entity, limit: limit, offset: 0).filter { !dirty.contains($0.id) }
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
        guard let e = model.entity(request.entity) else {
            throw StoreError(.sqlite, "no entity named \(request.entity) in the model", entity: request.entity)
        }
        return e
    }
}
