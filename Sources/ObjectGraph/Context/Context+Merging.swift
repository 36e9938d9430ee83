extension Context {
    /// Tells this context's results controllers about a change set.
    func notifyControllers(_ changes: ChangeSet, local: Bool) {
        controllers.removeAll { $0.controller == nil }
        for c in controllers {
            // A controller that cannot read the store keeps its last result (the next change retries), and the
            // failure is kept for the next save, which fails with it rather than act on what was not seen.
            do {
                try c.controller?.process(changes, local: local)
            } catch {
                noteReadFailure(error)
            }
        }
    }

    /// Takes in a change set saved elsewhere (another context or process): objects it touched that have no
    /// unsaved changes here become faults and reload on next use; deleted ones become inaccessible; then
    /// controllers deliver their batches. Never an undo step.
    public func merge(_ changes: ChangeSet) {
        takeIn(changes)
        notifyControllers(changes, local: false)
        for token in mergeObservers.keys.sorted() { mergeObservers[token]?(changes) }
    }

    /// The objects' side of `merge`: what the change set touched reloads when next read.
    func takeIn(_ changes: ChangeSet) {
        if unitReadMark != nil {
            if hasChanges {
                for (_, e) in changes.entities { mergedDuringUnit.formUnion(e.updated.keys) }
            } else {
                // Nothing derived is waiting to be written: the next read starts from what is taken in now.
                endUnitReads()
            }
        }
        for (_, e) in changes.entities {
            for id in e.deleted {
                guard let o = registered[id] else { continue }
                if !o.hasChanges {
                    forget(o)
                    o.take(row: o.isFault ? o.entity.defaults : o.values)
                    o.isInaccessible = true
                } else {
                    mergedWhileChanged.insert(id)
                }
            }
            for id in e.inserted { takeInChange(of: id) }
            for (id, _) in e.updated.single { takeInChange(of: id) }
            for run in e.updated.runs {
                // A batch update's 100,000 rows against the few objects a context holds: walk the smaller side.
                if run.rowIDs.count <= registered.count + rowCache.count {
                    for rowID in run.rowIDs { takeInChange(of: ObjectID(entity: run.entity, rowID: rowID)) }
                } else {
                    var held: [ObjectID] = []
                    registered.forEachObject { o in if run.contains(o.objectID) { held.append(o.objectID) } }
                    for id in rowCache.keys where run.contains(id) { held.append(id) }
                    for id in held { takeInChange(of: id) }
                }
            }
        }
        generation += 1
        // Relationship sets cached on objects not touched themselves (a parent whose child moved) may be stale.
        for o in registered.values where !o.relations.isEmpty && o.relationMask == 0 {
            o.relations = [:]
        }
    }

    /// A committed change of `id` taken in: its row read ahead goes, its object becomes a fault (or, with
    /// unsaved changes, is refaulted when its unit ends).
    private func takeInChange(of id: ObjectID) {
        rowCache[id] = nil
        guard let o = registered[id] else { return }
        if !o.hasChanges, !o.isInUpdatedList {
            o.turnIntoFault()
        } else {
            mergedWhileChanged.insert(id)
        }
    }

    /// Objects the context changed that a commit made elsewhere changed (or deleted) before the unit of work
    /// ended: they kept this unit's values and the snapshot from before that commit. Once the unit is saved
    /// or rolled back nothing of theirs is unsaved, and they become faults, so the next read finds what is
    /// stored (the other commit's values beside this unit's) rather than the snapshot.
    func refaultMergedWhileChanged() {
        guard !mergedWhileChanged.isEmpty else { return }
        for id in mergedWhileChanged {
            guard let o = registered[id], !o.hasChanges, !o.isInUpdatedList else { continue }
            o.turnIntoFault()
        }
        mergedWhileChanged = []
    }

    /// Forgets everything cached and has every controller re-read its result (after missed changes).
    func resynchronize() {
        refreshAll()
        for o in registered.values where !o.hasChanges { o.relations = [:] }
        reloadControllers()
    }

    /// Has every results controller read its result again and deliver what changed as one batch. A
    /// controller that cannot read keeps its last result, and the next save fails with the read's error.
    func reloadControllers() {
        controllers.removeAll { $0.controller == nil }
        for c in controllers {
            do {
                try c.controller?.reloadAll()
            } catch {
                noteReadFailure(error)
            }
        }
    }
}
