/// An index over several properties (attributes or to-one relationships), in order.
///
/// ```swift
/// CompoundIndex("parent", "order")
/// ```
public struct CompoundIndex: Sendable, Hashable, Codable {
    public let properties: [String]
    public let isUnique: Bool

    public init(_ properties: String..., unique: Bool = false) {
        self.properties = properties
        self.isUnique = unique
    }
}
