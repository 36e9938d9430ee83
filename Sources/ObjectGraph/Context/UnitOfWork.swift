/// What one save writes, validated: the objects inserted, changed and deleted, and its change set.
struct UnitOfWork {
    let live: [ManagedObject]
    let changed: [ManagedObject]
    let gone: [ManagedObject]
    var changes: ChangeSet

    /// What a save's transaction did, for the bookkeeping after its commit.
    struct Commit {
        let unit: UnitOfWork
        let result: StoreWriteResult
    }

    /// The unit as the store writes it: inserted objects in runs of one entity (an import's items come in
    /// runs), then `rows` added without objects; changed objects by the slots they changed, never a count
    /// the store maintains; deleted objects, then the rows `deleting` deletes without objects.
    /// `uncounted`: the indices of `deleting`'s entries that change no maintained count (they go last, as
    /// `StoreWrite.uncountedDeletes`).
    func storeWrite(
        adding rows: [(EntityDescription, [ObjectID], [[Value]])], deleting: [(EntityDescription, [ObjectID], [[Value]])] = [],
        uncounted: Set<Int> = []
    ) -> StoreWrite {
        var w = StoreWrite(changes: changes)
        var start = 0
        while start < live.count {
            let e = live[start].entity
            var end = start + 1
            while end < live.count && live[end].entity === e { end += 1 }
            // Plain loops: a key-path `map` costs a dynamic key-path application per object.
            var ids: [Int64] = [], rows: [[Value]] = []
            ids.reserveCapacity(end - start)
            rows.reserveCapacity(end - start)
            for o in live[start..<end] {
                ids.append(o.objectID.rowID)
                rows.append(o.values)
            }
            w.inserts.append((e, ids, rows))
            start = end
        }
        for (e, ids, values) in rows { w.inserts.append((e, ids.map(\.rowID), values)) }
        for o in changed {
            let slots = o.updatedColumns
            if !slots.isEmpty { w.updates.append((o.entity, o.objectID.rowID, slots, o.values)) }
        }
        w.deletes = gone.map { ($0.entity, $0.objectID.rowID) }
        for (k, (e, ids, _)) in deleting.enumerated() where !uncounted.contains(k) { for id in ids { w.deletes.append((e, id.rowID)) } }
        for (k, (e, ids, _)) in deleting.enumerated() where uncounted.contains(k) {
            for id in ids { w.deletes.append((e, id.rowID)) }
            w.uncountedDeletes += ids.count
        }
        return w
    }

    /// Turns a failed write into an error that names the entity, object and property at fault: a deferred
    /// foreign key fails at commit without saying which row.
    func diagnose(_ error: any Error, in context: Context) -> any Error {
        guard var e = error as? StoreError, e.code == .foreignKey, e.object == nil else { return error }
        let model = context.model
        switch e.code {
        case .foreignKey:
            // Deferred keys fail at commit without saying which row: find the dangling reference ourselves.
            let deletedIDs = Set(gone.map(\.objectID))
            // A fault in the list changed only inverse sides: it holds no key of its own to blame.
            for o in live + changed where !o.isFault {
                for slot in o.entity.storedSlots {
                    guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot] else { continue }
                    let target = ObjectID(entity: r.destination, rowID: t)
                    if deletedIDs.contains(target) {
                        e.entity = o.entity.name
                        e.object = o.objectID
                        e.property = o.entity.properties[slot].name
                        e.message =
                            "cannot save: \(o.entity.name) \(o.objectID).\(e.property!) still refers to deleted \(model.entities[r.destination].name) \(target)"
                        return e
                    }
                }
            }
            // Or to a row deleted elsewhere since this context read it (the transaction is over: read now).
            for o in live + changed where !o.isFault {
                for slot in o.entity.storedSlots {
                    guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot],
                        // Only to name the object at fault in the save's error: a read that fails names none.
                        let found = try? context.loadRows(entity: model.entities[r.destination], ids: [t]), found.first! == nil
                    else { continue }
                    e.entity = o.entity.name
                    e.object = o.objectID
                    e.property = o.entity.properties[slot].name
                    e.message =
                        "cannot save: \(o.entity.name) \(o.objectID).\(e.property!) refers to \(model.entities[r.destination].name) #\(t), deleted elsewhere"
                    return e
                }
            }
            for o in gone {
                for p in o.entity.properties {
                    guard let r = p.relationship, r.deleteRule == .noAction, !r.storesForeignKey,
                        let left = o.members(slot: p.slot).sorted().first
                    else { continue }
                    e.entity = o.entity.name
                    e.property = p.name
                    e.message =
                        "cannot save: deleted \(o.entity.name) \(o.objectID) is still referred to by \(model.entities[r.destination].name) #\(left) through \(p.name) (no-action rule)"
                    return e
                }
            }
        default: break
        }
        return e
    }
}
