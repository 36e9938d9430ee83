import ObjectGraph

extension Level {
    /// Takes note of `rows` (own rows of `node`'s list, just inserted by a batch, the selection already
    /// followed) that arrived above the first row shown: they stay out of sight, counted in `newAbove`.
    func noteArrivals(_ rows: [Int], in node: FoldNode, except expected: ObjectID?) {
        guard let c = node.controller, let start = start(of: node) else { return }
        for row in rows where row < node.ownCount && start + node.flat(ofOwnRow: row) < list.offset {
            let id = c.objectID(at: row)
            if id != expected { newAbove.lists[ObjectIdentifier(node), default: .init(node: node)].ids.insert(id) }
        }
        // Arrivals of earlier batches that this one brought on screen (changes reach a level between events too).
        settleNewAbove()
    }

    /// Takes note of `grown` rows more in `node`'s list, read again while off screen: when it starts above
    /// the first row shown, they count as arrived above (which rows they are is not known).
    func noteArrivals(grown: Int, in node: FoldNode) {
        guard grown > 0, let start = start(of: node), start < list.offset else { return }
        newAbove.lists[ObjectIdentifier(node), default: .init(node: node)].unnamed += grown
    }

    /// Forgets arrivals now on screen or below it (the user scrolled up to them), gone from their list, or in
    /// a list that went; after each event, once the level has scrolled. Reads only the rows above the screen
    /// of the lists that have arrivals, and nothing when there are none.
    func settleNewAbove() {
        guard !newAbove.lists.isEmpty else { return }
        let offset = list.offset
        for (key, var arrivals) in newAbove.lists {
            let node = arrivals.node
            guard let start = start(of: node), start < offset else {
                newAbove.lists[key] = nil
                continue
            }
            if let c = node.controller, !arrivals.ids.isEmpty {
                // The own rows above the screen: a binary search for where they end, then one pass over them.
                var lo = 0, hi = node.ownCount
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if start + node.flat(ofOwnRow: mid) < offset { lo = mid + 1 } else { hi = mid }
                }
                var found: Set<ObjectID> = []
                var row = 0
                // Items added at the top (`burrow add --top`) end the pass at once.
                while row < lo, found.count < arrivals.ids.count {
                    let id = c.objectID(at: row)
                    if arrivals.ids.contains(id) { found.insert(id) }
                    row += 1
                }
                arrivals.ids = found
            }
            newAbove.lists[key] = arrivals.ids.isEmpty && arrivals.unnamed == 0 ? nil : arrivals
        }
    }

    /// Where `node`'s rows start in the level, if it is still one of its lists and reached.
    private func start(of node: FoldNode) -> Int? {
        var top = node
        while let p = top.parent { top = p }
        return top === root ? node.start : nil
    }
}
