import ObjectGraph

/// One item of a subtree read as stored values, without an object: what `ls` prints and export writes.
public struct OutlineRow: Sendable, Equatable {
    public let id: ObjectID
    /// The row ID of its parent.
    public let parent: Int64
    /// 0 for a sub-item of the item the subtree was read under.
    public let depth: Int
    public let title: String
    public let note: String?
    public let isDone: Bool
    /// Its sub-items: counted from the rows read, except on the deepest level read, where it is the
    /// stored count (for display only).
    public internal(set) var childCount: Int
}
