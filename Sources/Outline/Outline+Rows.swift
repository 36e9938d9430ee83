import ObjectGraph

extension Outline {
    /// The request for the sub-items of the item `parent` in sibling order (see `level(of:)`).
    public static func level(of parent: ObjectID) -> FetchRequest {
        FetchRequest(Item.entityName, where: Property("parent") == parent, sortedBy: [SortKey("order")])
    }

    /// The top item as values (created and saved on first use, as `root()`).
    public func rootRow() throws -> ItemRow {
        ItemRow(try root())
    }

    /// The item `id` as values, or nil when it is no longer stored (deleted here, elsewhere, or by undo).
    public func row(_ id: ObjectID) throws -> ItemRow? {
        guard let item = try context.existingObject(for: id) as? Item else { return nil }
        return ItemRow(item)
    }

    /// The ID of the item whose sub-item `id` is; nil for the top item and for an item no longer stored.
    public func parentID(of id: ObjectID) throws -> ObjectID? {
        guard let item = try context.existingObject(for: id) as? Item else { return nil }
        return item.parent?.objectID
    }

    /// The items on the way down to `id`, as values: from a sub-item of the top down to `id`'s parent (the top
    /// itself left out). Empty for an item of the top level, and for one no longer stored.
    public func ancestors(of id: ObjectID) throws -> [ItemRow] {
        guard let item = try context.existingObject(for: id) as? Item else { return [] }
        var chain: [ItemRow] = []
        var parent = item.parent
        while let p = parent, !p.isRoot {
            chain.append(ItemRow(p))
            parent = p.parent
        }
        return chain.reversed()
    }

    /// The titles from the top of the outline down to `id`, both included ("Burrow", "Groceries", "Milk");
    /// empty when the item is no longer stored.
    public func titles(downTo id: ObjectID) throws -> [String] {
        var titles: [String] = []
        var item = try context.existingObject(for: id) as? Item
        while let i = item, !i.isInaccessible {
            titles.append(i.title)
            item = i.parent
        }
        return titles.reversed()
    }
}
