/// An index over several properties (attributes or to-one relationships), in order.
///
/// ```swift
/// CompoundIndex("parent", "order")
/// CompoundIndex("expanded", "parent", sparse: true)   // only rows whose `expanded` has a value
/// ```
public struct CompoundIndex: Sendable, Hashable, Codable {
    /// The indexed attributes and to-one relationships, in index order.
    public let properties: [String]
    /// No two objects may have the same values of all of them.
    public let isUnique: Bool
    /// Only rows whose first property has a value are in the index: for a flag set on few rows (nil
    /// elsewhere), so finding them costs what they number and every other write costs nothing more.
    public let isSparse: Bool

    /// An index over `properties` in that order; `unique` makes each combination unique, `sparse` (see ``isSparse``) leaves rows out.
    public init(_ properties: String..., unique: Bool = false, sparse: Bool = false) {
        self.properties = properties
        self.isUnique = unique
        self.isSparse = sparse
    }

    private enum CodingKeys: String, CodingKey { case properties, isUnique, isSparse }

    /// Stores written before sparse indexes had none: their indexes are whole.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        properties = try c.decode([String].self, forKey: .properties)
        isUnique = try c.decode(Bool.self, forKey: .isUnique)
        isSparse = try c.decodeIfPresent(Bool.self, forKey: .isSparse) ?? false
    }
}
