/// Where an action stands in the undo history.
///
/// ```swift
/// let skipped = try context.undoHistory.entries().filter { $0.state == .skipped }
/// ```
public enum HistoryState: Int, Sendable, Hashable {
    /// Made (or redone): the next undo may take it.
    case done = 0
    /// Undone: the next redo may take it, until a new action is recorded.
    case undone = 1
    /// Its undo or redo met a later change made elsewhere: reported once and passed over since.
    case skipped = 2
}
