import Testing

@testable import ObjectGraph

/// The walks down a tree a store type gets for free (`StoreReader`'s defaults, built on `rows(of:keySlot:…)`):
/// every row below the root once, level by level, the root left out, and a cycle ending the walk.
@Suite struct StoreReaderDefaultsTests {
    static let model = try! Model {
        Entity("Node") {
            Attribute("label", .string, default: "")
            Relationship.toOne("parent", "Node", inverse: "children")
            Relationship.toMany("children", "Node", inverse: "parent")
        }
    }

    /// Rows as parent links only; every other read is left out (the defaults must not need them).
    final class Links: StoreReader {
        let parent: [Int64: Int64]
        init(_ parent: [Int64: Int64]) { self.parent = parent }
        func fetchIDs(_ request: FetchRequest, of entity: EntityDescription, prefetching rows: PrefetchedRows?) throws(StoreError) -> [Int64] {
            throw StoreError(.storage, "not in this fake")
        }
        func fetchValues(_ request: FetchRequest, of entity: EntityDescription, slots: [Int]) throws(StoreError) -> [(id: Int64, values: [Value])] {
            throw StoreError(.storage, "not in this fake")
        }
        func rows(of entity: EntityDescription, ids: [Int64], layout: RowLayout) throws(StoreError) -> [[Value]?] {
            ids.map { id in parent[id] == nil ? nil : entity.defaults }
        }
        func rows(of entity: EntityDescription, keySlot: Int, equalTo owner: Int64, withRows: Bool) throws(StoreError) -> [(id: Int64, row: [Value]?)]
        {
            parent.filter { $0.value == owner }.keys.sorted().map { ($0, nil) }
        }
    }

    /// The SQLite store's four required reads and nothing else: every other read is the default.
    final class RequiredOnly: StoreReader {
        let base: SQLiteStore
        init(_ base: SQLiteStore) { self.base = base }
        func fetchIDs(_ request: FetchRequest, of entity: EntityDescription, prefetching rows: PrefetchedRows?) throws(StoreError) -> [Int64] {
            try base.fetchIDs(request, of: entity, prefetching: rows)
        }
        func fetchValues(_ request: FetchRequest, of entity: EntityDescription, slots: [Int]) throws(StoreError) -> [(id: Int64, values: [Value])] {
            try base.fetchValues(request, of: entity, slots: slots)
        }
        func rows(of entity: EntityDescription, ids: [Int64], layout: RowLayout) throws(StoreError) -> [[Value]?] {
            try base.rows(of: entity, ids: ids, layout: layout)
        }
        func rows(of entity: EntityDescription, keySlot: Int, equalTo owner: Int64, withRows: Bool) throws(StoreError) -> [(id: Int64, row: [Value]?)]
        {
            try base.rows(of: entity, keySlot: keySlot, equalTo: owner, withRows: withRows)
        }
    }

    static let cards = try! Model(version: 1) {
        Entity("Card") {
            Attribute("front", .string, default: "")
            Attribute("back", .string, optional: true)
            Attribute("points", .integer64, default: 0)
            FullTextIndex("front", "back")
        }
    }

    /// The defaults give what the SQLite store's own reads give: counts ignore the window, sort keys start at
    /// the first row and stop at the limit, full-text search folds case and diacritics the way the index does.
    @Test func theDefaultReadsAgreeWithTheSQLiteStoresOwn() throws {
        let store = try Store(inMemoryWith: Self.cards)
        let c = Context(store: store)
        let fronts = ["Gödel", "ÉCOLE", "plain", "ab", "", "godel again", "Ecole", "zeta"]
        for (k, front) in fronts.enumerated() {
            let card = try c.insert("Card")
            card["front"] = front
            card["back"] = k % 3 == 0 ? "back with GÖDEL \(k)" : nil
            card["points"] = Int64(k % 4)
        }
        try c.save()
        let sqlite = store.sqlite, plain = RequiredOnly(sqlite)
        let card = try #require(Self.cards.entity("Card"))
        var requests: [FetchRequest] = []
        for predicate in [ObjectPredicate.true, Property("points") > 1, Property("front") == "nothing"] {
            var r = FetchRequest("Card", where: predicate, sortedBy: [SortKey("points", ascending: false), SortKey("front")])
            requests.append(r)
            (r.limit, r.offset) = (3, 2)
            requests.append(r)
        }
        for r in requests {
            #expect(try plain.count(r, of: card) == sqlite.count(r, of: card))
            for limit in [nil, 0, 1, 5] as [Int?] {
                let mine = try plain.fetchSortKeys(r, of: card, limit: limit), theirs = try sqlite.fetchSortKeys(r, of: card, limit: limit)
                #expect(mine.map(\.id) == theirs.map(\.id))
                #expect(mine.map(\.keys) == theirs.map(\.keys))
            }
        }
        for needle in ["godel", "ecole", "e", "b", "zz", ""].map(TextFolding.fold) {
            #expect(
                try plain.fullTextMatches(needle, of: card, among: nil, limit: nil)
                    == sqlite.fullTextMatches(needle, of: card, among: nil, limit: nil))
            #expect(
                try plain.fullTextMatches(needle, of: card, among: [2, 3, 6], limit: nil)
                    == sqlite.fullTextMatches(needle, of: card, among: [2, 3, 6], limit: nil))
            #expect(
                try plain.fullTextMatches(needle, of: card, among: nil, limit: 2) == sqlite.fullTextMatches(needle, of: card, among: nil, limit: 2))
            #expect(try plain.fullTextCount(needle, of: card) == sqlite.fullTextCount(needle, of: card))
        }
        #expect(try plain.fullTextCount(TextFolding.fold("godel"), of: card) == 4)
    }

    @Test func theDefaultWalksDownATreeEachRowOnceAndStopAtACycle() throws {
        let node = try #require(Self.model.entity("Node"))
        let slot = try #require(node.property("parent")).slot
        // 1 ▸ 2, 3; 2 ▸ 4; 4 ▸ 1 (a cycle back to the root); 5 ▸ 6 elsewhere.
        let store = Links([2: 1, 3: 1, 4: 2, 1: 4, 6: 5])
        #expect(try store.descendants(of: [1], entity: node, keySlot: slot).map(\.id) == [2, 3, 4])
        #expect(try store.descendants(of: [1], entity: node, keySlot: slot).map(\.key) == [1, 1, 2])
        #expect(try store.countDescendants(of: 1, entity: node, keySlot: slot) == 3)
        #expect(try store.descendantRows(of: [1], entity: node, keySlot: slot).map(\.id) == [2, 3, 4])
        #expect(try store.descendants(of: [5], entity: node, keySlot: slot).map(\.id) == [6])
        #expect(try store.descendants(of: [6], entity: node, keySlot: slot).isEmpty)
        // Several roots, one below another: each row once, none of the roots.
        #expect(try store.descendants(of: [1, 2, 5], entity: node, keySlot: slot).map(\.id).sorted() == [3, 4, 6])
        #expect(store.scanIDs(FetchRequest("Node"), of: node) == nil)
        #expect(store.rowsAside(of: node, ids: [2]) == nil)
    }
}
