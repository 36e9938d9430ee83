import ObjectGraph

/// One item of a subtree read as stored values, without an object, for what prints or writes a whole subtree
/// (`ls`, export, the clipboard's text): the item as every screen and command reads an item (an ``ItemRow``),
/// with where it sits in the subtree and its note's text.
public struct SubtreeRow: Sendable, Equatable {
    /// The item's row. Its fold state is not read here (always closed); its sub-item count is counted from
    /// the rows read, except on the deepest level read, where it is the stored count (for display only).
    public internal(set) var item: ItemRow
    /// The row ID of its parent.
    public let parent: Int64
    /// 0 for a sub-item of the item the subtree was read under.
    public let depth: Int
    public let note: String?

    init(id: ObjectID, parent: Int64, depth: Int, title: String, note: String?, isDone: Bool, childCount: Int) {
        item = ItemRow(id: id, title: title, isDone: isDone, childCount: childCount, hasNote: !(note ?? "").isEmpty)
        self.parent = parent
        self.depth = depth
        self.note = note
    }

    public var id: ObjectID { item.id }
    public var title: String { item.title }
    public var isDone: Bool { item.isDone }
    public internal(set) var childCount: Int {
        get { item.childCount }
        set { item.childCount = newValue }
    }
}
