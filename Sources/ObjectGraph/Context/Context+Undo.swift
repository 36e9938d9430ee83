extension Context {
    /// Undoes the store's newest action not undone, whichever context or process made it: restores every
    /// object it touched (attributes, relationships, order keys and the same IDs) as one new unit of work
    /// in one write transaction, which also marks the action undone; returns its name (nil when there is
    /// nothing to undo).
    ///
    /// What another context or process did since decides: an object the step would remove that is gone
    /// already, or a value that already is what the step would restore, is simply left as it is (undoing
    /// an add whose item was deleted elsewhere succeeds and changes nothing). A step that cannot be applied
    /// without overwriting a later change made elsewhere, or that would leave a reference to something
    /// deleted elsewhere, throws ``UndoConflict``: nothing changes, and the action is dropped from the
    /// history for good, so the next undo goes on with the one before it (one conflict never blocks the
    /// rest of history). Any other failure (a busy or full disk) changes nothing and keeps the action to
    /// try again.
    @discardableResult
    public func undo() throws -> String? {
        try undoAction()?.name
    }

    /// Redoes the oldest undone action; see ``undo()``.
    @discardableResult
    public func redo() throws -> String? {
        try redoAction()?.name
    }

    /// ``undo()``, returning the whole entry: where the action happened, who made it and when.
    @discardableResult
    public func undoAction() throws -> HistoryEntry? {
        try replayHistory(undoing: true)
    }

    /// ``redo()``, returning the whole entry.
    @discardableResult
    public func redoAction() throws -> HistoryEntry? {
        try replayHistory(undoing: false)
    }

    private func replayHistory(undoing: Bool) throws -> HistoryEntry? {
        let verb = undoing ? "undo" : "redo"
        if hasChanges {
            throw StoreError(.conflict, "cannot \(verb) with unsaved changes; save or roll back first", path: store.path)
        }
        // As NSUndoManager: an undo with one group open closes it and undoes it whole; with groups nested
        // inside it, which would be left open around an action that is gone, it fails (there it raises),
        // changing nothing. A redo with a group open would join the redone action to the group.
        let open = undoHistory.openGroups
        if open > (undoing ? 1 : 0) {
            throw StoreError(
                .conflict, "cannot \(verb) with \(open) undo group\(open == 1 ? "" : "s") open; end \(undoing ? "the inner ones" : "it") first",
                path: store.path)
        }
        if open == 1 { try undoHistory.endGroup() }
        var entry: HistoryEntry?
        isApplyingHistory = true
        isUndoing = undoing
        defer { (isApplyingHistory, replayedAction) = (false, nil) }
        do {
            // Read, checked and written in one transaction: nobody can change a row, or take the action,
            // between the checks and the write.
            try transaction {
                guard let top = try store.backend.historyTop(undone: !undoing, withStep: true) else { return }
                entry = top.entry
                replayedAction = top.entry.sequence
                // What an outbox records this save as.
                setActionName((undoing ? "Undo " : "Redo ") + top.entry.name)
                guard top.modelHash == model.versionHash else {
                    throw UndoConflict(
                        verb: verb, action: top.entry.name, object: nil, entity: "it", reason: "was recorded by another version of the data model")
                }
                guard let bytes = top.step, var step = UndoRecord.decode(bytes, name: top.entry.name, widths: model.entities.map(\.defaults.count)),
                    step.fits(model)
                else {
                    throw UndoConflict(verb: verb, action: top.entry.name, object: nil, entity: "its stored step", reason: "cannot be read (damaged)")
                }
                var known: [ObjectID: [Value]] = [:]
                if !step.fingerprinted.isEmpty {
                    (step, known) = try resolveFingerprints(step, sequence: top.entry.sequence, verb: verb, undoing: undoing)
                }
                try UndoReplay(context: self, step: step, verb: verb, known: known)
                    .apply(restoring: undoing ? \.before : \.after, expecting: undoing ? \.after : \.before)
                try store.backend.setHistoryState(top.entry.sequence, undoing ? .undone : .done)
            }
        } catch let e as StoreError where e.code == .foreignKey {
            // A restored reference points to something deleted elsewhere (a parent, say).
            let conflict = UndoConflict(
                verb: verb, action: entry?.name ?? "", object: e.object, entity: e.entity ?? "an object",
                reason: "would refer to something deleted elsewhere" + (e.property.map { " (\($0))" } ?? ""))
            try skip(entry, undoing: undoing, conflict)
            throw conflict
        } catch let conflict as UndoConflict {
            try skip(entry, undoing: undoing, conflict)
            throw conflict
        } catch let failure as ValidationFailure {
            // The program's rules refuse what the step would make now (an item inside itself, after moves
            // made elsewhere): passed over like a change made elsewhere.
            let first = failure.errors.first
            let reason: String
            if case .refused(let why)? = first?.rule { reason = why } else { reason = "would break a rule (\(failure.userMessage))" }
            let conflict = UndoConflict(
                verb: verb, action: entry?.name ?? "", object: first?.object, entity: first?.entity ?? "an object", reason: reason)
            try skip(entry, undoing: undoing, conflict)
            throw conflict
        }
        return entry
    }

    /// Rows a step inserted by fingerprint (`flushRows`), checked against what is stored now and made
    /// ordinary entries, written back into the history row so a redo has the rows the undo deletes.
    /// Returns the step and the rows it read (the fingerprinted rows still stored).
    private func resolveFingerprints(_ step: UndoRecord, sequence: Int64, verb: String, undoing: Bool) throws -> (UndoRecord, [ObjectID: [Value]]) {
        guard undoing else {
            throw UndoConflict(verb: verb, action: step.name, object: nil, entity: "its stored step", reason: "does not hold the rows it added")
        }
        var current: [ObjectID: [Value]] = [:]
        var byEntity: [Int: [Int64]] = [:]
        for f in step.fingerprinted { byEntity[f.id.entity, default: []].append(f.id.rowID) }
        for (e, ids) in byEntity {
            for (k, row) in try loadRows(entity: model.entities[e], ids: ids).enumerated() {
                if let row { current[ObjectID(entity: e, rowID: ids[k])] = row }
            }
        }
        let (resolved, changed) = step.resolvingFingerprints(current, model: model)
        if let changed {
            throw UndoConflict(
                verb: verb, action: step.name, object: changed, entity: model.entities[changed.entity].name, reason: "was changed elsewhere")
        }
        _ = try store.backend.replaceHistoryStep(sequence, step: resolved.encoded(changedOnly: true), objectCount: resolved.objectCount)
        return (resolved, current)
    }

    /// Passes over an action whose step conflicts from now on (kept, and listed as skipped), if it is still
    /// the one to undo (or redo): another process may have taken it meanwhile.
    /// When that fails too (a busy or full disk), the failure is what is thrown: the action stays where it
    /// is, and trying again would only meet it again.
    private func skip(_ entry: HistoryEntry?, undoing: Bool, _ conflict: UndoConflict) throws {
        guard let entry else { return }
        do {
            try skipNow(entry, undoing: undoing)
        } catch {
            throw StoreError(.conflict, "\(conflict.description), and it cannot be passed over: \(error)", path: store.path)
        }
    }

    private func skipNow(_ entry: HistoryEntry, undoing: Bool) throws {
        try store.writeTransaction { _ in
            guard try store.backend.historyTop(undone: !undoing, withStep: false)?.entry.sequence == entry.sequence else { return }
            try store.backend.setHistoryState(entry.sequence, .skipped)
        }
    }
}
