import ObjectGraph

/// Every item's title and place in the outline, read once as stored values (one pass over the (parent, order)
/// index, no objects), for choosing an item by typing: the move picker filters it in memory as keys arrive.
/// Positions are in outline order (the top item first, each item right before its sub-items), so ties between
/// matches keep that order. It is a snapshot: changes made after it was read are not in it.
///
/// For example:
/// ```swift
/// let index = try outline.titleIndex()
/// let best = TitleIndex.best(index.matches(FuzzyMatch("mlk")), limit: 20)
/// index.path(of: Int(best[0].position))  // ["Burrow", "Groceries"]
/// ```
public struct TitleIndex: Sendable {
    /// The items, in outline order.
    public let ids: [ObjectID]
    /// Their titles as stored.
    public let titles: [String]
    /// The titles folded for matching (`FuzzyMatch.fold`).
    private let folded: [String]
    /// The position of each item's parent; -1 for the top item.
    private let parents: [Int32]

    /// One item's position and how well it matched.
    public struct Match: Sendable, Equatable {
        public let position: Int32
        public let score: Int32
    }

    init(ids: [ObjectID], titles: [String], parents: [Int32]) {
        self.ids = ids
        self.titles = titles
        self.parents = parents
        folded = titles.map(FuzzyMatch.fold)
    }

    /// How many items it holds.
    public var count: Int { ids.count }

    /// The titles above the item at `position`, from the top item down to its parent (empty for the top).
    public func path(of position: Int) -> [String] {
        var out: [String] = []
        var p = parents[position]
        while p >= 0 {
            out.append(titles[Int(p)])
            p = parents[Int(p)]
        }
        return out.reversed()
    }

    /// The positions of the items `ids` (those it holds).
    public func positions(of ids: Set<ObjectID>) -> Set<Int32> {
        var out: Set<Int32> = []
        for (k, id) in self.ids.enumerated() where ids.contains(id) { out.insert(Int32(k)) }
        return out
    }

    /// True when the item at `position` is one of `positions` or below one of them.
    /// For every position, whether it is one of `positions` or below one: one pass in outline order (a
    /// parent comes before its sub-items), so a test per match costs nothing.
    public func within(_ positions: Set<Int32>) -> [Bool] {
        var out = [Bool](repeating: false, count: ids.count)
        for i in 0..<ids.count {
            let p = parents[i]
            out[i] = positions.contains(Int32(i)) || (p >= 0 && Int(p) < i && out[Int(p)])
        }
        return out
    }

    public func isWithin(_ position: Int, _ positions: Set<Int32>) -> Bool {
        var p = Int32(position)
        while p >= 0 {
            if positions.contains(p) { return true }
            p = parents[Int(p)]
        }
        return false
    }

    /// The items whose titles match `query`, in outline order; `among` narrows the search to earlier matches
    /// (those of a shorter query this one extends: typing on only ever drops matches).
    public func matches(_ query: FuzzyMatch, among: [Match]? = nil) -> [Match] {
        var out: [Match] = []
        if let among {
            for m in among {
                if let s = query.score(folded: folded[Int(m.position)]) { out.append(Match(position: m.position, score: Int32(clamping: s))) }
            }
        } else {
            out.reserveCapacity(query.isEmpty ? count : 256)
            for k in folded.indices {
                if let s = query.score(folded: folded[k]) { out.append(Match(position: Int32(k), score: Int32(clamping: s))) }
            }
        }
        return out
    }

    /// The `limit` best of `matches`, best first, ties in outline order: a count of each score finds the
    /// lowest score shown, so only what is shown is sorted, however many matched.
    public static func best(_ matches: [Match], limit: Int) -> [Match] {
        guard limit > 0 else { return [] }
        var counts: [Int32: Int] = [:]
        for m in matches { counts[m.score, default: 0] += 1 }
        var threshold = Int32.min
        var above = 0
        var atThreshold = 0
        for score in counts.keys.sorted(by: >) {
            let n = counts[score]!
            threshold = score
            if above + n >= limit {
                atThreshold = limit - above
                break
            }
            above += n
            atThreshold = n
        }
        var taken: [Match] = []
        taken.reserveCapacity(min(limit, matches.count))
        for m in matches where m.score >= threshold {
            if m.score == threshold {
                guard atThreshold > 0 else { continue }
                atThreshold -= 1
            }
            taken.append(m)
        }
        return taken.sorted { ($0.score, -$0.position) > ($1.score, -$1.position) }
    }
}
