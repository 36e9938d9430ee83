import ObjectGraph

extension Outline {
    /// Items whose title or note contains `text` (ignoring case for ASCII letters, as SQLite's `lower()`
    /// does), in the order they appear in the outline (depth first), at most `limit` of them.
    ///
    /// For example: `try outline.search("milk")` finds “Milk” under Groceries › Dairy, “Oat milk” elsewhere,
    /// and “Breakfast”, whose note says “porridge with milk”.
    public func search(_ text: String, limit: Int = 10_000) throws -> [Item] {
        guard !text.isEmpty else { return [] }
        var request = FetchRequest(
            "Item", where: Key("title").contains(text, caseInsensitive: true) || Key("note").contains(text, caseInsensitive: true))
        request.limit = limit
        let found = try context.fetch(request)
        var items: [Item] = []
        items.reserveCapacity(found.count)
        for i in 0..<found.count {
            let item = found[i] as! Item
            if !item.isRoot { items.append(item) }
        }
        return try documentOrder(items)
    }

    /// The IDs of `search(_:limit:)`'s items, in the same order: for a screen that keeps no objects.
    public func searchIDs(_ text: String, limit: Int = 10_000) throws -> [ObjectID] {
        try search(text, limit: limit).map(\.objectID)
    }

    /// `items` in the order they appear in the outline (depth first). The ancestors of all of them form a
    /// small tree (each ancestor read once, walking up with an explicit loop); it is walked from the top with
    /// an explicit stack, siblings in (order key, ID) order, so depth costs memory, not the thread's stack,
    /// and no item's whole path is ever copied. An item whose way up never reaches the top (an orphan, a
    /// cycle in a damaged store) is left out: it cannot be shown.
    func documentOrder(_ items: [Item]) throws -> [Item] {
        let root = try self.root().objectID.rowID
        var wanted: [Int64: Item] = [:]
        for item in items { wanted[item.objectID.rowID] = item }
        var children: [Int64: [(key: String, id: Int64)]] = [:]
        var known: Set<Int64> = [root]
        for item in items {
            var x: Item = item
            var walk: Set<Int64> = []
            while !known.contains(x.objectID.rowID), walk.insert(x.objectID.rowID).inserted, let p = x.parent {
                known.insert(x.objectID.rowID)
                children[p.objectID.rowID, default: []].append((x.order, x.objectID.rowID))
                x = p
            }
        }
        var out: [Item] = []
        out.reserveCapacity(items.count)
        var stack: [Int64] = [root]
        while let id = stack.popLast() {
            if let item = wanted[id], id != root { out.append(item) }
            guard let kids = children[id] else { continue }
            // Pushed last-first, so the first sibling comes off the stack first.
            for kid in kids.sorted(by: { ($0.key, $0.id) > ($1.key, $1.id) }) { stack.append(kid.id) }
        }
        return out
    }
}
