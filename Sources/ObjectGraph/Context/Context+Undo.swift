extension Context {
    /// Undoes the last step: restores every object it touched (attributes, relationships, order keys and
    /// the same IDs) as one new unit of work in one write transaction, and returns the step's name.
    ///
    /// What another context or process did since decides: an object the step would remove that is gone
    /// already, or a value that already is what the step would restore, is simply left as it is (undoing
    /// an add whose item was deleted elsewhere succeeds and changes nothing). A step that cannot be applied
    /// without overwriting a later change made elsewhere, or that would leave a reference to something
    /// deleted elsewhere, throws ``UndoConflict``: nothing changes, and the step is dropped for good, so
    /// the next undo goes on with the step before it (one conflict never blocks the rest of history). Any
    /// other failure (a busy or full disk) changes nothing and keeps the step to try again.
    @discardableResult
    public func undo() throws -> String? {
        guard let step = undoHistory.undoStack.last else { return nil }
        do {
            try UndoReplay(context: self, step: step, verb: "undo").run(restoring: \.before, expecting: \.after)
        } catch let conflict as UndoConflict {
            undoHistory.undoStack.removeLast()
            throw conflict
        }
        undoHistory.undoStack.removeLast()
        undoHistory.redoStack.append(step)
        return step.name
    }

    /// Redoes the last undone step; see ``undo()``.
    @discardableResult
    public func redo() throws -> String? {
        guard let step = undoHistory.redoStack.last else { return nil }
        do {
            try UndoReplay(context: self, step: step, verb: "redo").run(restoring: \.after, expecting: \.before)
        } catch let conflict as UndoConflict {
            undoHistory.redoStack.removeLast()
            throw conflict
        }
        undoHistory.redoStack.removeLast()
        undoHistory.undoStack.append(step)
        return step.name
    }
}
