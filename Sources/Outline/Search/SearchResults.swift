import ObjectGraph

/// The items whose title or note contains a text (folded: case and diacritics ignored, see
/// `TextFolding`), found through the store's full-text index: how many at once, exactly, and the items in
/// outline order as they are asked for, without making an object for each.
///
/// Few hits are put in order at once by reading the way up from each (their ancestors, once each). Many
/// hits lie close together in the outline, so they are found by walking the outline from the top, depth
/// first, a page of siblings at a time, and testing each item against the hits: the first screenful comes
/// after a few hundred items, and the walk goes on only as far as ``load(upTo:)`` asks.
public final class SearchResults {
    /// The text searched for, as typed.
    public let query: String
    /// How many items contain it (the top item never counts). Exact; when the walk ends and finds fewer
    /// (hits under no item that reaches the top, in a damaged store), it becomes what was found.
    public private(set) var count: Int
    /// The hits found so far, in outline order: the first ``count`` once ``isComplete``.
    public private(set) var ordered: [ObjectID] = []
    /// True when ``ordered`` holds every hit.
    public private(set) var isComplete = false

    /// Up to this many hits are ordered at once by their ancestors; more are found by the walk.
    static let orderAtOnceLimit = 2_000
    /// Siblings read per page of the walk.
    static let pageSize = 256

    private let outline: Outline
    private let entity: Int
    /// The hits' row IDs, ascending (as the index gives them): tested by binary search, so a search of
    /// 300,000 hits builds no hash set per key typed.
    private var hits: [Int64]
    /// The walk: for each level on the way down, its parent, the page of its sub-items read, the position
    /// in it, and where the next page starts.
    private var stack: [(parent: Int64, page: [(id: Int64, hasChildren: Bool)], next: Int, offset: Int, more: Bool)] = []
    private var seen = 0

    init(outline: Outline, query: String) throws {
        self.outline = outline
        self.query = query
        let root = try outline.root().objectID
        entity = root.entity
        var ids = try outline.context.fullTextRowIDs(query, entity: Item.entityName)
        if let k = SearchResults.position(of: root.rowID, in: ids) { ids.remove(at: k) }
        hits = ids
        count = ids.count
        if ids.isEmpty {
            isComplete = true
        } else if ids.count <= SearchResults.orderAtOnceLimit {
            ordered = try outline.documentOrder(ids.map { [entity] in ObjectID(entity: entity, rowID: $0) })
            count = ordered.count
            isComplete = true
        } else {
            stack = [(root.rowID, [], 0, 0, true)]
        }
    }

    /// Finds hits in order until ``ordered`` holds `n` of them or every one.
    public func load(upTo n: Int) throws {
        while !isComplete, ordered.count < n {
            guard var top = stack.popLast() else {
                isComplete = true
                count = ordered.count
                break
            }
            if top.next == top.page.count {
                guard top.more else { continue }
                let parent = ObjectID(entity: entity, rowID: top.parent)
                var request = Outline.level(of: parent)
                request.limit = SearchResults.pageSize
                request.offset = top.offset
                let rows = try outline.context.fetchValues(request, keys: ["childCount"])
                top.page = rows.map { row in
                    if case .integer(let n) = row.values[0] { return (row.id.rowID, n > 0) }
                    return (row.id.rowID, true)
                }
                top.next = 0
                top.offset += rows.count
                top.more = rows.count == SearchResults.pageSize
                if rows.isEmpty { continue }
            }
            let item = top.page[top.next]
            top.next += 1
            stack.append(top)
            if SearchResults.position(of: item.id, in: hits) != nil {
                ordered.append(ObjectID(entity: entity, rowID: item.id))
                if ordered.count == count { isComplete = true }
            }
            if item.hasChildren { stack.append((item.id, [], 0, 0, true)) }
        }
    }

    /// Where `id` is in the ascending `ids`, if it is there.
    static func position(of id: Int64, in ids: [Int64]) -> Int? {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < ids.count && ids[lo] == id ? lo : nil
    }

    /// Finds every hit (the walk to the end of the outline when there are many).
    public func loadAll() throws { try load(upTo: Int.max) }
}
