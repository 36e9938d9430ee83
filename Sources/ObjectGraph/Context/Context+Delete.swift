extension Context {
    /// Deletes `object` and applies its delete rules at once: cascades delete related objects (their
    /// will-delete hooks know they run in a cascade), nullify cuts the inverse, deny is checked at save.
    ///
    /// ```swift
    /// context.delete(groceries)   // its children go too (cascade)
    /// ```
    public func delete(_ object: ManagedObject) {
        guard object.context === self, !object.isDeleted else { return }
        if propagatesDeletesAtSave {
            fulfill(object)
            noteRead(object.entity.index)
            object.isDeleted = true
            deferredDeletes.append(object)
            return
        }
        delete(object, root: object.objectID, cascade: false)
    }

    /// Runs the delete rules of objects deleted while ``propagatesDeletesAtSave`` holds them back, as a save
    /// does first: their will-delete hooks, cascades and nullifies, with what the relationships hold now.
    public func processPendingChanges() {
        while !deferredDeletes.isEmpty {
            let waiting = deferredDeletes
            deferredDeletes = []
            for o in waiting where o.context === self && o.isDeleted {
                o.isDeleted = false
                delete(o, root: o.objectID, cascade: false)
            }
        }
    }

    /// Deletes `first` and everything its cascade rules reach, with an explicit list of what is still to
    /// delete: a chain of 100,000 levels costs memory, not the thread's stack.
    private func delete(_ first: ManagedObject, root: ObjectID, cascade: Bool) {
        preloadTree(below: first)
        var work = [(first, cascade)]
        var count = 0
        while let (o, cascade) = work.popLast() {
            guard !o.isDeleted else { continue }
            count += 1
            if count % 4096 == 0 { store.heartbeat?() }
            deleteOne(o, root: root, cascade: cascade) { work.append(($0, true)) }
        }
    }

    /// Deletes `o` alone: its hook, the nullify rules of its relationships, and each object a cascade rule
    /// reaches handed to `cascadeTo` (in order). `skipping` is a relationship not followed (`deleteTree`
    /// deletes what is below as rows).
    func deleteOne(_ o: ManagedObject, root: ObjectID, cascade: Bool, skipping: [Int] = [], cascadeTo: (ManagedObject) -> Void = { _ in }) {
        fulfill(o)
        o.isDeleted = true
        o.prepareForDeletion(Deletion(root: root, isCascade: cascade))
        for p in o.entity.properties where !skipping.contains(p.slot) {
            guard let r = p.relationship, r.deleteRule == .cascade || r.deleteRule == .nullify else { continue }
            // A many-to-many's links go with the object through their own relationship; only a cascade has
            // more to do.
            if r.isManyToMany && r.deleteRule == .nullify { continue }
            let targets: [Int64]
            if r.storesForeignKey {
                targets = o.toOneID(slot: p.slot, r).map { [$0] } ?? []
            } else if r.isManyToMany {
                targets = Array(o.members(slot: p.slot)).sorted()
            } else {
                if r.deleteRule == .cascade, o.relations[p.slot]?.stored == nil, !o.isInserted {
                    // Read the whole rows of what will be deleted in one query, not one per object.
                    o.relations[p.slot, default: RelationState()].stored = loadRelation(of: o, slot: p.slot, prefetch: true)
                }
                targets = Array(o.members(slot: p.slot)).sorted()
            }
            let inverse = model.entities[r.destination].properties[r.inverseSlot].relationship!
            // Reversed onto the list, so they are deleted in order.
            var reached: [ManagedObject] = []
            for t in targets.reversed() {
                let target = object(for: ObjectID(entity: r.destination, rowID: t))
                guard !target.isDeleted else { continue }
                if r.deleteRule == .cascade {
                    reached.append(target)
                } else {
                    target.unlink(slot: r.inverseSlot, inverse, o.objectID.rowID)
                }
            }
            for t in reached { cascadeTo(t) }
        }
        if o.isInserted {
            // Never saved: it simply stops existing.
            forget(o)
        } else {
            deleted.append(o)
        }
    }

    /// The links (many-to-many) of every object of the tree a cascade will delete, read in a few batches per
    /// relationship and handed to each object as its members, so the cascade reads none one at a time.
    private func preloadLinks(of ids: [Int64], entity e: EntityDescription) {
        for slot in Self.linkSlots(of: e, in: model) {
            let r = e.properties[slot].relationship!
            // A failed read leaves the cascade to read each object's links, as it did without this.
            guard let rows = try? linkRows(of: ids, entity: e, slot: slot) else { return }
            statistics.rowsLoaded += rows.count
            var members: [Int64: Set<Int64>] = Dictionary(uniqueKeysWithValues: ids.map { ($0, []) })
            for (id, row) in rows {
                if case .integer(let owner) = row[r.inverseSlot] { members[owner, default: []].insert(id.rowID) }
                if registered[id].map({ $0.isFault }) ?? true { rowCache[id] = row }
            }
            for (owner, set) in members {
                let o = object(for: ObjectID(entity: e.index, rowID: owner))
                guard !o.isInserted, o.relations[slot]?.stored == nil else { continue }
                o.relations[slot, default: RelationState()].stored = set
            }
        }
    }

    /// Before a cascade down a relationship of an entity to itself (a tree): every row below `first`, at every
    /// depth, read in one walk and a few batches, and each one's members known from their keys, so the
    /// cascade makes no query per object (100,000 items: one read, not 100,000; a leaf: one read, as before).
    private func preloadTree(below first: ManagedObject) {
        guard !first.isInserted else { return }
        let e = first.entity
        for p in e.properties {
            guard let r = p.relationship, r.deleteRule == .cascade, r.isToMany, !r.isManyToMany, r.destination == e.index,
                first.relations[p.slot]?.stored == nil
            else { continue }
            // A failed read leaves the cascade to read each object's members, as it did without this.
            guard let rows = try? store.backend.descendantRows(of: [first.objectID.rowID], entity: e, keySlot: r.inverseSlot) else { return }
            statistics.rowsLoaded += rows.count
            var members: [Int64: Set<Int64>] = [first.objectID.rowID: []]
            members.reserveCapacity(rows.count + 1)
            for (id, row) in rows {
                if members[id] == nil { members[id] = [] }
                if case .integer(let owner) = row[r.inverseSlot] { members[owner, default: []].insert(id) }
                let oid = ObjectID(entity: e.index, rowID: id)
                if registered[oid].map({ $0.isFault }) ?? true { rowCache[oid] = row }
            }
            // As `loadRelation` would have found them, one object at a time; objects that hold their own
            // (read or changed in this context) keep them.
            for (owner, set) in members {
                let o = owner == first.objectID.rowID ? first : object(for: ObjectID(entity: e.index, rowID: owner))
                guard !o.isInserted, o.relations[p.slot]?.stored == nil else { continue }
                o.relations[p.slot, default: RelationState()].stored = set
            }
            preloadLinks(of: Array(members.keys), entity: e)
            return
        }
    }
}
