import ObjectGraph

extension Outline {
    /// The details of the item `id` as stored now, or nil when it is gone. Counting what is below follows
    /// the parent keys at every depth (one recursive query), so it costs in proportion to that subtree.
    public func details(of id: ObjectID) throws -> ItemDetails? {
        guard let item = try context.existingObject(for: id) as? Item, !item.isInaccessible else { return nil }
        return ItemDetails(
            row: ItemRow(item), note: item.note, created: item.created, modified: item.modified,
            below: try descendantCount(of: item), path: try titles(downTo: id), extras: item.extras)
    }

    /// The note of the item `id` as stored now (empty when it has none), or nil when the item is gone: what an
    /// editor starts from and compares with, without counting what is below as `details` does.
    public func note(of id: ObjectID) throws -> String? {
        guard let item = try context.existingObject(for: id) as? Item, !item.isInaccessible else { return nil }
        return item.note ?? ""
    }
}
