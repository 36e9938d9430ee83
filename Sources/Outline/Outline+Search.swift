import ObjectGraph

extension Outline {
    /// Items whose title contains `text` (ignoring case for ASCII letters, as SQLite's `lower()` does), in
    /// the order they appear in the outline (depth first), at most `limit` of them.
    ///
    /// For example: `try outline.search("milk")` finds “Milk” under Groceries › Dairy and “Oat milk” elsewhere.
    public func search(_ text: String, limit: Int = 10_000) throws -> [Item] {
        guard !text.isEmpty else { return [] }
        var request = FetchRequest("Item", where: Key("title").contains(text, caseInsensitive: true))
        request.limit = limit
        let found = try context.fetch(request)
        var items: [Item] = []
        items.reserveCapacity(found.count)
        for i in 0..<found.count {
            let item = found[i] as! Item
            if !item.isRoot { items.append(item) }
        }
        // Document order: compare the order keys on the way down from the top (ancestors' paths are shared,
        // so each is built once).
        var paths: [ObjectID: [String]] = [:]
        func path(_ item: Item) -> [String] {
            if let known = paths[item.objectID] { return known }
            let p = (item.parent.map { $0.isRoot ? [] : path($0) } ?? []) + [item.order]
            paths[item.objectID] = p
            return p
        }
        return items.map { ($0, path($0)) }
            .sorted { a, b in a.1.lexicographicallyPrecedes(b.1) || (a.1 == b.1 && a.0.objectID.rowID < b.0.objectID.rowID) }
            .map(\.0)
    }
}
