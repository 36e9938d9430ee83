/// What deleting an object does to the objects at the other end of one of its relationships.
///
/// ```swift
/// Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
/// ```
public enum DeleteRule: String, Sendable, Hashable, Codable {
    /// The related objects are deleted too.
    case cascade
    /// The related objects lose their reference to the deleted object.
    case nullify
    /// Saving fails while the relationship still has objects.
    case deny
    /// Nothing happens; the store refuses a dangling reference at save unless the unit of work fixes it.
    case noAction
}
