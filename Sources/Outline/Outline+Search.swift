import ObjectGraph

extension Outline {
    /// The items whose title or note contains `text`, ignoring case and diacritics (“godel” finds
    /// “Gödel”, “STRASSE” finds “Straße”), through the store's full-text index: the exact count at once,
    /// the items in outline order as they are asked for (see ``SearchResults``).
    ///
    /// For example: `try outline.find("milk")` finds “Milk” under Groceries › Dairy, “Oat milk” elsewhere,
    /// and “Breakfast”, whose note says “porridge with milk”.
    public func find(_ text: String) throws -> SearchResults {
        try SearchResults(outline: self, query: text)
    }

    /// The same search for a screen of `rows` hits: those hits in outline order first, the exact count after
    /// (``SearchResults/countAll()``) when a word common in the outline fills the screen within its first
    /// 1,024 items; a rarer one is counted at once (after those items, unless the store's index filters tell
    /// beforehand that a whole search reads little). A word in a quarter of a million items shows its first
    /// screen without reading the whole index.
    public func find(_ text: String, firstScreen rows: Int) throws -> SearchResults {
        try SearchResults(outline: self, query: text, firstScreen: max(1, rows))
    }

    /// The first `limit` items of ``find(_:)``, in outline order, as objects.
    public func search(_ text: String, limit: Int = 10_000) throws -> [Item] {
        try searchIDs(text, limit: limit).compactMap { try context.existingObject(for: $0) as? Item }
    }

    /// The first `limit` hits of ``find(_:)`` in outline order, for a screen that keeps no objects.
    public func searchIDs(_ text: String, limit: Int = 10_000) throws -> [ObjectID] {
        guard !text.isEmpty else { return [] }
        let results = try find(text)
        try results.load(upTo: limit)
        return Array(results.ordered.prefix(limit))
    }

    /// `ids` in the order they appear in the outline (depth first), from stored values only: each one's
    /// parent and order key, and each ancestor's once (read a batch per level of the walk up), form a small
    /// tree walked from the top with an explicit stack, siblings in (order key, ID) order, so depth costs
    /// memory, not the thread's stack. An item whose way up never reaches the top (an orphan, a cycle in a
    /// damaged store) is left out: it cannot be shown.
    func documentOrder(_ ids: [ObjectID]) throws -> [ObjectID] {
        guard let entity = ids.first?.entity else { return [] }
        let root = try self.root().objectID.rowID
        let wanted = Set(ids.map(\.rowID))
        var children: [Int64: [(key: String, id: Int64)]] = [:]
        var known: Set<Int64> = [root]
        var frontier = Array(wanted.subtracting(known))
        while !frontier.isEmpty {
            let values = try context.storedValues(
                of: frontier.map { ObjectID(entity: entity, rowID: $0) }, entity: Item.entityName, keys: ["parent", "order"])
            var next: [Int64] = []
            for (id, row) in zip(frontier, values) {
                guard let row, case .integer(let parent) = row[0] else { continue }
                known.insert(id)
                let key: String
                if case .string(let s) = row[1] { key = s } else { key = "" }
                children[parent, default: []].append((key, id))
                if !known.contains(parent) {
                    known.insert(parent)
                    next.append(parent)
                }
            }
            frontier = next
        }
        var out: [ObjectID] = []
        out.reserveCapacity(ids.count)
        var stack: [Int64] = [root]
        var visited: Set<Int64> = []
        while let id = stack.popLast() {
            guard visited.insert(id).inserted else { continue }
            if id != root, wanted.contains(id) { out.append(ObjectID(entity: entity, rowID: id)) }
            guard let kids = children[id] else { continue }
            // Pushed last-first, so the first sibling comes off the stack first.
            for kid in kids.sorted(by: { ($0.key, $0.id) > ($1.key, $1.id) }) { stack.append(kid.id) }
        }
        return out
    }
}

extension Outline {
    /// The items `query` finds, in outline order: those its filters match (fetched by the store), which
    /// contain each of its words and phrases (through the full-text index, so case and diacritics are
    /// ignored); the top item is never one.
    ///
    /// For example: `try outline.items(matching: ItemQuery("state:TODO #work call", today: "2026-11-29"))`.
    public func items(matching query: ItemQuery) throws -> [ObjectID] {
        var found: Set<Int64>?
        if query.hasFilters {
            found = Set(try context.fetch(FetchRequest(Item.entityName, where: query.filters)).rowIDs)
        }
        for word in query.text {
            let results = try find(word)
            try results.load(upTo: Int.max)
            let hits = Set(results.ordered.map(\.rowID))
            found = found.map { $0.intersection(hits) } ?? hits
            if found?.isEmpty == true { break }
        }
        guard var ids = found else { return [] }
        ids.remove(try root().objectID.rowID)
        let entity = try root().objectID.entity
        return try documentOrder(ids.sorted().map { ObjectID(entity: entity, rowID: $0) })
    }
}

extension Outline {
    /// Adds a saved search at the end of `parent`'s sub-items: an item titled `title` whose properties say
    /// `query:: QUERY` (see `ItemQuery`), which the outliner opens as a live view; returns its ID.
    @discardableResult
    public func appendSavedSearch(_ title: String, query: String, to parent: ObjectID) throws -> ObjectID {
        let id = try append(title, to: parent)
        try resolve(id).extras = OutlineNode.Extras(properties: "query:: " + query)
        return id
    }

    /// The query of a saved search (`query:: …` in its properties, or an Org drawer's `:QUERY: …`), nil for an
    /// item that is none.
    public func savedQuery(of id: ObjectID) throws -> String? {
        guard let item = try context.existingObject(for: id) as? Item, let properties = item.extras?.properties else { return nil }
        for line in properties.split(separator: "\n") {
            let t = line.drop { $0 == " " || $0 == "\t" }
            for prefix in ["query::", ":query:", ":QUERY:"] where t.hasPrefix(prefix) {
                let q = t.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
                if !q.isEmpty { return q }
            }
        }
        return nil
    }
}
