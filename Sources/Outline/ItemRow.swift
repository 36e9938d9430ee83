import ObjectGraph

/// One item as plain values, read at one moment: what a level's row draws and what an action names. Keeping
/// one never keeps a live object, so a screen holding rows cannot change the outline by accident.
///
/// For example: `controller.itemRow(at: 0)` is `ItemRow(id: #7, title: "Groceries", isDone: false, childCount: 12)`.
public struct ItemRow: Sendable, Equatable {
    /// The item it was read from: what edits name (see `Outline+Editing`).
    public let id: ObjectID
    /// As stored when the row was read: a later rename reaches the next read, not this value.
    public let title: String
    /// Checked off.
    public let isDone: Bool
    /// Direct sub-items as last saved (see `Item.childCount`): for display.
    public internal(set) var childCount: Int
    /// The item has a note (one with at least one character): a row shows a mark for it.
    public let hasNote: Bool
    /// Folded open in place (see `Item.isExpanded`).
    public let isExpanded: Bool
    /// A task's state (`TODO`), its priority (`A`), and when it is planned and due (see `Item.scheduled`).
    public let state: String?
    public let priority: String?
    public let scheduled: String?
    public let deadline: String?
    /// Its tags, in order (`work`).
    public let tags: [String]

    /// A row from its values (the outline makes them from items; tests and previews make them directly).
    public init(
        id: ObjectID, title: String, isDone: Bool, childCount: Int, hasNote: Bool = false, isExpanded: Bool = false, state: String? = nil,
        priority: String? = nil, scheduled: String? = nil, deadline: String? = nil, tags: [String] = []
    ) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.childCount = childCount
        self.hasNote = hasNote
        self.isExpanded = isExpanded
        self.state = state
        self.priority = priority
        self.scheduled = scheduled
        self.deadline = deadline
        self.tags = tags
    }

    init(_ item: Item) {
        self.init(
            id: item.objectID, title: item.title, isDone: item.isDone, childCount: item.childCount,
            hasNote: !(item.note ?? "").isEmpty, isExpanded: item.isExpanded, state: item.state, priority: item.priority,
            scheduled: item.scheduled, deadline: item.deadline, tags: item.tagNames)
    }

    /// The date a row shows: the deadline, else when it is planned (the day alone, `2026-05-01`).
    public var date: String? { (deadline ?? scheduled).map { String($0.prefix(10)) } }
}
