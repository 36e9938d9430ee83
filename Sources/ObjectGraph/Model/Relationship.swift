/// A relationship between two entities, always declared with its inverse. Two to-manys that are each
/// other's inverse make a many-to-many: the model keeps its links in a join entity of its own (named after
/// the side that sorts first, `Item_tags` below), and deleting an object removes its links (nullify), its
/// partners (cascade), or is refused at save while it has any (deny).
///
/// ```swift
/// Relationship.toOne("parent", "Item", inverse: "children")
/// Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
/// Relationship.toMany("tags", "Tag", inverse: "items")   // with Tag's toMany("items", "Item", inverse: "tags")
/// ```
public struct Relationship: Sendable, Hashable, Codable {
    /// The relationship's name, unique among its entity's properties.
    public let name: String
    /// The entity at the other end.
    public let destination: String
    /// The relationship of the destination that points back.
    public let inverse: String
    /// True for a to-many relationship, false for a to-one.
    public let isToMany: Bool
    /// What deleting an object does to the objects at the other end.
    public var deleteRule: DeleteRule
    /// For a to-one: nil is allowed at save.
    public var isOptional: Bool

    /// A relationship to `destination`, whose relationship `inverse` points back (`toOne` and `toMany` read better).
    public init(
        _ name: String, _ destination: String, inverse: String, toMany: Bool,
        deleteRule: DeleteRule = .nullify, optional: Bool = true
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
        self.deleteRule = deleteRule
        self.isOptional = optional
    }

    /// A to-one relationship.
    public static func toOne(
        _ name: String, _ destination: String, inverse: String, deleteRule: DeleteRule = .nullify,
        optional: Bool = true
    ) -> Relationship {
        Relationship(name, destination, inverse: inverse, toMany: false, deleteRule: deleteRule, optional: optional)
    }

    /// A to-many relationship.
    public static func toMany(
        _ name: String, _ destination: String, inverse: String, deleteRule: DeleteRule = .nullify
    ) -> Relationship {
        Relationship(name, destination, inverse: inverse, toMany: true, deleteRule: deleteRule)
    }
}
