import Foundation

/// One action in a store's undo history, as every process sees it: what it was called, when and by which
/// program it was made, where, and whether it is undone (then it can be redone).
///
/// ```swift
/// for e in try context.undoHistory.entries(limit: 20) { print(e.name, e.origin, e.date) }
/// ```
public struct HistoryEntry: Sendable, Hashable {
    /// Increases with every action recorded in the store; never reused.
    public let sequence: Int64
    /// The action's name ("Delete “Work” and 12 sub-items").
    public let name: String
    /// When it was recorded.
    public let date: Date
    /// The program that made it, as it named itself (``UndoHistory/origin``).
    public let origin: String
    /// Where it happened: as the program recorded it, else with its first object as the focus.
    public let place: ActionPlace
    /// Whether it is done, undone, or skipped for a conflict.
    public let state: HistoryState
    /// True when it is undone, and so can be redone.
    public var isUndone: Bool { state == .undone }
    /// How many objects it changed.
    public let objectCount: Int
    /// How many bytes its stored step takes.
    public let size: Int
}
