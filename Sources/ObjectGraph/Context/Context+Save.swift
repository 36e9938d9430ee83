extension Context {
    /// Validates every changed object, then writes all changes in one transaction of the store and publishes
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
        let was = (isApplyingHistory, isSavingWithoutUndo)
        (isApplyingHistory, isSavingWithoutUndo) = (true, true)
        defer { (isApplyingHistory, isSavingWithoutUndo) = was }
        try saveChanges()
    }

    /// ``transaction(actionName:_:)`` for work the user did not ask for (a migration of data): no undo step.
    @discardableResult
    public func transactionWithoutUndo<T>(_ edit: () throws -> T) throws -> T {
        let was = (isApplyingHistory, isSavingWithoutUndo)
        (isApplyingHistory, isSavingWithoutUndo) = (true, true)
        defer { (isApplyingHistory, isSavingWithoutUndo) = was }
        return try transaction(edit)
    }

    /// ``transaction(actionName:_:)`` for a change the program makes to the data (an upgrade's step) that
    /// other replicas must see but the user cannot undo: in the store's outbox when it keeps one, never in
    /// the undo history.
    @discardableResult
    public func transactionOutsideUndo<T>(actionName: String, _ edit: () throws -> T) throws -> T {
        let was = isSavingOutsideUndo
        isSavingOutsideUndo = true
        defer { isSavingOutsideUndo = was }
        return try transaction(actionName: actionName, edit)
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
        var commit: UnitOfWork.Commit?
        reservedInTransaction = false
        flushFailure = nil
        undoHistory.unitBegins()
        defer { endUnitReads() }
        do {
            try store.writeTransaction { logged in
                // Changes made before the transaction, on reads made before it, are checked as a plain save's
                // are; the edit then reads inside the write lock.
                if hasChanges {
                    try checkUnmoved(
                        since: unitReadMark, changed: updated.filter { !$0.isDeleted && !$0.isInserted && $0.hasChanges },
                        gone: deleted + deferredDeletes.filter { !$0.isInserted })
                }
                // Foreign commits first, so objects read before this transaction show what is stored now.
                try store.poll()
                // Named first, so the edit can rename the step once it knows what it did.
                if let actionName { pendingActionName = actionName }
                result = try edit()
                if let failure = flushFailure { throw failure }
                processPendingChanges()
                try checkReads()
                try runWillSave()
                unit = try prepareSave()
                if let unit {
                    commit = try write(unit)
                    try recordStep(unit)
                    logged = try store.backend.finishLog()
                }
            }
        } catch {
            undoHistory.unitFailed()
            // IDs reserved inside the transaction were rolled back with it: never hand them out.
            if reservedInTransaction { freshIDs = 0..<0 }
            // Diagnosed while the objects still hold what failed to be written.
            let reported = unit.map { $0.diagnose(error, in: self) } ?? error
            // The save took the flushed rows' IDs into the unit's changes.
            if let unit { forgetObjects(insertedBy: unit.changes) }
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

    /// Records where the action of the unit of work being built happened, with its undo step, so that
    /// undoing it from any process can go back there.
    public func setActionPlace(_ place: ActionPlace) {
        pendingPlace = place
    }

    /// Inside the saving transaction: the unit's step into the store's undo history, unless it is an undo
    /// or redo itself, or changed only how objects are shown (see `Attribute.viewState`); and into the
    /// store's outbox when it keeps one, undo and redo included (they change what others must see too).
    private func recordStep(_ unit: UnitOfWork) throws {
        guard !isSavingWithoutUndo, undoHistory.recordsActions else { return }
        let viewStateOnly =
            unit.live.isEmpty && unit.gone.isEmpty && pendingRows.isEmpty && pendingDeletes.isEmpty && flushed.fingerprints.isEmpty
            && unit.changed.allSatisfy { o in o.changedMask.rawValue & ~o.entity.viewStateMask == 0 }
        if viewStateOnly { return }
        let outbox = try store.backend.outboxIsEnabled()
        guard !(isApplyingHistory || isSavingOutsideUndo) || outbox else { return }
        try takeRowsReadAside()
        var step = UndoRecord(unit, rows: pendingRows, deletedRows: pendingDeletes, name: pendingActionName ?? "")
        step.appendFingerprinted(flushed.fingerprints)
        step.settleFingerprintedEntries()
        let history =
            isApplyingHistory ? replayedAction : isSavingOutsideUndo ? nil : try undoHistory.record(step, place: pendingPlace, model: model)
        if outbox {
            let kind: OutboxEntry.Kind = !isApplyingHistory ? .action : isUndoing ? .undo : .redo
            _ = try store.backend.appendOutbox(
                OutboxRow(
                    seq: 0, name: step.name, kind: kind.rawValue, history: history, step: step.encoded(changedOnly: false),
                    modelHash: model.versionHash))
        }
    }

    private func saveChanges() throws {
        precondition(!store.isInTransaction, "save() inside Context.transaction: the transaction saves when it ends")
        processPendingChanges()
        do {
            try checkReads()
        } catch {
            discardChanges()
            throw error
        }
        // When the unit first read, taken before the program's `willSave` rules and validation read what
        // they check (a unit that read nothing stays a blind write).
        let mark = unitReadMark
        try runWillSave()
        guard let unit = try prepareSave() else {
            clearLists()
            endUnitReads()
            return
        }
        let commit: UnitOfWork.Commit
        undoHistory.unitBegins()
        do {
            commit = try store.writeTransaction { logged in
                try checkUnmoved(since: mark, changed: unit.changed, gone: unit.gone)
                let c = try write(unit)
                try recordStep(unit)
                logged = try store.backend.finishLog()
                return c
            }
        } catch {
            undoHistory.unitFailed()
            throw unit.diagnose(error, in: self)
        }
        endUnitReads()
        didCommit(commit)
    }

    /// Inside a plain save's write transaction, where no other commit can land: refuses the save when a
    /// commit made elsewhere after the unit's first read (`unitReadMark`) changed an object the unit writes
    /// (a parent counts as changed when a child joins or leaves it), or when what those commits changed
    /// cannot be known (their log entries pruned or unreadable). As Core Data's optimistic locking refuses
    /// a stale object: two contexts that each read the last sibling's key and add the next one under the
    /// same parent would otherwise both write it. A commit not taken in during the unit is forgiven for an
    /// object whose changed attributes the unit found as they are stored now (it read them from the file
    /// after that commit); a changed relationship is never forgiven (its members may have been read after
    /// what the unit derived from them). Then each question the unit asked the store (`unitQueries`: a
    /// fetch's rows, a count, values) is asked again: a different answer refuses too (a row came into what it
    /// fetched: the next key of a list no object of the unit stands for).
    private func checkUnmoved(since mark: Int64?, changed: [ManagedObject], gone: [ManagedObject]) throws(StoreError) {
        let asked = !unitQueries.isEmpty || !unitQueriesBeyondLimit.isEmpty
        guard mergePolicy == .refuseStale, let mark, !(changed.isEmpty && gone.isEmpty && !asked) else { return }
        let (entries, newest) = try store.backend.changes(after: mark)
        guard newest > mark else { return }
        var expected = mark + 1
        var foreign = ChangeSet()
        var unknown = false
        for entry in entries {
            if entry.seq != expected { unknown = true }
            expected = entry.seq + 1
            guard let changes = entry.changes else {
                unknown = true
                continue
            }
            foreign.formUnion(changes)
        }
        if expected <= newest { unknown = true }
        if unknown {
            throw StoreError(
                .conflict,
                "nothing was saved: what was committed elsewhere since this unit of work first read cannot be told (the log of those "
                    + "commits is gone), so what it derived may be stale; roll back and make the change again",
                path: store.path)
        }
        // (An object deleted elsewhere is refused by the store itself, which names it, or names the
        // reference to it: "deleted elsewhere", a dangling relationship.)
        for o in changed + gone {
            let id = o.objectID
            guard let mask = foreign[id.entity].updated[id] else { continue }
            var isStale = mergedDuringUnit.contains(id)
            if !isStale { isStale = try !startedFromStored(o, mask) }
            guard isStale else { continue }
            throw StoreError(
                .conflict,
                "nothing was saved: \(o.entity.name) #\(id.rowID) changed elsewhere after this unit of work read what it derived its "
                    + "changes from; roll back and make the change again (or make it inside transaction { }, which reads what is stored now)",
                path: store.path, entity: o.entity.name, object: id)
        }
        guard asked, !foreign.isEmpty else { return }
        // An object whose row the unit updates and that was deleted elsewhere: refused here as the write
        // would refuse it, by name. Any other object deleted elsewhere does not excuse the questions:
        // deleting a row already gone writes nothing and refuses nothing (a reference to it is refused by the
        // write, by name, when the questions answer as before).
        for o in changed where foreign[o.objectID.entity].deleted.contains(o.objectID) && !o.updatedColumns.isEmpty {
            throw StoreError(
                .conflict, "cannot save: \(o.entity.name) #\(o.objectID.rowID) was deleted elsewhere", path: store.path,
                entity: o.entity.name, object: o.objectID)
        }
        for name in unitQueriesBeyondLimit.sorted() {
            guard let e = model.entity(name), !foreign[e.index].isEmpty else { continue }
            throw staleQuery(name)
        }
        for (query, answer) in unitQueries {
            let e = try entity(named: query.request.entity)
            let now: UnitQuery.Answer
            switch query.kind {
            case .ids: now = .ids(try store.backend.fetchIDs(query.request, of: e, prefetching: nil))
            case .count: now = .count(try store.backend.count(query.request, of: e))
            case .values(let slots):
                let rows = try store.backend.fetchValues(query.request, of: e, slots: slots)
                now = .values(ids: rows.map(\.id), values: rows.map(\.values))
            }
            if now != answer { throw staleQuery(e.name) }
        }
    }

    private func staleQuery(_ entity: String) -> StoreError {
        StoreError(
            .conflict,
            "nothing was saved: what this unit of work fetched or counted of \(entity) changed elsewhere after it read it, so what it "
                + "derived may be stale; roll back and make the change again (or make it inside transaction { }, which reads what is stored now)",
            path: store.path, entity: entity)
    }

    /// True when `o`, as this unit found it, holds what is stored now in every attribute of `mask` (what a
    /// commit made elsewhere changed): the unit read that commit's values, so nothing it derived from them
    /// is stale (one that fetched the row after the commit, before its store took the commit in). Values
    /// compare with the unit's own changes left out. A relationship in `mask` (a child joined or left) is
    /// stale whatever the unit read of it: a key derived before its members were read is not excused by them.
    private func startedFromStored(_ o: ManagedObject, _ mask: PropertyMask) throws(StoreError) -> Bool {
        let e = o.entity
        var row: [Value]?
        for slot in e.properties.indices where mask.rawValue & (1 << UInt64(slot)) != 0 {
            guard e.storedMask & (1 << UInt64(slot)) != 0, e.relationshipOfSlot[slot] == nil, !o.isFault else { return false }
            if row == nil {
                guard let stored = try loadRows(entity: e, ids: [o.objectID.rowID]).first ?? nil else { return false }
                row = stored
            }
            if (o.committed ?? o.values)[slot] != row![slot] { return false }
        }
        return true
    }

    /// `willSave`, with the objects the save would write.
    private func runWillSave() throws {
        guard let willSave else { return }
        let objects = inserted.filter { !$0.isDeleted } + updated.filter { !$0.isDeleted && !$0.isInserted && $0.hasChanges }
        if !objects.isEmpty { try willSave(objects, isApplyingHistory) }
    }

    /// The unit of work to save, validated; nil when there is nothing to write.
    private func prepareSave() throws -> UnitOfWork? {
        let live = inserted.filter { !$0.isDeleted }
        let changed = updated.filter { !$0.isDeleted && !$0.isInserted && $0.hasChanges }
        let gone = deleted
        if live.isEmpty && changed.isEmpty && gone.isEmpty && pendingRows.isEmpty && pendingDeletes.isEmpty && flushed.isEmpty { return nil }
        var errors: [ValidationError] = []
        for o in live { validate(o, into: &errors) }
        for o in changed where o.committed != nil { validate(o, into: &errors) }
        for o in gone { validateDelete(o, into: &errors) }
        validateRows(into: &errors)
        if !errors.isEmpty { throw ValidationFailure(errors: errors) }

        // After flushed rows, the inserts are added where theirs are, not to a copy (a million IDs: 16 MB
        // copied at the peak of an import's memory). A failed save discards `flushed` with the rest of the unit.
        var changes = ChangeSet()
        swap(&changes, &flushed.changes)
        changes.insert(contentsOf: live.lazy.map(\.objectID))
        for (_, ids, _) in pendingRows { changes.insert(contentsOf: ids) }
        for o in changed {
            let mask = o.changedMask
            if !mask.isEmpty { changes.update(o.objectID, mask) }
        }
        for o in gone { changes.delete(o.objectID) }
        for (_, ids, _) in pendingDeletes { for id in ids { changes.delete(id) } }
        return UnitOfWork(live: live, changed: changed, gone: gone, changes: changes)
    }

    /// Hands the unit of work to the store, in the open transaction, as values. Changes nothing in memory,
    /// so a failed commit leaves the context as it was.
    private func write(_ unit: UnitOfWork) throws(StoreError) -> UnitOfWork.Commit {
        var w = unit.storeWrite(adding: pendingRows, deleting: pendingDeletes, uncounted: pendingDeletesUncounted)
        w.author = transactionAuthor
        let result = try store.backend.write(w)
        var done = unit
        // A count of a row flushed earlier in this transaction is part of its insert.
        done.changes = flushed.isEmpty ? result.changes : result.changes.droppingUpdatesOfInserted()
        return UnitOfWork.Commit(unit: done, result: result)
    }

    /// After the commit: the context takes in what was written, records the undo step and tells observers,
    /// controllers and the store's other contexts.
    private func didCommit(_ commit: UnitOfWork.Commit) {
        let (live, gone, changes) = (commit.unit.live, commit.unit.gone, commit.unit.changes)
        generation += 1

        pendingActionName = nil
        pendingPlace = nil

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
        refaultMergedWhileChanged()
        finishRowDeletes(committed: true)
        // Counts as the transaction left them (it may have seen members other processes added).
        let counts = flushed.counts + commit.result.counts
        flushed = FlushedRows()
        for r in counts {
            rowCache[r.id] = nil
            guard let o = registered[r.id] else { continue }
            if !o.isFault {
                o.values[r.slot] = .integer(r.value)
            } else if o.prefetched != nil || !o.values.isEmpty {
                o.turnIntoFault()
            }
        }
        clearLists()
        for token in observers.keys.sorted() { observers[token]?(changes) }
        store.deliver(changes, from: self)
    }

    /// After a unit with nothing to write: its objects were changed back to what is stored, and leave it as
    /// a save leaves them. (A snapshot kept made the object look changed once it was refaulted, so commits
    /// made elsewhere stopped reaching it, and its next change's undo step put back that old snapshot.)
    private func clearLists() {
        for o in updated {
            o.committed = nil
            commitRelations(o)
            o.isInUpdatedList = false
        }
        inserted = []
        updated = []
        deleted = []
        refaultMergedWhileChanged()
    }

    private func commitRelations(_ o: ManagedObject) {
        if !o.relations.isEmpty {
            for slot in o.relations.keys { o.relations[slot]!.commit() }
        }
        o.relationMask = 0
    }
}
