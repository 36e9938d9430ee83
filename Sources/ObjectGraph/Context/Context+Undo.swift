extension Context {
    /// Undoes the last step: restores every object it touched (attributes, relationships, order keys and
    /// the same IDs) as one new unit of work, and returns the step's name. Throws ``UndoConflict`` when
    /// another context or process changed or deleted one of its objects since; then nothing changes and
    /// the step stays on the stack.
    @discardableResult
    public func undo() throws -> String? {
        guard let step = undoHistory.undoStack.last else { return nil }
        try apply(step, restoring: \.before, expecting: \.after, verb: "undo")
        undoHistory.undoStack.removeLast()
        undoHistory.redoStack.append(step)
        return step.name
    }

    /// Redoes the last undone step; see ``undo()``.
    @discardableResult
    public func redo() throws -> String? {
        guard let step = undoHistory.redoStack.last else { return nil }
        try apply(step, restoring: \.after, expecting: \.before, verb: "redo")
        undoHistory.redoStack.removeLast()
        undoHistory.undoStack.append(step)
        return step.name
    }

    private func apply(
        _ step: UndoRecord, restoring target: KeyPath<UndoRecord.Entry, [Value]?>,
        expecting expected: KeyPath<UndoRecord.Entry, [Value]?>, verb: String
    ) throws {
        if hasChanges {
            throw UndoConflict(verb: verb, action: step.name, object: ObjectID(entity: 0, rowID: 0), entity: "context", reason: "has unsaved changes; save or roll back first")
        }
        // What the store holds now, read in one batch per entity.
        var current: [ObjectID: [Value]] = [:]
        var byEntity: [Int: [Int64]] = [:]
        for e in step.entries { byEntity[e.id.entity, default: []].append(e.id.rowID) }
        for (e, ids) in byEntity {
            let rows = try loadRows(entity: model.entities[e], ids: ids)
            for (k, row) in rows.enumerated() { if let row { current[ObjectID(entity: e, rowID: ids[k])] = row } }
        }
        let goingToo = membersDeleted(by: step, expecting: expected, restoring: target)
        for s in step.entries {
            let id = s.id
            let entity = model.entities[id.entity]
            func conflict(_ reason: String) -> UndoConflict {
                UndoConflict(verb: verb, action: step.name, object: id, entity: entity.name, reason: reason)
            }
            switch (s[keyPath: expected], current[id]) {
            case (nil, nil): break
            case (nil, _?): throw conflict("exists again")
            case (_?, nil): throw conflict("was deleted elsewhere")
            case (let want?, let now?):
                // Only the properties this step changed must still hold what it left there (counts the
                // store maintains follow from the rest and are never compared).
                let other = s[keyPath: target] ?? want
                for slot in entity.storedSlots where !entity.isMaintained(slot) && other[slot] != want[slot] && now[slot] != want[slot] {
                    throw conflict("was changed elsewhere (\(entity.properties[slot].name))")
                }
                if s[keyPath: target] == nil, let reason = membersLeftBehind(id, now, goingToo: goingToo) { throw conflict(reason) }
            }
        }
        // Objects read before the other change may hold old values: take the store's.
        for (id, row) in current {
            if let o = registered[id], !o.hasChanges { o.take(row: row) }
        }
        isApplyingHistory = true
        defer { isApplyingHistory = false }
        for s in step.entries {
            let id = s.id
            switch (s[keyPath: target], current[id]) {
            case (nil, _?):
                let o = object(for: id)
                fulfill(o)
                removeWithoutRules(o)
            case (let values?, nil):
                linkInverses(of: reinsert(id, values: values))
            case (let values?, _?):
                let o = object(for: id)
                fulfill(o)
                // Only what this step changed: other properties may have been changed elsewhere since.
                let other = s[keyPath: expected] ?? values
                for slot in o.entity.storedSlots
                where !o.entity.isMaintained(slot) && other[slot] != values[slot] && o.values[slot] != values[slot] {
                    if let r = o.entity.properties[slot].relationship {
                        if case .integer(let t) = values[slot] { o.setToOne(slot: slot, r, t, in: self) } else { o.setToOne(slot: slot, r, nil, in: self) }
                    } else {
                        o.setValue(values[slot], slot: slot)
                    }
                }
            case (nil, nil): break
            }
        }
        do {
            try save()
        } catch {
            discardChanges()
            throw error
        }
    }

    /// Why deleting `id` would leave members behind: its maintained counts (exact, since the store keeps
    /// them in every write) say how many members it has now, and the step must delete every one of them.
    private func membersLeftBehind(_ id: ObjectID, _ now: [Value], goingToo: [MaintainedCounts.Key: Int64]) -> String? {
        let e = model.entities[id.entity]
        for p in e.properties {
            guard let name = p.attribute?.countedRelationship, case .integer(let count) = now[p.slot] else { continue }
            let left = count - goingToo[MaintainedCounts.Key(entity: e.index, slot: p.slot, id: id.rowID), default: 0]
            if left > 0 { return "has \(left) more \(name) now (added elsewhere)" }
        }
        return nil
    }

    /// For each count the store maintains, how many of its members `step` deletes.
    private func membersDeleted(by step: UndoRecord, expecting expected: KeyPath<UndoRecord.Entry, [Value]?>,
                                restoring target: KeyPath<UndoRecord.Entry, [Value]?>) -> [MaintainedCounts.Key: Int64] {
        var out: [MaintainedCounts.Key: Int64] = [:]
        for entry in step.entries where entry[keyPath: target] == nil {
            guard let row = entry[keyPath: expected] else { continue }
            for feed in model.entities[entry.id.entity].countFeeds {
                if case .integer(let owner) = row[feed.keySlot] {
                    out[MaintainedCounts.Key(entity: feed.owner, slot: feed.ownerSlot, id: owner), default: 0] += 1
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
            let target = object(for: ObjectID(entity: r.destination, rowID: t))
            target.unlink(slot: r.inverseSlot, target.entity.properties[r.inverseSlot].relationship!, o.objectID.rowID)
        }
        if o.isInserted { registered[o.objectID] = nil } else { deleted.append(o) }
    }

    /// After re-inserting an object, tells the objects it points to that it is back.
    private func linkInverses(of o: ManagedObject) {
        for slot in o.entity.storedSlots {
            guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot] else { continue }
            let target = object(for: ObjectID(entity: r.destination, rowID: t))
            if r.inverseIsToMany {
                target.relationChanged(slot: r.inverseSlot) { $0.add(o.objectID.rowID) }
            } else {
                target.assignToOne(slot: r.inverseSlot, target.entity.properties[r.inverseSlot].relationship!, o.objectID.rowID)
            }
        }
    }
}
