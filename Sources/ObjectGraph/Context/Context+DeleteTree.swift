extension Context {
    /// Deletes `object` and everything below it down its entity's tree (a to-many relationship of the entity
    /// to itself with the cascade rule), like `delete(_:)`, but the rows below are deleted as rows: no object
    /// is made for a row this context does not hold yet, and only `object` and the objects it already holds
    /// get `prepareForDeletion` (as Core Data's batch delete skips them). The rows are in the save's change
    /// set and undo step as any delete. For a subtree of 100,000 that is the cost of reading and deleting
    /// the rows, not of 100,000 objects.
    ///
    /// The links of a many-to-many whose partners stay (nullify) go as rows too. When the entity has other
    /// relationships, or this context has unsaved changes to the entity or its links, it is `delete(_:)`
    /// (their rules need the objects).
    ///
    /// Returns how many were deleted below `object` when it walked the rows; nil when it deleted object by
    /// object (or nothing: `object` was deleted already).
    ///
    /// ```swift
    /// context.deleteTree(project)   // and every task below it, at any depth
    /// ```
    @discardableResult
    public func deleteTree(_ object: ManagedObject) -> Int? {
        deleteTrees([object])
    }

    /// Deletes each of `objects` and everything below it, as ``deleteTree(_:)`` does one, in one walk down
    /// all of them (a range of siblings deleted at once): deleted one at a time, every tree after the first
    /// went object by object, since the first left deleted objects of the entity unsaved. Each object held
    /// below is told the root its delete started from. An object given twice, or below another given, is
    /// deleted once. Returns how many were deleted below them all when it walked the rows; nil when it
    /// deleted object by object (or nothing).
    ///
    /// ```swift
    /// context.deleteTrees(selected)   // three projects and every task below them, in one unit of work
    /// ```
    @discardableResult
    public func deleteTrees(_ objects: [ManagedObject]) -> Int? {
        var given = Set<ObjectID>()
        let roots = objects.filter { $0.context === self && !$0.isDeleted && given.insert($0.objectID).inserted }
        guard let first = roots.first else { return nil }
        /// Object by object: the delete rules read what they need.
        func byObjects() -> Int? {
            for o in roots where !o.isDeleted { delete(o) }
            return nil
        }
        // Checked before anything is deleted: the rule looks for unsaved deletes of the entity.
        guard roots.allSatisfy({ $0.entity === first.entity && !$0.isInserted }), let tree = rowTree(of: first) else { return byObjects() }
        if let below = deleteTreesReadingAside(roots, tree: tree) { return below }
        // A walk that fails falls back to deleting object by object.
        let e = first.entity, rootIDs = roots.map(\.objectID.rowID)
        guard let rows = try? store.backend.descendantRows(of: rootIDs, entity: e, keySlot: tree.inverseSlot) else { return byObjects() }
        // The links (many-to-many) of every item deleted go as rows too, those held here included, in one
        // read; first, so a read that fails changes nothing.
        guard let links = try? linkRows(of: rootIDs + rows.map(\.0), entity: e) else { return byObjects() }
        let linkSlots = Self.linkSlots(of: e, in: model)
        statistics.rowsLoaded += rows.count
        for root in roots { deleteOne(root, root: root.objectID, cascade: false, skipping: [tree.slot] + linkSlots) }
        let rootOf = RootFinder(roots: rootIDs) {
            var keys: [Int64: Int64] = [:]
            for (id, row) in rows { if case .integer(let key) = row[tree.inverseSlot] { keys[id] = key } }
            return keys
        }
        var ids: [ObjectID] = [], values: [[Value]] = []
        ids.reserveCapacity(rows.count)
        values.reserveCapacity(rows.count)
        for (k, (id, row)) in rows.enumerated() {
            if k % 4096 == 4095 { store.heartbeat?() }
            let oid = ObjectID(entity: e.index, rowID: id)
            guard let held = registered[oid] else {
                ids.append(oid)
                values.append(row)
                pendingDeletedRows.insert(id)
                continue
            }
            // Held here (shown, say): deleted as an object, so it knows, and its hook runs. What it is
            // linked to through the tree is all in this walk.
            if held.isFault { rowCache[oid] = row }
            deleteOne(
                held, root: ObjectID(entity: e.index, rowID: rootOf.root(of: id)), cascade: true,
                skipping: [tree.slot, tree.inverseSlot] + linkSlots)
        }
        if !ids.isEmpty {
            pendingDeletes.append((e, ids, values))
            if store.isInTransaction { markUncounted(e, tree: tree) }
        }
        deleteLinks(links)
        return rows.count
    }

    /// The slots of `e`'s hidden to-manys to its links (see `Model.joinSide`): `deleteTree` deletes the links
    /// it reads with `linkRows` as rows, not through these.
    static func linkSlots(of e: EntityDescription, in model: Model) -> [Int] {
        e.properties.compactMap { p in
            guard let r = p.relationship, r.isToMany, !r.isManyToMany, model.joinEntities.contains(model.entities[r.destination].name) else {
                return nil
            }
            return p.slot
        }
    }

    /// The stored links (rows of the model's join entities) whose end is one of `ids` of `e`.
    private func linkRows(of ids: [Int64], entity e: EntityDescription) throws(StoreError) -> [(ObjectID, [Value])] {
        var out: [(ObjectID, [Value])] = []
        for slot in Self.linkSlots(of: e, in: model) { out += try linkRows(of: ids, entity: e, slot: slot) }
        return out
    }

    /// The stored links through `e`'s hidden to-many `slot` whose end is one of `ids`.
    func linkRows(of ids: [Int64], entity e: EntityDescription, slot: Int) throws(StoreError) -> [(ObjectID, [Value])] {
        var out: [(ObjectID, [Value])] = []
        let r = e.properties[slot].relationship!
        let links = model.entities[r.destination]
        let key = links.properties[r.inverseSlot].name
        let names = links.storedSlots.map { links.properties[$0].name }
        var start = 0
        while start < ids.count {
            // Well under SQLite's 32,766 parameters per statement.
            let chunk = Array(ids[start..<min(ids.count, start + 8192)])
            start += chunk.count
            for (id, values) in try fetchValues(FetchRequest(links.name, where: Property(key).oneOf(chunk)), keys: names) {
                var row = links.defaults
                for (slot, value) in zip(links.storedSlots, values) { row[slot] = value }
                out.append((id, row))
            }
        }
        return out
    }

    /// Deletes links read by `linkRows` as rows, held or not: the objects held at their ends forget them
    /// (a link object held here is forgotten after the save, as any row deleted as a row), and no object is
    /// made for an end this context does not hold.
    private func deleteLinks(_ links: [(ObjectID, [Value])]) {
        for (id, row) in links where !pendingDeletedRows.contains(id.rowID) && registered[id]?.isDeleted != true {
            deleteRowWithoutRules(id, row: row)
        }
    }

    /// `deleteTrees` inside a write transaction that has written nothing yet: the IDs below are walked here,
    /// and the rows the undo step keeps are read meanwhile on another thread and connection
    /// (`rowsAside`), while the save deletes them; the objects held here are deleted as objects. How many
    /// below `roots` it deleted; nil (nothing done) when the store cannot read aside.
    private func deleteTreesReadingAside(_ roots: [ManagedObject], tree: (slot: Int, inverseSlot: Int)) -> Int? {
        let e = roots[0].entity, rootIDs = roots.map(\.objectID.rowID)
        // Any failure here means "cannot read aside": the caller takes the other way.
        guard store.isInTransaction, let below = try? store.backend.descendants(of: rootIDs, entity: e, keySlot: tree.inverseSlot)
        else { return nil }
        var rowIDs: [Int64] = [], held: [ManagedObject] = []
        rowIDs.reserveCapacity(below.count)
        for (id, _) in below {
            if let o = registered[ObjectID(entity: e.index, rowID: id)] { held.append(o) } else { rowIDs.append(id) }
        }
        // The faults held here get their rows now (they are few: what is shown), before anything is deleted.
        let faults = held.filter(\.isFault).map(\.objectID.rowID)
        guard let faultRows = try? store.backend.rows(of: e, ids: faults, layout: e.wholeRow) else { return nil }
        guard let links = try? linkRows(of: rootIDs + below.map(\.id), entity: e) else { return nil }
        let linkSlots = Self.linkSlots(of: e, in: model)
        var pending: PendingRows?
        if !rowIDs.isEmpty {
            guard let aside = store.backend.rowsAside(of: e, ids: rowIDs) else { return nil }
            pending = aside
        }
        statistics.rowsLoaded += below.count
        for root in roots { deleteOne(root, root: root.objectID, cascade: false, skipping: [tree.slot] + linkSlots) }
        for (id, row) in zip(faults, faultRows) { if let row { rowCache[ObjectID(entity: e.index, rowID: id)] = row } }
        if !held.isEmpty {
            let rootOf = RootFinder(roots: rootIDs) { Dictionary(below.map { ($0.id, $0.key) }, uniquingKeysWith: { a, _ in a }) }
            for o in held {
                deleteOne(
                    o, root: ObjectID(entity: e.index, rowID: rootOf.root(of: o.objectID.rowID)), cascade: true,
                    skipping: [tree.slot, tree.inverseSlot] + linkSlots)
            }
        }
        defer { deleteLinks(links) }
        guard let pending else { return below.count }
        var ids: [ObjectID] = []
        ids.reserveCapacity(rowIDs.count)
        for (k, id) in rowIDs.enumerated() {
            if k % 4096 == 4095 { store.heartbeat?() }
            ids.append(ObjectID(entity: e.index, rowID: id))
            pendingDeletedRows.insert(id)
        }
        pendingDeletes.append((e, ids, []))
        pendingDeletesAside.append((pendingDeletes.count - 1, pending))
        markUncounted(e, tree: tree)
        statistics.rowsReadAside += ids.count
        return below.count
    }

    /// Marks the last entry of `pendingDeletes` (rows walked below a root in the write transaction that will
    /// delete them) as changing no maintained count, when every count its rows feed is keyed by the tree's
    /// key: each row's key names the row above it, which this same save deletes (the root's own row, deleted
    /// as an object, is counted as usual).
    private func markUncounted(_ e: EntityDescription, tree: (slot: Int, inverseSlot: Int)) {
        guard e.countFeeds.allSatisfy({ $0.keySlot == tree.inverseSlot }) else { return }
        pendingDeletesUncounted.insert(pendingDeletes.count - 1)
    }

    /// Waits for the rows `deleteTreeReadingAside` reads on another thread and puts them in
    /// `pendingDeletes`; before the undo step is made of them.
    func takeRowsReadAside() throws(StoreError) {
        for (index, pending) in pendingDeletesAside { pendingDeletes[index].2 = try pending.rows() }
        pendingDeletesAside = []
    }

    /// The tree relationship `deleteTree` can follow on rows: the entity's one cascade to-many relationship to
    /// itself, when its inverse is the entity's only other relationship and nothing of the entity waits to
    /// be saved here.
    private func rowTree(of object: ManagedObject) -> (slot: Int, inverseSlot: Int)? {
        let e = object.entity
        guard !object.isInserted else { return nil }
        var tree: (slot: Int, inverseSlot: Int)?
        for p in e.properties {
            guard let r = p.relationship else { continue }
            if r.isToMany, !r.isManyToMany, r.deleteRule == .cascade, r.destination == e.index, tree == nil {
                tree = (p.slot, r.inverseSlot)
            }
        }
        guard let tree else { return nil }
        for p in e.properties where p.slot != tree.slot && p.slot != tree.inverseSlot {
            guard let r = p.relationship else { continue }
            // A many-to-many whose partners stay (nullify) and its links, which go as rows too.
            if r.isManyToMany && r.deleteRule == .nullify { continue }
            let destination = model.entities[r.destination]
            if r.isToMany && !r.isManyToMany && r.deleteRule == .cascade && model.joinEntities.contains(destination.name) {
                // Links this context changed are not all in the store yet: their rules need the objects.
                if inserted.contains(where: { $0.entity === destination }) || deleted.contains(where: { $0.entity === destination }) {
                    return nil
                }
                continue
            }
            return nil
        }
        if e.properties[tree.inverseSlot].relationship?.deleteRule == .deny { return nil }
        if inserted.contains(where: { $0.entity === e }) || deleted.contains(where: { $0.entity === e })
            || updated.contains(where: { $0.entity === e && $0.hasChanges }) || pendingRows.contains(where: { $0.0 === e })
        {
            return nil
        }
        return tree
    }

    /// Deletes the stored `row` of `id` as a row, without rules or hooks (an undo step holds everything the
    /// original change touched): only objects held here that it points to forget it.
    func deleteRowWithoutRules(_ id: ObjectID, row: [Value]) {
        let e = model.entities[id.entity]
        for slot in e.storedSlots {
            guard let r = e.properties[slot].relationship, case .integer(let t) = row[slot],
                let target = registered[ObjectID(entity: r.destination, rowID: t)]
            else { continue }
            target.unlink(slot: r.inverseSlot, target.entity.properties[r.inverseSlot].relationship!, id.rowID)
        }
        // Not into an entry whose values are still being read aside, nor one that changes no count.
        if let last = pendingDeletes.indices.last, pendingDeletes[last].0 === e, pendingDeletes[last].1.count == pendingDeletes[last].2.count,
            !pendingDeletesUncounted.contains(last)
        {
            pendingDeletes[last].1.append(id)
            pendingDeletes[last].2.append(row)
        } else {
            pendingDeletes.append((e, [id], [row]))
        }
        pendingDeletedRows.insert(id.rowID)
    }

    /// The row IDs of `entity` deleted as rows in this unit of work.
    func pendingDeletedRowIDs(of entity: EntityDescription) -> Set<Int64> {
        pendingDeletes.contains { $0.0 === entity } ? pendingDeletedRows : []
    }

    /// After a save or a rollback: rows deleted as rows are no longer pending. After the commit, an object
    /// made for one of them since (a fetch in the same unit) is forgotten like a deleted object.
    func finishRowDeletes(committed: Bool) {
        if committed {
            // Most deletes leave no row read ahead: no removal attempt per row then.
            if !rowCache.isEmpty { for (_, ids, _) in pendingDeletes { for id in ids { rowCache[id] = nil } } }
            let rows = pendingDeletes.reduce(0) { $0 + $1.1.count }
            if registered.count < rows / 4 {
                // Fewer objects held than rows deleted (a subtree of 100,000 while a screenful is held): the
                // objects are looked up among the rows, not each row among the objects (13 ms).
                var gone: [ManagedObject] = []
                registered.forEachObject { o in
                    let id = o.objectID
                    if pendingDeletedRows.contains(id.rowID), pendingDeletes.contains(where: { $0.0.index == id.entity && $0.1.contains(id) }) {
                        gone.append(o)
                    }
                }
                for o in gone { forget(o) }
            } else {
                for (_, ids, _) in pendingDeletes { for id in ids { if let o = registered[id] { forget(o) } } }
            }
        }
        pendingDeletes = []
        pendingDeletedRows = []
        pendingDeletesAside = []
        pendingDeletesUncounted = []
    }
}

/// Which of several roots a row found below them is below, climbing by each row's key: asked only for the
/// objects held among the rows, so the keys go into a table only when first asked, and never for one root.
private final class RootFinder {
    private let roots: Set<Int64>
    private let keys: () -> [Int64: Int64]
    private lazy var keyOf: [Int64: Int64] = keys()

    init(roots: [Int64], keys: @escaping () -> [Int64: Int64]) {
        self.roots = Set(roots)
        self.keys = keys
    }

    func root(of id: Int64) -> Int64 {
        if roots.count == 1 { return roots.first! }
        var at = id
        // Each step goes one row up; the walk met every row from a root, so the climb ends at one.
        while !roots.contains(at), let up = keyOf[at] { at = up }
        return at
    }
}
