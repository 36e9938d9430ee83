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
        func fetchSortKeys(_ request: FetchRequest, of entity: EntityDescription, limit: Int?) throws(StoreError) -> [(id: Int64, keys: [Value])] {
            throw StoreError(.storage, "not in this fake")
        }
        func fetchValues(_ request: FetchRequest, of entity: EntityDescription, slots: [Int]) throws(StoreError) -> [(id: Int64, values: [Value])] {
            throw StoreError(.storage, "not in this fake")
        }
        func count(_ request: FetchRequest, of entity: EntityDescription) throws(StoreError) -> Int { throw StoreError(.storage, "not in this fake") }
        func rows(of entity: EntityDescription, ids: [Int64], layout: RowLayout) throws(StoreError) -> [[Value]?] {
            ids.map { id in parent[id] == nil ? nil : entity.defaults }
        }
        func rows(of entity: EntityDescription, keySlot: Int, equalTo owner: Int64, withRows: Bool) throws(StoreError) -> [(id: Int64, row: [Value]?)]
        {
            parent.filter { $0.value == owner }.keys.sorted().map { ($0, nil) }
        }
        func fullTextMatches(_ folded: String, of entity: EntityDescription, among ids: [Int64]?, limit: Int?) throws(StoreError) -> [Int64] { [] }
        func fullTextCount(_ folded: String, of entity: EntityDescription) throws(StoreError) -> Int { 0 }
    }

    @Test func theDefaultWalksDownATreeEachRowOnceAndStopAtACycle() throws {
        let node = try #require(Self.model.entity("Node"))
        let slot = try #require(node.property("parent")).slot
        // 1 ▸ 2, 3; 2 ▸ 4; 4 ▸ 1 (a cycle back to the root); 5 ▸ 6 elsewhere.
        let store = Links([2: 1, 3: 1, 4: 2, 1: 4, 6: 5])
        #expect(try store.descendants(of: 1, entity: node, keySlot: slot) == [2, 3, 4])
        #expect(try store.countDescendants(of: 1, entity: node, keySlot: slot) == 3)
        #expect(try store.descendantRows(of: 1, entity: node, keySlot: slot).map(\.id) == [2, 3, 4])
        #expect(try store.descendants(of: 5, entity: node, keySlot: slot) == [6])
        #expect(try store.descendants(of: 6, entity: node, keySlot: slot) == [])
        #expect(store.scanIDs(FetchRequest("Node"), of: node) == nil)
        #expect(store.rowsAside(of: node, ids: [2]) == nil)
    }
}
