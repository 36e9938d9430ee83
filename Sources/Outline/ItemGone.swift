import ObjectGraph

/// An edit named an item by ID that is no longer stored: another process deleted it, or undo did in
/// another level. The edit changed nothing.
///
/// For example: `catch let gone as ItemGone where gone.id == milk` after another window deleted “Milk”.
public struct ItemGone: UserFacingError, Equatable, Sendable {
    /// The item the edit named.
    public let id: ObjectID
    /// The title the caller last saw, for the message; without it the message gives the ID.
    public var title: String?

    /// The error for `id`, with the title the caller saw if it has one.
    public init(id: ObjectID, title: String? = nil) {
        self.id = id
        self.title = title
    }

    public var description: String {
        (title.map { "“\($0)”" } ?? "item \(id)") + " no longer exists (it was deleted elsewhere)"
    }
}
