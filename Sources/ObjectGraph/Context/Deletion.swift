/// Tells a will-delete hook why its object is being deleted.
public struct Deletion: Sendable {
    /// The object whose `delete` started this deletion.
    public let root: ObjectID
    /// True when the object goes because a cascade rule reached it, not because it was deleted itself.
    public let isCascade: Bool
}
