import Foundation

/// The undo history of a store, shared by every context and process that opens it and kept in the store
/// itself: each save is recorded, in its own transaction, as one action (or as part of this context's open
/// group); undo and redo take the latest action wherever it was made. It survives quitting, a killed
/// process and a reboot, and is bounded by ``limits``.
///
/// ```swift
/// try context.save(actionName: "Add “Milk”")
/// context.undoHistory.undoActionName        // "Add “Milk”"
/// try context.undo()
/// ```
public final class UndoHistory {
    /// Strong: a program may keep the history after its context is gone (the store holds no context
    /// strongly, so there is no cycle).
    let store: Store
    /// The program recorded with each action this context saves ("outliner", "command line").
    public var origin = ""
    /// False for a context whose saves are not the user's actions (changes arriving from a sync, a
    /// migration of data): they are saved without an undo step, and an undo that would overwrite them is
    /// a conflict.
    public var recordsActions = true
    /// How much history the store keeps; applied when this context records an action.
    public var limits = HistoryLimits.standard

    /// The step being built by an explicit group, spanning several saves, and its action once recorded.
    var openGroup: (step: UndoRecord, sequence: Int64?)?
    /// The group as it was before the unit of work being saved, to go back to if that unit fails.
    private var groupBeforeUnit: (step: UndoRecord, sequence: Int64?)?
    private var groupDepth = 0
    /// The actions this context recorded (a program's own, as against another window's of the same kind).
    private var recordedHere: Set<Int64> = []
    /// The action recorded by the unit of work being saved: if the unit fails, its number may be given again.
    private var appendedInUnit: Int64?

    init(store: Store) {
        self.store = store
    }

    /// The action `undo()` would undo: the newest one not undone.
    public func nextUndo() throws(StoreError) -> HistoryEntry? { try store.backend.historyTop(undone: false, withStep: false)?.entry }
    /// The action `redo()` would redo: the oldest undone one.
    public func nextRedo() throws(StoreError) -> HistoryEntry? { try store.backend.historyTop(undone: true, withStep: false)?.entry }
    /// The newest actions first, undone ones included (they can be redone until a new action is recorded).
    public func entries(limit: Int = 100) throws(StoreError) -> [HistoryEntry] { try store.backend.historyEntries(limit: limit) }
    /// How many actions can be undone and redone, and the bytes their steps take in the store.
    public func totals() throws(StoreError) -> (undo: Int, redo: Int, bytes: Int) { try store.backend.historyTotals() }

    /// True when this context recorded `entry` (two outliners on one outline share the history and the
    /// origin "outliner": this tells one's own actions from the other's).
    public func wasRecordedHere(_ entry: HistoryEntry) -> Bool { recordedHere.contains(entry.sequence) }

    // The conveniences below read "none" when the history cannot be read (for a menu's state); `nextUndo()`,
    // `nextRedo()` and `totals()` throw.
    /// True when there is an action to undo.
    public var canUndo: Bool { ((try? nextUndo()) ?? nil) != nil }
    /// True when there is an action to redo.
    public var canRedo: Bool { ((try? nextRedo()) ?? nil) != nil }
    /// The name of the action `undo()` would undo.
    public var undoActionName: String? { ((try? nextUndo()) ?? nil)?.name }
    /// The name of the action `redo()` would redo.
    public var redoActionName: String? { ((try? nextRedo()) ?? nil)?.name }
    /// How many actions can be undone.
    public var undoCount: Int { (try? totals().undo) ?? 0 }
    /// How many actions can be redone.
    public var redoCount: Int { (try? totals().redo) ?? 0 }

    /// How many groups are open (`beginGroup` calls not yet ended).
    public var openGroups: Int { groupDepth }

    /// Starts a group: every save of this context until the matching `endGroup()` becomes one action
    /// named `name`.
    public func beginGroup(_ name: String) {
        if groupDepth == 0 { openGroup = (UndoRecord(name: name), nil) }
        groupDepth += 1
    }

