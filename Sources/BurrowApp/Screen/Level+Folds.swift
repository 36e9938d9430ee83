import ObjectGraph
import Outline

extension Level {
    // MARK: Live lists

    /// Gives `node` a results controller (its rows as stored now) and finds its open sub-items.
    func makeLive(_ node: FoldNode) throws {
        let c = ResultsController(context: outline.context, request: request(for: node.itemID))
        c.onChange = { [unowned self, unowned node] batch in self.take(batch, in: node) }
        try c.performFetch()
        node.controller = c
        try findOpenChildren(of: node)
        node.relayout()
        recountAncestors(of: node)
    }

    /// Lets go of a node's controller (it is off screen), keeping its size while it is known.
    func retire(_ node: FoldNode) {
        guard node.isLive, node !== root else { return }
        for child in node.children.values { retire(child) }
        if node.isKnown { node.setSized(node.size) } else { node.setUnknown() }
    }

    /// The open sub-items of `node`'s item as stored now: new ones start unknown, closed ones go.
    private func findOpenChildren(of node: FoldNode) throws {
        let open = Set(try outline.expandedChildren(of: node.itemID, excludingDone: hidesDone))
        for id in node.children.keys where !open.contains(id) { node.children[id] = nil }
        for id in open where node.children[id] == nil {
            node.children[id] = FoldNode(itemID: id, depth: node.depth + 1, parent: node)
        }
    }

    private func recountAncestors(of node: FoldNode) {
        var p = node.parent
        while let q = p {
            q.recount()
            p = q.parent
        }
    }

    /// One batch of one list: its rows changed, and items in it may have been folded open or closed (here or
    /// elsewhere). The sizes are recounted up to the level and the selection follows its item.
    private func take(_ batch: ResultsBatch, in node: FoldNode) {
        if batch.invalidated {
            // The item of an open sub-list was deleted: its row goes in its parent's batch.
            if let parent = node.parent {
                parent.children[node.itemID] = nil
                parent.relayout()
                recountAncestors(of: parent)
            } else {
                // The level's own item: no rows are left.
                node.children = [:]
                node.relayout()
            }
            follow()
            return
        }
        if let c = node.controller {
            let touched = batch.inserts + batch.updates.map(\.to) + batch.moves.map(\.to)
            for index in touched where index.row < node.ownCount {
                guard let item = c.object(at: index.row) as? Item else { continue }
                let id = item.objectID
                if item.isExpanded, node.children[id] == nil {
                    node.children[id] = FoldNode(itemID: id, depth: node.depth + 1, parent: node)
                } else if !item.isExpanded, node.children[id] != nil {
                    node.children[id] = nil
                }
            }
        }
        node.relayout()
        recountAncestors(of: node)
        follow()
    }

    /// Takes the IDs of a background read once it has finished (so "12/340" replaces "12/256+"), when the
    /// state is settled rather than while a frame is drawn.
    func takeFinishedRead() {
        var changed = false
        forEachLive { node in
            if node.controller?.loadIfReady() == true {
                node.relayout()
                recountAncestors(of: node)
                changed = true
            }
        }
        if changed { follow() }
    }

    private func forEachLive(_ body: (FoldNode) -> Void) {
        var pending = [root]
        while let n = pending.popLast() {
            guard n.isLive else { continue }
            body(n)
            pending.append(contentsOf: n.children.values)
        }
    }

    /// Makes the list that flattened row `row` is in live (with every list on the way down to it), so
    /// the row can be read; a list read again may have changed size, so the row is found again each step.
    func ensureLive(at row: Int) {
        for _ in 0..<10_000 {
            guard row < count else { return }
            let (node, _) = root.locate(row)
            guard !node.isLive else { return }
            do {
                try makeLive(node)
            } catch {
                return
            }
        }
    }

    // MARK: Settling

    /// The first list whose rows are not all known, where the known rows end: a node never read, or a live
    /// one whose background read is running. Nil when every row is known.
    private var firstUnknown: FoldNode? {
        var node = root
        while true {
            if node.isKnown { return nil }
            if !node.isLive { return node }
            if node.reached > 0, !node.entries[node.reached - 1].node.isKnown {
                node = node.entries[node.reached - 1].node
                continue
            }
            return node
        }
    }

    /// Makes the rows up to `end` known (reading the open lists they are in), the lists with rows in
    /// `window` live and the others not. Returns true when the rows changed (the selection has followed).
    @discardableResult
    func settleFolds(window: Range<Int>) throws -> Bool {
        guard !isPaused, !isGone else { return false }
        var changed = false
        // A list read again can change what is on screen: again until nothing changes (each pass reads
        // only lists on screen, so this ends; the bound is a guard).
        for _ in 0..<100 {
            guard try settlePass(window: window) else { break }
            changed = true
        }
        if changed { follow() }
        return changed
    }

    /// One pass of `settleFolds`: true when it read a list.
    private func settlePass(window: Range<Int>) throws -> Bool {
        var changed = false
        // Rows known down to the window's end.
        while root.size < window.upperBound, let node = firstUnknown, !node.isLive {
            try makeLive(node)
            changed = true
        }
        // Live exactly where rows are on screen; starts are found top-down.
        var pending: [(node: FoldNode, start: Int)] = [(root, 0)]
        var revived: [FoldNode] = []
        while let (node, start) = pending.popLast() {
            // A list is live while its item's row or any of its rows is on screen.
            let extent = (start - 1)..<(start + node.size)
            let onScreen = node === root || extent.overlaps(window)
            if !onScreen {
                retire(node)
                continue
            }
            if !node.isLive {
                if node.isKnown { revived.append(node) }
                continue
            }
            for (i, e) in node.entries.prefix(node.reached).enumerated() {
                pending.append((e.node, start + e.row + 1 + node.before[i]))
            }
        }
        // Lists scrolled back to are read again (they may have changed meanwhile).
        for node in revived {
            try makeLive(node)
            changed = true
        }
        return changed
    }

    /// Reads every open list's size (not its rows), for a jump to the end or a count of every row.
    func measureAll() throws {
        var guardCount = 0
        while let node = firstUnknown, guardCount < 1_000_000 {
            guardCount += 1
            if node.isLive {
                // A background read: wait for it.
                _ = node.controller?.count
                node.relayout()
                recountAncestors(of: node)
            } else {
                try measure(node)
                recountAncestors(of: node)
            }
        }
        follow()
    }

    /// Counts a node's rows and its open sub-lists', without controllers: one count and one look at the
    /// index of open items per list, depth first without recursion.
    private func measure(_ top: FoldNode) throws {
        var order: [FoldNode] = []
        var pending = [top]
        while let n = pending.popLast() {
            order.append(n)
            try findOpenChildren(of: n)
            pending.append(contentsOf: n.children.values)
        }
        var own: [ObjectIdentifier: Int] = [:]
        for n in order { own[ObjectIdentifier(n)] = try outline.context.count(request(for: n.itemID)) }
        // Children before parents.
        for n in order.reversed() {
            n.setSized(own[ObjectIdentifier(n)]! + n.children.values.reduce(0) { $0 + $1.size })
        }
    }
}
