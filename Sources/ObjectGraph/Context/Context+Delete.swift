extension Context {
    /// Deletes `object` and applies its delete rules at once: cascades delete related objects (their
    /// will-delete hooks know they run in a cascade), nullify cuts the inverse, deny is checked at save.
    ///
    /// ```swift
    /// context.delete(groceries)   // its children go too (cascade)
    /// ```
    public func delete(_ object: ManagedObject) {
        guard object.context === self, !object.isDeleted else { return }
        delete(object, root: object.objectID, cascade: false)
    }

    /// Deletes `first` and everything its cascade rules reach, with an explicit list of what is still to
    /// delete: a chain of 100,000 levels costs memory, not the thread's stack.
    private func delete(_ first: ManagedObject, root: ObjectID, cascade: Bool) {
        var work = [(first, cascade)]
        while let (o, cascade) = work.popLast() {
            guard !o.isDeleted else { continue }
            fulfill(o)
            o.isDeleted = true
            o.prepareForDeletion(Deletion(root: root, isCascade: cascade))
            for p in o.entity.properties {
                guard let r = p.relationship, r.deleteRule == .cascade || r.deleteRule == .nullify else { continue }
                let targets: [Int64]
                if r.storesForeignKey {
                    targets = o.toOneID(slot: p.slot, r).map { [$0] } ?? []
                } else {
                    if r.deleteRule == .cascade, o.relations[p.slot]?.stored == nil, !o.isInserted {
                        // Read the whole rows of what will be deleted in one query, not one per object.
                        o.relations[p.slot, default: RelationState()].stored = loadRelation(of: o, slot: p.slot, prefetch: true)
                    }
                    targets = Array(o.members(slot: p.slot)).sorted()
                }
                let inverse = model.entities[r.destination].properties[r.inverseSlot].relationship!
                // Reversed onto the list, so they are deleted in order.
                for t in targets.reversed() {
                    let target = object(for: ObjectID(entity: r.destination, rowID: t))
                    guard !target.isDeleted else { continue }
                    if r.deleteRule == .cascade {
                        work.append((target, true))
                    } else {
                        target.unlink(slot: r.inverseSlot, inverse, o.objectID.rowID)
                    }
                }
            }
            if o.isInserted {
                // Never saved: it simply stops existing.
                forget(o)
            } else {
                deleted.append(o)
            }
        }
    }
}
