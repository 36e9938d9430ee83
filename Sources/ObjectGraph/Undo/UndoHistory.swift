/// A context's undo and redo stacks. Every save of the context is one step (or part of the open group);
/// changes saved by other contexts or processes never are.
///
/// ```swift
/// try context.save(actionName: "Add “Milk”")
/// context.undoHistory.undoActionName        // "Add “Milk”"
/// try context.undo()
/// ```
public final class UndoHistory {
    /// The most steps kept (oldest dropped first); nil for no limit.
    public var levelsLimit: Int? {
        didSet { trim() }
    }

    var undoStack: [UndoRecord] = []
    var redoStack: [UndoRecord] = []
    /// The step being built by an explicit group, spanning several saves.
    var openGroup: UndoRecord?
    private var groupDepth = 0

    init() {}

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the step `undo()` would undo.
    public var undoActionName: String? { undoStack.last?.name }
    /// The name of the step `redo()` would redo.
    public var redoActionName: String? { redoStack.last?.name }
    public var undoCount: Int { undoStack.count }
    public var redoCount: Int { redoStack.count }

    /// Starts a group: every save until the matching `endGroup()` becomes one step named `name`.
    public func beginGroup(_ name: String) {
        if groupDepth == 0 { openGroup = UndoRecord(name: name) }
        groupDepth += 1
    }

    /// Ends a group started by `beginGroup(_:)`; the outermost end pushes the step.
    public func endGroup() {
        guard groupDepth > 0 else { return }
        groupDepth -= 1
        if groupDepth == 0, var group = openGroup {
            openGroup = nil
            group.compact()
            if !group.isEmpty { push(group) }
        }
    }

    /// Forgets every step.
    public func removeAll() {
        undoStack = []
        redoStack = []
        openGroup = nil
        groupDepth = 0
    }

    /// Records a saved unit of work, into the open group or as a new step. A new step clears redo.
    func record(_ step: UndoRecord) {
        if openGroup != nil {
            openGroup!.compose(step)
            if !step.name.isEmpty && openGroup!.name.isEmpty { openGroup!.name = step.name }
            return
        }
        var step = step
        step.compact()
        if !step.isEmpty { push(step) }
    }

    private func push(_ step: UndoRecord) {
        undoStack.append(step)
        redoStack = []
        trim()
    }

    private func trim() {
        if let limit = levelsLimit, undoStack.count > limit {
            undoStack.removeFirst(undoStack.count - max(0, limit))
        }
    }
}

/// Why an undo or redo could not be applied: a later change made elsewhere is in the way. Nothing was
/// changed, and the step is dropped so that the rest of the history goes on.
public struct UndoConflict: UserFacingError, Equatable, Sendable {
    /// "undo" or "redo".
    public let verb: String
    /// The step's action name.
    public let action: String
    /// The object that changed elsewhere (nil when the store could not say which), and how.
    public let object: ObjectID?
    public let entity: String
    public let reason: String

    public var description: String {
        "cannot \(verb)\(action.isEmpty ? "" : " “\(action)”"): \(entity)\(object.map { " \($0)" } ?? "") \(reason)"
    }
}
