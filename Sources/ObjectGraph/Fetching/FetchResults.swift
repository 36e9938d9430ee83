/// The result of a fetch: object IDs in order, with objects made only when an element is touched (their
/// rows read in batches around it).
///
/// ```swift
/// let colors = try context.fetch(FetchRequest("Color", sortedBy: [SortKey("name")]))
/// for color in colors.prefix(20) { print(color["name"]) }
/// ```
public struct FetchResults: RandomAccessCollection {
    public let entity: EntityDescription
    /// Row IDs in fetch order.
    public let rowIDs: [Int64]
    let context: Context

    public var startIndex: Int { 0 }
    public var endIndex: Int { rowIDs.count }

    public subscript(position: Int) -> ManagedObject {
        context.materialize(entity, rowIDs, position)
    }

    /// The ID at `position`, without making the object.
    public func objectID(at position: Int) -> ObjectID {
        ObjectID(entity: entity.index, rowID: rowIDs[position])
    }

    /// All IDs in order.
    public var objectIDs: [ObjectID] { rowIDs.map { ObjectID(entity: entity.index, rowID: $0) } }
}
