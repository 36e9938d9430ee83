/// Tells a will-delete hook why its object is being deleted.
///
/// ```swift
/// final class Item: ManagedObject {
///     override func prepareForDeletion(_ deletion: Deletion) {
///         if !deletion.isCascade { print("\(objectID) is deleted itself, not by a cascade") }
///     }
/// }
/// ```
public struct Deletion: Sendable {
    /// The object whose `delete` started this deletion.
    public let root: ObjectID
    /// True when the object goes because a cascade rule reached it, not because it was deleted itself.
    public let isCascade: Bool
}
