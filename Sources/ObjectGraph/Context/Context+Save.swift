extension Context {
    /// Validates every changed object, then writes all changes in one SQLite transaction and publishes
    /// the change set. On failure nothing is written and the context keeps its changes.
    ///
    /// Throws ``ValidationFailure`` (every broken rule) or ``StoreError``.
    public func save() throws {
        try saveChanges()
    }

    /// Saves, naming the unit of work for undo ("Add “Milk”").
    public func save(actionName: String) throws {
        pendingActionName = actionName
        try saveChanges()
    }

    /// Saves without making an undo step: for set-up work the user did not ask for (creating a root
    /// object, migrations of data).
    public func saveWithoutUndo() throws {
        let was = isApplyingHistory
        isApplyingHistory = true
        defer { isApplyingHistory = was }
        try saveChanges()
    }

    /// Runs `edit` and saves what it changed as one unit of work, inside one write transaction that
    /// begins before `edit` reads anything: commits made elsewhere first reach this context (as `poll`
    /// would bring them), then no other connection can commit until this one has. So whatever `edit`
    /// derives from what it reads (the last sibling, a position) is still true when its changes are
    /// written. On any failure nothing is written, the unit's changes are rolled back and the undo
    /// history is kept. `save()` cannot be called inside it.
    ///
    /// ```swift
    /// try context.transaction(actionName: "Add “Milk”") {
    ///     let last = try context.fetch(lastSiblingRequest).first
    ///     …
    /// }
    /// ```
    @discardableResult
    public func transaction<T>(actionName: String? = nil, _ edit: () throws -> T) throws -> T {
        var result: T?
        var unit: UnitOfWork?
        var commit: Commit?
        reservedInTransaction = false
        do {
            try store.writeTransaction { logged in
                // Foreign commits first, so objects read before this transaction show what is stored now.
                try store.poll()
                // Named first, so the edit can rename the step once it knows what it did.
                if let actionName { pendingActionName = actionName }
                result = try edit()
                unit = try prepareSave()
                if let unit {
                    commit = try write(unit)
                    logged = commit!.result.seq
                }
            }
        } catch {
            // IDs reserved inside the transaction were rolled back with it: never hand them out.
            if reservedInTransaction { freshIDs = 0..<0 }
            // Diagnosed while the objects still hold what failed to be written.
            let reported = unit.map { diagnose(error, $0) } ?? error
            discardChanges()
            throw reported
        }
        if let commit { didCommit(commit) } else { clearLists() }
        return result!
    }

    /// Names the undo step of the unit of work being built ("Delete “Work” and 12 sub-items"): for an action
    /// whose name depends on what the unit reads.
    public func setActionName(_ name: String) {
        pendingActionName = name
    }

    private func saveChanges() throws {
        precondition(!store.isInTransaction, "save() inside Context.transaction: the transaction saves when it ends")
        guard let unit = try prepareSave() else {
            clearLists()
            return
        }
        let commit: Commit
        do {
            commit = try store.writeTransaction { logged in
                let c = try write(unit)
                logged = c.result.seq
                return c
            }
        } catch {
            throw diagnose(error, unit)
        }
        didCommit(commit)
    }

    /// What one save writes, validated.
    struct UnitOfWork {
        let live: [ManagedObject]
        let changed: [ManagedObject]
        let gone: [ManagedObject]
        var changes: ChangeSet
    }

    /// What a save's transaction did, for the bookkeeping after its commit.
    struct Commit {
        let unit: UnitOfWork
        let result: StoreWriteResult
    }

    /// The unit of work to save, validated; nil when there is nothing to write.
    private func prepareSave() throws -> UnitOfWork? {
        let live = inserted.filter { !$0.isDeleted }
        let changed = updated.filter { !$0.isDeleted && !$0.isInserted && $0.hasChanges }
        let gone = deleted
        if live.isEmpty && changed.isEmpty && gone.isEmpty && pendingRows.isEmpty { return nil }
        var errors: [ValidationError] = []
        for o in live { validate(o, into: &errors) }
        for o in changed where o.committed != nil { validate(o, into: &errors) }
        for o in gone { validateDelete(o, into: &errors) }
        validateRows(into: &errors)
        if !errors.isEmpty { throw ValidationFailure(errors: errors) }

        var changes = ChangeSet()
        changes.insert(contentsOf: live.lazy.map(\.objectID))
        for (_, ids, _) in pendingRows { changes.insert(contentsOf: ids) }
        for o in changed {
            let mask = o.changedMask
            if !mask.isEmpty { changes.update(o.objectID, mask) }
        }
        for o in gone { changes.delete(o.objectID) }
        return UnitOfWork(live: live, changed: changed, gone: gone, changes: changes)
    }

    /// Hands a unit of work to the store, in the open transaction, as values. Changes nothing in memory,
    /// so a failed commit leaves the context as it was.
    private func write(_ unit: UnitOfWork) throws(StoreError) -> Commit {
        var w = StoreWrite(changes: unit.changes)
        var start = 0
        while start < unit.live.count {
            // Runs of one entity (objects are inserted in runs, e.g. an import's items).
            let e = unit.live[start].entity
            var end = start + 1
            while end < unit.live.count && unit.live[end].entity === e { end += 1 }
            let run = unit.live[start..<end]
            w.inserts.append((e, run.map(\.objectID.rowID), run.map(\.values)))
            start = end
        }
        for (e, ids, rows) in pendingRows { w.inserts.append((e, ids.map(\.rowID), rows)) }
        for o in unit.changed {
            // Never a maintained count: the store keeps those.
            guard let committed = o.committed else { continue }
            let e = o.entity
            let slots = e.storedSlots.filter { committed[$0] != o.values[$0] && !e.isMaintained($0) }
            if !slots.isEmpty { w.updates.append((e, o.objectID.rowID, slots, o.values)) }
        }
        w.deletes = unit.gone.map { ($0.entity, $0.objectID.rowID) }
        let result = try store.backend.write(w)
        var done = unit
        done.changes = result.changes
        return Commit(unit: done, result: result)
    }

    /// After the commit: the context takes in what was written, records the undo step and tells observers,
    /// controllers and the store's other contexts.
    private func didCommit(_ commit: Commit) {
        let (live, changed, gone, changes) = (commit.unit.live, commit.unit.changed, commit.unit.gone, commit.unit.changes)
        generation += 1

        if !isApplyingHistory {
            var step = UndoRecord(name: pendingActionName ?? "")
            for o in live { step.append(o.objectID, before: nil, after: o.values) }
            for (_, ids, rows) in pendingRows { for (id, row) in zip(ids, rows) { step.append(id, before: nil, after: row) } }
            for o in changed where o.committed != nil { step.append(o.objectID, before: o.committed, after: o.values) }
            for o in gone { step.append(o.objectID, before: o.committed ?? o.values, after: nil) }
            undoHistory.record(step)
        }
        pendingActionName = nil

        for o in live {
            o.isInserted = false
            commitRelations(o)
        }
        for o in updated {
            o.committed = nil
            commitRelations(o)
            o.isInUpdatedList = false
        }
        forgetRelationsTouchedByRows()
        for o in gone { forget(o) }
        // Counts as the transaction left them (it may have seen members other processes added).
        for r in commit.result.counts {
            rowCache[r.id] = nil
            guard let o = registered[r.id] else { continue }
            if !o.isFault {
                o.values[r.slot] = .integer(r.value)
            } else if o.prefetched != nil || !o.values.isEmpty {
                o.turnIntoFault()
            }
        }
        clearLists()
        for block in observers.values { block(changes) }
        store.deliver(changes, from: self)
    }

    private func clearLists() {
        for o in updated { o.isInUpdatedList = false }
        inserted = []
        updated = []
        deleted = []
    }

    private func commitRelations(_ o: ManagedObject) {
        if !o.relations.isEmpty {
            for slot in o.relations.keys { o.relations[slot]!.commit() }
        }
        o.relationMask = 0
    }

    /// Turns a failed write into an error that names the entity and property at fault.
    private func diagnose(_ error: any Error, _ unit: UnitOfWork) -> any Error {
        guard var e = error as? StoreError, e.code == .foreignKey, e.object == nil else { return error }
        let (live, changed, gone) = (unit.live, unit.changed, unit.gone)
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
                        e.message = "cannot save: \(o.entity.name) \(o.objectID).\(e.property!) still refers to deleted \(model.entities[r.destination].name) \(target)"
                        return e
                    }
                }
            }
            // Or to a row deleted elsewhere since this context read it (the transaction is over: read now).
            for o in live + changed where !o.isFault {
                for slot in o.entity.storedSlots {
                    guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot],
                        let found = try? loadRows(entity: model.entities[r.destination], ids: [t]), found.first! == nil
                    else { continue }
                    e.entity = o.entity.name
                    e.object = o.objectID
                    e.property = o.entity.properties[slot].name
                    e.message = "cannot save: \(o.entity.name) \(o.objectID).\(e.property!) refers to \(model.entities[r.destination].name) #\(t), deleted elsewhere"
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
                    e.message = "cannot save: deleted \(o.entity.name) \(o.objectID) is still referred to by \(model.entities[r.destination].name) #\(left) through \(p.name) (no-action rule)"
                    return e
                }
            }
        default: break
        }
        return e
    }
}
