/// The permanent identity of an object: its entity and a store-wide unique row ID.
///
/// An ID is assigned at insert and never changes or gets reused: across saves, relaunches, and the undo of
/// a deletion (which re-inserts the same ID).
///
/// ```swift
/// let id = item.objectID                 // keep it, store it, send it
/// let same = context.object(for: id)     // the same object again
/// ```
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Index of the entity in its model.
    public let entity: Int
    /// The row's `id`, unique across every entity of the store.
    public let rowID: Int64

    /// The ID of row `rowID` of the entity at index `entity` of the model (an ID kept elsewhere as its two numbers).
    public init(entity: Int, rowID: Int64) {
        self.entity = entity
        self.rowID = rowID
    }

    public static func == (a: ObjectID, b: ObjectID) -> Bool { a.rowID == b.rowID && a.entity == b.entity }
    // Row IDs are unique across entities, so hashing the row ID alone is enough and cheaper.
    public func hash(into hasher: inout Hasher) { hasher.combine(rowID) }
    public static func < (a: ObjectID, b: ObjectID) -> Bool { a.rowID < b.rowID }
    public var description: String { "#\(rowID)" }
}
