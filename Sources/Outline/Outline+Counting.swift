import ObjectGraph

extension Outline {
    /// How many items are below `item`, at every depth (not counting `item`).
    ///
    /// Uses the stored child counts: only sub-items that have sub-items of their own are visited, so a level
    /// of 100,000 leaves costs one query. For example: "Delete “Groceries” and 12 sub-items".
    public func descendantCount(of item: Item) throws -> Int {
        var total = 0
        var stack = [item]
        while let parent = stack.popLast() {
            total += parent.childCount
            guard parent.childCount > 0 else { continue }
            let inner = try context.fetch(FetchRequest("Item", where: Key("parent") == parent && Key("childCount") > Int64(0)))
            for i in 0..<inner.count { stack.append(inner[i] as! Item) }
        }
        return total
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
