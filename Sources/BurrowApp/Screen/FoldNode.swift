import ObjectGraph
import Outline

/// One list of a level's flattened tree: the level's own rows (the root node), or the sub-items of an item
/// folded open inside it, shown indented beneath that item. A level is a tree of these; its screen rows are
/// the tree flattened, found by index arithmetic over the open sub-lists' sizes, never by building the
/// flattened list.
///
/// A node is in one of three states, so that only what is on screen costs anything:
/// - *live*: a results controller keeps its rows (only nodes with rows on screen, and the root);
/// - *sized*: no controller, but how many rows it and its open sub-lists show, as last counted (scrolled
///   past, or counted for a jump to the end); it becomes live again, refetched, when it comes back on screen;
/// - *unknown*: open, but nothing read yet: the level's known rows end where it starts (as a long level's
///   rows end where its background read has got to), until scrolling reaches it.
final class FoldNode {
    /// The item whose sub-items these are.
    let itemID: ObjectID
    /// How far its rows are indented: 0 for the level's own rows.
    let depth: Int
    weak var parent: FoldNode?
    /// Set while live.
    var controller: ResultsController?
    /// The open sub-items that have rows here (or may have, once read), by item.
    var children: [ObjectID: FoldNode] = [:]
    /// While live: the open sub-items found among the known rows, in row order.
    private(set) var entries: [(row: Int, node: FoldNode)] = []
    /// `before[i]`: rows of open sub-lists above entry `i` (one more value than entries reached).
    private(set) var before: [Int] = [0]
    /// Entries up to a sub-list whose size is unknown: the rows after it are not known yet.
    private(set) var reached = 0
    /// Rows known, this node's own and its open sub-lists'.
    private(set) var size = 0
    /// True when `size` is every row (nothing unknown below, no background read running).
    private(set) var isKnown = false

    init(itemID: ObjectID, depth: Int, parent: FoldNode?) {
        self.itemID = itemID
        self.depth = depth
        self.parent = parent
    }

    var isLive: Bool { controller != nil }

    /// Rows of its own known now, without waiting for a background read.
    var ownCount: Int {
        guard let c = controller else { return 0 }
        return c.isComplete ? c.count : c.loadedCount
    }

    // MARK: Sizes

    /// Sets a sized node's counts, letting go of its controller.
    func setSized(_ size: Int) {
        controller = nil
        self.size = size
        isKnown = true
        entries = []
        before = [0]
        reached = 0
    }

    /// Forgets the size: unknown until read again.
    func setUnknown() {
        controller = nil
        size = 0
        isKnown = false
        entries = []
        before = [0]
        reached = 0
    }

    /// Finds where the open sub-items are among the known rows (a pass over the IDs, stopping once all are
    /// found) and recomputes the sizes. A sub-item no longer among the rows is dropped.
    func relayout() {
        guard let c = controller else { return }
        let known = ownCount
        var rows: [(row: Int, node: FoldNode)] = []
        if !children.isEmpty {
            var missing = children.count
            for row in 0..<known where missing > 0 {
                if let node = children[c.objectID(at: row)] {
                    rows.append((row, node))
                    missing -= 1
                }
            }
            // Not among the rows: gone from this list, unless a background read has yet to reach it.
            if c.isComplete {
                let found = Set(rows.map { $0.node.itemID })
                for id in children.keys where !found.contains(id) { children[id] = nil }
            }
        }
        entries = rows
        recount()
    }

    /// Recomputes `size` from the own rows and the sub-lists' sizes (after a sub-list's size changed).
    func recount() {
        guard controller != nil else { return }
        var total = ownCount
        var known = controller!.isComplete
        before = [0]
        reached = 0
        for (i, e) in entries.enumerated() {
            total += e.node.size
            before.append(before[i] + e.node.size)
            reached = i + 1
            if !e.node.isKnown {
                // Rows after an unknown sub-list are not known yet.
                total = e.row + 1 + before[i + 1]
                known = false
                break
            }
        }
        size = total
        isKnown = known
    }

    // MARK: Index arithmetic

    /// Where flattened row `flat` (below this node, `< size`) is: the node and its own row there.
    func locate(_ flat: Int) -> (node: FoldNode, row: Int) {
        var node = self
        var flat = flat
        while true {
            // The first reached entry whose sub-list ends after `flat`.
            var lo = 0, hi = node.reached
            while lo < hi {
                let mid = (lo + hi) / 2
                let end = node.entries[mid].row + 1 + node.before[mid + 1]
                if end > flat { hi = mid } else { lo = mid + 1 }
            }
            if lo < node.reached {
                let start = node.entries[lo].row + 1 + node.before[lo]
                if flat >= start {
                    flat -= start
                    node = node.entries[lo].node
                    continue
                }
            }
            return (node, flat - node.before[lo])
        }
    }

    /// The flattened row (below this node) of its own row `row`.
    func flat(ofOwnRow row: Int) -> Int {
        // Entries above `row` (entries are in row order).
        var lo = 0, hi = reached
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].row < row { lo = mid + 1 } else { hi = mid }
        }
        return row + before[lo]
    }

    /// The flattened row where this node's first row is shown, in its level (nil when an ancestor is not
    /// live, or its item's row is not reached).
    var start: Int? {
        var node = self
        var total = 0
        while let p = node.parent {
            guard let i = p.entries.prefix(p.reached).firstIndex(where: { $0.node === node }) else { return nil }
            total += p.entries[i].row + 1 + p.before[i]
            node = p
        }
        return total
    }
}
