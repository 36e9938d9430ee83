import ObjectGraph

extension Outline {
    /// How many items are below `item`, at every depth (not counting `item`), as saved. Counted from the
    /// sub-items themselves (the store follows the parent keys), never from stored counts. For example:
    /// "Delete “Groceries” and 12 sub-items".
    public func descendantCount(of item: Item) throws -> Int {
        try context.countDescendants(of: item, through: "children")
    }

    /// How many items are below the item `id`, at every depth, as saved; throws `ItemGone` when it is gone.
    public func descendantCount(of id: ObjectID) throws -> Int {
        guard let item = try context.existingObject(for: id) as? Item, !item.isInaccessible else { throw ItemGone(id: id) }
        return try descendantCount(of: item)
    }

    /// “Title” for messages: quoted, control characters left for the caller to make visible.
    public func quotedTitle(_ item: Item) -> String {
        item.isRoot ? "the top level" : "“" + item.title + "”"
    }

    /// What a delete of `item` is called: `“Groceries” and 12 sub-items`.
    public func deletionDescription(of item: Item) throws -> String {
        let below = try descendantCount(of: item)
        let name = quotedTitle(item)
        return below == 0 ? name : "\(name) and \(below) sub-item\(below == 1 ? "" : "s")"
    }
}
