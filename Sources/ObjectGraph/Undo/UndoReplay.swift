/// One undo or redo step applied to a context: checked against what the store holds now (what other
/// contexts and processes did since decides; see ``Context/undo()``) and then made, in the unit of work
/// ``Context/undo()`` saves.
struct UndoReplay {
    let context: Context
    let step: UndoRecord
    /// "undo" or "redo", for messages.
    let verb: String
    /// Rows read already in this transaction (a step's fingerprinted rows, checked): not read again.
    var known: [ObjectID: [Value]] = [:]
    /// Up to this many objects in a step, what it brings back is made objects when the context has
    /// ``Context/willSave`` rules; a bigger one (undoing the delete of a huge subtree) goes in as rows.
    static let objectLimit = 10_000

    /// Inside the open write transaction: checks the step against what the store holds now and changes
    /// the objects to `target` where the store holds `expected`.
    func apply(restoring target: KeyPath<UndoRecord.Entry, [Value]?>, expecting expected: KeyPath<UndoRecord.Entry, [Value]?>) throws {
        try restore(target, expected)
    }

    /// Checks a step against the store as it is now and changes the objects to what it restores.
    private func restore(_ target: KeyPath<UndoRecord.Entry, [Value]?>, _ expected: KeyPath<UndoRecord.Entry, [Value]?>) throws {
        // What the store holds now, read in one batch per entity.
        var current = known
        var byEntity: [Int: [Int64]] = [:]
        for e in step.entries where known[e.id] == nil { byEntity[e.id.entity, default: []].append(e.id.rowID) }
        for (e, ids) in byEntity {
            let rows = try context.loadRows(entity: context.model.entities[e], ids: ids)
            for (k, row) in rows.enumerated() { if let row { current[ObjectID(entity: e, rowID: ids[k])] = row } }
        }
        let goingToo = membersDeleted(by: step, current: current, restoring: target)
        for s in step.entries {
            let id = s.id
            let entity = context.model.entities[id.entity]
            func conflict(_ reason: String) -> UndoConflict {
                UndoConflict(verb: verb, action: step.name, object: id, entity: entity.name, reason: reason)
            }
            // Only the properties this step changed count (counts the store maintains follow from the rest),
            // and never view state: folding an item open since does not stand in the way of undoing it.
            func changed(_ a: [Value], _ b: [Value]) -> [Int] {
                entity.storedSlots.filter { !entity.isMaintained($0) && !entity.isViewState($0) && a[$0] != b[$0] }
            }
            switch (s[keyPath: target], s[keyPath: expected], current[id]) {
            case (nil, _, nil):
                break  // to be removed, and already gone
            case (nil, nil, _?):
                throw conflict("exists again")
            case (nil, let want?, let now?):
                if let slot = changed(want, now).first { throw conflict("was changed elsewhere (\(entity.properties[slot].name))") }
                if let reason = membersLeftBehind(id, now, goingToo: goingToo) { throw conflict(reason) }
            case (_?, nil, nil):
                break  // to be brought back
            case (let values?, nil, let now?):
                if !changed(values, now).isEmpty { throw conflict("exists again") }
            case (_?, _?, nil):
                throw conflict("was deleted elsewhere")
            case (let values?, let want?, let now?):
                for slot in changed(values, want) where now[slot] != want[slot] && now[slot] != values[slot] {
                    throw conflict("was changed elsewhere (\(entity.properties[slot].name))")
                }
            }
        }
        // Objects read before the other change may hold old values: take the store's.
        for (id, row) in current {
            if let o = context.registered[id], !o.hasChanges { o.take(row: row) }
        }
        for (k, s) in step.entries.enumerated() {
            if k % 4096 == 4095 { context.store.heartbeat?() }
            let id = s.id
            switch (s[keyPath: target], current[id]) {
            case (nil, let row?):
                if context.registered[id] == nil {
                    // Not held here: deleted as a row, no object made (undoing an import of a million items).
                    context.deleteRowWithoutRules(id, row: row)
                } else {
                    let o = context.object(for: id)
                    context.fulfill(o)
                    removeWithoutRules(o)
                }
            case (let values?, nil):
                // A program's rules (`willSave`) see objects, not rows: a step of ordinary size brings its
                // objects back as objects when there are rules.
                if context.registered[id] == nil && (context.willSave == nil || step.entries.count > Self.objectLimit) {
                    // Not held here: inserted back as a row, no object made (undoing a delete of 100,000 items,
                    // redoing an import); objects held here that it points to reload their members after the save.
                    context.insertRowBack(id, values: values)
                } else {
                    linkInverses(of: reinsert(id, values: values))
                }
            case (let values?, _?):
                let o = context.object(for: id)
                context.fulfill(o)
                // Only what this step changed: other properties may have been changed elsewhere since.
                let other = s[keyPath: expected] ?? values
                for slot in o.entity.storedSlots
                where !o.entity.isMaintained(slot) && other[slot] != values[slot] && o.values[slot] != values[slot] {
                    if let r = o.entity.properties[slot].relationship {
                        if case .integer(let t) = values[slot] {
                            o.setToOne(slot: slot, r, t, in: context)
                        } else {
                            o.setToOne(slot: slot, r, nil, in: context)
                        }
                    } else {
                        o.setValue(values[slot], slot: slot)
                    }
                }
            case (nil, nil): break
            }
        }
    }