    /// Ends a group started by `beginGroup(_:)`: the outermost end closes its action (one that changed
    /// nothing in the end is forgotten).
    public func endGroup() throws {
        guard groupDepth > 0 else { return }
        groupDepth -= 1
        guard groupDepth == 0, let group = openGroup else { return }
        openGroup = nil
        var step = group.step
        step.compact()
        if step.isEmpty, let seq = group.sequence {
            try store.writeTransaction { _ in try store.backend.dropNewestHistory(seq) }
        }
    }

    /// Forgets every action of the store, undone ones included (`burrow history --clear`).
    public func clear() throws {
        openGroup = nil
        groupDepth = 0
        try store.writeTransaction { _ in try store.backend.clearHistory() }
    }

    /// Inside the saving transaction: records a saved unit of work, into the open group or as a new action
    /// (which cuts redo). Returns the number of the action it began (nil when it joined a group's action
    /// begun by an earlier save, or kept nothing): an outbox entry names the action it began, so that a
    /// replicator never takes an undo of a whole group for the undo of its last save alone.
    @discardableResult
    func record(_ step: UndoRecord, place: ActionPlace?, model: Model) throws(StoreError) -> Int64? {
        if var group = openGroup {
            var began: Int64?
            group.step.compose(step)
            if !step.name.isEmpty && group.step.name.isEmpty { group.step.name = step.name }
            var stored = group.step
            stored.compact()
            if let seq = group.sequence,
                try store.backend.replaceHistoryStep(seq, step: stored.encoded(changedOnly: true), objectCount: stored.objectCount)
            {
                // The group's action holds every save so far.
            } else if group.sequence != nil {
                // Its action was trimmed or undone by another process: this save and the rest of the group are
                // a new action.
                group.step = step
                if group.step.name.isEmpty { group.step.name = openGroup?.step.name ?? "" }
                var fresh = group.step
                fresh.compact()
                group.sequence = fresh.isEmpty ? nil : try append(fresh, place: place, model: model)
                began = group.sequence
            } else if !stored.isEmpty {
                group.sequence = try append(stored, place: place, model: model)
                began = group.sequence
            }
            openGroup = group
            return began
        }
        var step = step
        step.compact()
        return step.isEmpty ? nil : try append(step, place: place, model: model)
    }

    /// A unit of work begins to be saved: what `unitFailed()` undoes is what it records.
    func unitBegins() {
        groupBeforeUnit = openGroup
        appendedInUnit = nil
    }

    /// The unit of work begun last did not commit: the group is as it was before it, and a number it took
    /// for its action may be given again.
    func unitFailed() {
        if let seq = appendedInUnit { recordedHere.remove(seq) }
        appendedInUnit = nil
        openGroup = groupBeforeUnit
    }

    private func append(_ step: UndoRecord, place: ActionPlace?, model: Model) throws(StoreError) -> Int64 {
        let bytes = step.encoded(changedOnly: true)
        let entry = HistoryEntry(
            sequence: 0, name: step.name, date: Date(), origin: origin,
            place: place ?? ActionPlace(focus: step.entries.first?.id ?? step.fingerprinted.first?.id),
            state: .done, objectCount: step.objectCount, size: bytes.count)
        let seq = try store.backend.appendHistory(entry, step: bytes, modelHash: model.versionHash, limits: limits)
        recordedHere.insert(seq)
        appendedInUnit = seq
        return seq
    }
}

/// Why an undo or redo could not be applied: a later change made elsewhere is in the way. Nothing was
/// changed, and the step is dropped so that the rest of the history goes on.
///
/// ```swift
/// do { try context.undo() } catch let conflict as UndoConflict { print(conflict.userMessage) }   // the next undo goes on
/// ```
public struct UndoConflict: UserFacingError, Equatable, Sendable {
    /// "undo" or "redo".
    public let verb: String
    /// The step's action name.
    public let action: String
    /// The object that changed elsewhere (nil when the store could not say which), and how.
    public let object: ObjectID?
    /// The entity of that object, or what else is in the way ("its stored step").
    public let entity: String
    /// What happened to it, as the end of a sentence ("was changed elsewhere (title)").
    public let reason: String

    public var description: String {
        "cannot \(verb)\(action.isEmpty ? "" : " “\(action)”"): \(entity)\(object.map { " \($0)" } ?? "") \(reason)"
    }
}
