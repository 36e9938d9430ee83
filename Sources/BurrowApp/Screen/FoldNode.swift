import ObjectGraph
import Outline

/// One list of a level's flattened tree: the level's own rows (the root node), or the sub-items of an item
/// folded open inside it, shown indented beneath that item. A level is a tree of these; its screen rows are
/// the tree flattened, found by index arithmetic over the open sub-lists' sizes, never by building the
/// flattened list.
///
/// A node is in one of three states, so that only what is on screen costs anything:
/// - *live*: a results controller keeps its rows (lists with one of their own rows, or their item's row,
///   on screen; the 16 last on screen before them, so that going back reads nothing; and the root);
/// - *sized*: no controller, but how many rows it has and, when it was live once, where its open sub-lists
///   are among them, as last seen (scrolled past, or counted for a jump to the end); the rows of a list open
///   in it can be found through it, and it is read again when one of its own rows comes back on screen;
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
    /// Own rows when it was last live or counted: what a sized node counts as its own.
    private(set) var ownSize = 0
    /// Whether `ownSize` was all of its own rows (its background read had finished).
    private(set) var ownIsComplete = true
    /// Whether `entries` say where the open sub-lists are (false for a list counted without being read).
    private(set) var hasLayout = false
    /// The level's settle pass when one of its rows was last on screen (which lists stay live off screen).
    var lastOnScreen = 0

    init(itemID: ObjectID, depth: Int, parent: FoldNode?) {
        self.itemID = itemID
        self.depth = depth
        self.parent = parent
    }

    /// Lets go of the open lists below without recursion: a chain of open items as deep as the outline
    /// (100,000 levels) would otherwise be freed one stack frame per level. Nodes are never moved to another
    /// parent, so the lists below a node being freed are held by nothing else.
    deinit {
        var pending = Array(children.values)
        children = [:]
        entries = []
        while let n = pending.popLast() {
            pending.append(contentsOf: n.children.values)
            n.children = [:]
            n.entries = []
        }
    }

    var isLive: Bool { controller != nil }

    /// Rows of its own known now, without waiting for a background read (as last seen, when not live).
    var ownCount: Int {
        guard let c = controller else { return ownSize }
        return c.isComplete ? c.count : c.loadedCount
    }

    // MARK: Sizes

    /// Counted without being read (`own` rows and the sub-lists' sizes): sized, with no layout.
    func setCounted(own: Int, size: Int) {
        controller = nil
        ownSize = own
        ownIsComplete = true
        self.size = size
        isKnown = true
        entries = []
        before = [0]
        reached = 0
        hasLayout = false
    }

    /// Lets go of the controller (off screen), keeping the counts and the layout as last seen (known or not).
    func retire() {
        guard let c = controller else { return }
        ownSize = ownCount
        ownIsComplete = c.isComplete
        controller = nil
    }

    /// Forgets the size: unknown until read again.
    func setUnknown() {
        controller = nil
        size = 0
        ownSize = 0
        isKnown = false
        entries = []
        before = [0]
        reached = 0
        hasLayout = false
    }

    /// Takes an open sub-list out (its item was deleted or closed), live or not.
    func drop(_ child: FoldNode) {
        children[child.itemID] = nil
        if isLive {
            relayout()
        } else {
            entries.removeAll { $0.node === child }
            recount()
        }
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
        hasLayout = true
        recount()
    }

    /// Recomputes `size` from the own rows and the sub-lists' sizes (after a sub-list's size changed).
    func recount() {
        guard isLive || hasLayout else {
            // Counted, never read: its size is its own rows and its open lists', wherever they are.
            guard isKnown else { return }
            size = ownSize + children.values.reduce(0) { $0 + $1.size }
            isKnown = children.values.allSatisfy(\.isKnown)
            return
        }
        var total = ownCount
        var known = controller?.isComplete ?? ownIsComplete
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

    /// The open sub-list that flattened row `flat` (below this node) is in, and the row's place in it; nil
    /// when the row is one of this node's own.
    func child(containing flat: Int) -> (node: FoldNode, flat: Int)? {
        var lo = 0, hi = reached
        while lo < hi {
            let mid = (lo + hi) / 2
            let end = entries[mid].row + 1 + before[mid + 1]
            if end > flat { hi = mid } else { lo = mid + 1 }
        }
        guard lo < reached else { return nil }
        let start = entries[lo].row + 1 + before[lo]
        return flat >= start ? (entries[lo].node, flat - start) : nil
    }

    /// Whether one of its own rows (not those of its open sub-lists) is among the flattened rows `range`
    /// (counted below this node): a jump over each sub-list the range meets.
    func hasOwnRow(in range: Range<Int>) -> Bool {
        var flat = max(0, range.lowerBound)
        let end = min(size, range.upperBound)
        while flat < end {
            guard let (child, offset) = child(containing: flat) else { return true }
            flat += child.size - offset
        }
        return false
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
