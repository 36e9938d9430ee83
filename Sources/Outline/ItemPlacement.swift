import ObjectGraph

/// Where items go when they are moved or copied, named by the ID of an item that stays where it is.
///
/// For example: `try outline.copy([milk], to: .after(eggs))` puts the copy right below “Eggs”, among its siblings.
public enum ItemPlacement: Sendable, Equatable {
    /// Right after the item, in its level.
    case after(ObjectID)
    /// Right before the item, in its level.
    case before(ObjectID)
    /// At the end of the item's sub-items.
    case last(under: ObjectID)
}