    /// Why deleting `id` would leave members behind: its maintained counts (exact, since the store keeps
    /// them in every write) say how many members it has now, and the step must delete every one of them.
    private func membersLeftBehind(_ id: ObjectID, _ now: [Value], goingToo: [MaintainedCount.Key: Int64]) -> String? {
        let e = context.model.entities[id.entity]
        for p in e.properties {
            guard let name = p.attribute?.countedRelationship, case .integer(let count) = now[p.slot] else { continue }
            let left = count - goingToo[MaintainedCount.Key(entity: e.index, slot: p.slot, id: id.rowID), default: 0]
            if left > 0 { return "has \(left) more \(name) now (added elsewhere)" }
        }
        return nil
    }

    /// For each count the store maintains, how many of its members `step` deletes (of those still stored).
    private func membersDeleted(
        by step: UndoRecord, current: [ObjectID: [Value]],
        restoring target: KeyPath<UndoRecord.Entry, [Value]?>
    ) -> [MaintainedCount.Key: Int64] {
        var out: [MaintainedCount.Key: Int64] = [:]
        for entry in step.entries where entry[keyPath: target] == nil {
            guard let row = current[entry.id] else { continue }
            for feed in context.model.entities[entry.id.entity].countFeeds {
                if case .integer(let owner) = row[feed.keySlot] {
                    out[MaintainedCount.Key(entity: feed.owner, slot: feed.ownerSlot, id: owner), default: 0] += 1
                }
            }
        }
        return out
    }

    /// Deletes without delete rules or hooks: the step already holds every object the original delete
    /// touched. Only the in-memory inverse sides are kept right.
    private func removeWithoutRules(_ o: ManagedObject) {
        guard !o.isDeleted else { return }
        o.isDeleted = true
        for slot in o.entity.storedSlots {
            guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot] else { continue }
            let target = context.object(for: ObjectID(entity: r.destination, rowID: t))
            target.unlink(slot: r.inverseSlot, target.entity.properties[r.inverseSlot].relationship!, o.objectID.rowID)
        }
        if o.isInserted { context.forget(o) } else { context.deleted.append(o) }
    }

    /// After re-inserting an object, tells the objects it points to that it is back.
    private func linkInverses(of o: ManagedObject) {
        for slot in o.entity.storedSlots {
            guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot] else { continue }
            let target = context.object(for: ObjectID(entity: r.destination, rowID: t))
            if r.inverseIsToMany {
                target.relationChanged(slot: r.inverseSlot) { $0.add(o.objectID.rowID) }
            } else {
                target.assignToOne(slot: r.inverseSlot, target.entity.properties[r.inverseSlot].relationship!, o.objectID.rowID)
            }
        }
    }

    private func reinsert(_ id: ObjectID, values: [Value]) -> ManagedObject { context.reinsertObject(id, values: values) }
}
