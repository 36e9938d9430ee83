import ObjectGraph

/// The items whose title or note contains a text (folded: case and diacritics ignored, see
/// `TextFolding`), found through the store's full-text index: how many, exactly, and the items in outline
/// order as they are asked for, without making an object for each.
///
/// Few hits are put in order at once by reading the way up from each (their ancestors, once each). Many
/// hits lie close together in the outline, so they are found by walking the outline from the top, depth
/// first, a page of siblings at a time, and testing each item against the hits: the first screenful comes
/// after a few hundred items, and the walk goes on only as far as ``load(upTo:)`` asks.
///
/// Made for a first screen (``Outline/find(_:firstScreen:)``), a search that would read most of the index
/// (its filters say so, or the store holds no index yet to ask) walks first: each page of siblings is tested
/// through the parts of the index that hold its items, so a word in every seventh item fills a screen after
/// reading a few parts of the index, not all of it (29 MB at a million items), and the exact count follows
/// from ``countAll()``. A rare word is counted at once, and so is a search whose walk finds too little
/// within its first items.
public final class SearchResults {
    /// The text searched for, as typed.
    public let query: String
    /// How many items contain it (the top item never counts): exact once ``isCounted``, until then the hits
    /// found so far. When the walk ends and finds fewer (hits under no item that reaches the top, in a
    /// damaged store), it becomes what was found.
    public private(set) var count: Int = 0
    /// True once ``count`` is exact: at once, unless made for a first screen whose walk filled it.
    public private(set) var isCounted = false
    /// The hits found so far, in outline order: the first ``count`` once ``isComplete``.
    public private(set) var ordered: [ObjectID] = []
    /// True when ``ordered`` holds every hit.
    public private(set) var isComplete = false

    /// Up to this many hits are ordered at once by their ancestors; more are found by the walk.
    static let orderAtOnceLimit = 2_000
    /// Siblings read per page of the walk.
    static let pageSize = 256
    /// Items a first screen's walk tests through the index before it counts every hit instead: enough for a
    /// word in one item of 25 to fill a screen of 40, few enough that a rare word loses a millisecond or two.
    static let firstScreenWalk = 1_024
    /// A first screen walks first when a whole search would read at least this share of the index.
    static let walkFirstShare = 0.25

    private let outline: Outline
    private let entity: Int
    private let root: Int64
    /// The hits' row IDs, ascending (as the index gives them), once counted: tested by binary search, so a
    /// search of 300,000 hits builds no hash set per key typed. Until then each page's own hits are.
    private var hits: [Int64]?
    /// The walk: for each level on the way down, its parent, the page of its sub-items read (with the page's
    /// hits while the whole count is not known), the position in it, and where the next page starts.
    private var stack: [Step] = []
    /// Items the walk has tested.
    private var walked = 0

    private struct Step {
        var parent: Int64
        var page: [(id: Int64, hasChildren: Bool)] = []
        var pageHits: [Int64] = []
        var next = 0
        /// Where the next page starts.
        var cursor = LevelCursor()
        var more = true
    }

    /// Every hit counted at once (see ``Outline/find(_:)``).
    convenience init(outline: Outline, query: String) throws {
        try self.init(outline: outline, query: query, firstScreen: nil)
    }

    /// With `firstScreen`, the walk first (unless the index says it reads little), up to that many hits
    /// within `budget` items, the count after; else every hit counted at once.
    init(outline: Outline, query: String, firstScreen: Int?, budget: Int = SearchResults.firstScreenWalk) throws {
        self.outline = outline
        self.query = query
        let root = try outline.root().objectID
        self.root = root.rowID
        entity = root.entity
        // Counted at once when the index's filters say a whole search reads little of it (a rare word): the
        // walk would only add to it. A search they cannot tell about (no index held yet) walks first.
        guard let screen = firstScreen,
            try outline.context.fullTextShareToRead(query, entity: Item.entityName).map({ $0 >= SearchResults.walkFirstShare }) ?? true
        else {
            try countAll()
            if let screen = firstScreen { try load(upTo: screen) }
            return
        }
        stack = [Step(parent: root.rowID)]
        try walk(upTo: screen, within: budget)
        if !isComplete, ordered.count < screen {
            try countAll()
            try load(upTo: screen)
        }
    }

    /// Counts every hit (through the whole index) if not counted yet; the walk goes on from where it is,
    /// testing items against them. Few hits are put in order at once.
    public func countAll() throws {
        guard !isCounted else { return }
        var ids = try outline.context.fullTextRowIDs(query, entity: Item.entityName)
        if let k = SearchResults.position(of: root, in: ids) { ids.remove(at: k) }
        hits = ids
        count = ids.count
        isCounted = true
        if ids.isEmpty {
            complete()
        } else if ids.count <= SearchResults.orderAtOnceLimit {
            ordered = try outline.documentOrder(ids.map { [entity] in ObjectID(entity: entity, rowID: $0) })
            complete()
        } else if stack.isEmpty, !isComplete {
            stack = [Step(parent: root)]
        } else if ordered.count == count {
            complete()
        }
    }

    /// Finds hits in order until ``ordered`` holds `n` of them or every one. Before the count, the walk tests
    /// at most 1,024 more items through the index, then counts (hits that thin out would otherwise cost a
    /// look in the index per page to the end of the outline).
    public func load(upTo n: Int) throws {
        if !isCounted {
            try walk(upTo: n, within: walked + SearchResults.firstScreenWalk)
            if isComplete || ordered.count >= n { return }
            try countAll()
        }
        try walk(upTo: n, within: Int.max)
    }

    /// Ends the walk: what it found is every hit.
    private func complete() {
        isComplete = true
        stack = []
        count = ordered.count
        isCounted = true
    }

    /// The walk, until ``ordered`` holds `n` hits, every one, or (while not counted) `budget` items are tested.
    private func walk(upTo n: Int, within budget: Int) throws {
        while !isComplete, ordered.count < n, isCounted || walked < budget {
            guard var top = stack.popLast() else {
                complete()
                break
            }
            if top.next == top.page.count {
                guard top.more else { continue }
                let parent = ObjectID(entity: entity, rowID: top.parent)
                let rows = try outline.context.fetchValues(top.cursor.request(parent, limit: SearchResults.pageSize), keys: ["childCount", "order"])
                top.page = rows.map { row in
                    if case .integer(let n) = row.values[0] { return (row.id.rowID, n > 0) }
                    return (row.id.rowID, true)
                }
                top.next = 0
                top.cursor.advance(past: rows.map { $0.values[1] })
                top.more = rows.count == SearchResults.pageSize
                if rows.isEmpty { continue }
                if hits == nil {
                    top.pageHits = try outline.context.fullTextRowIDs(query, entity: Item.entityName, among: top.page.map(\.id).sorted())
                }
            }
            let item = top.page[top.next]
            top.next += 1
            walked += 1
            stack.append(top)
            if SearchResults.position(of: item.id, in: hits ?? top.pageHits) != nil {
                ordered.append(ObjectID(entity: entity, rowID: item.id))
                if isCounted, ordered.count == count { isComplete = true }
                if !isCounted { count = ordered.count }
            }
            if item.hasChildren { stack.append(Step(parent: item.id)) }
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

    /// Finds every hit: counts them first, then walks to the end of the outline when there are many.
    public func loadAll() throws {
        try countAll()
        try load(upTo: Int.max)
    }
}
