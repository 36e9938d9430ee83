/// A set of an entity's properties, one bit per slot: the changed keys of an updated object.
///
/// ```swift
/// let mask = PropertyMask(["title", "done"], in: itemEntity)
/// mask.contains(slot: itemEntity.slot("title")!)   // true
/// ```
public struct PropertyMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The mask with only `slot`.
    public init(slot: Int) { rawValue = 1 << UInt64(slot) }

    /// True when the property at `slot` is in the mask.
    public func contains(slot: Int) -> Bool { rawValue & (1 << UInt64(slot)) != 0 }

    /// The property names in the mask, in slot order.
    public func names(in entity: EntityDescription) -> [String] {
        entity.properties.filter { contains(slot: $0.slot) }.map(\.name)
    }

    /// The mask of the named properties of `entity` (unknown names are ignored).
    public init(_ names: [String], in entity: EntityDescription) {
        var bits: UInt64 = 0
        for n in names { if let p = entity.property(n) { bits |= 1 << UInt64(p.slot) } }
        rawValue = bits
    }
}
