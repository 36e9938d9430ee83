import ObjectGraph
import Outline

extension Level {
    // MARK: Live lists

    /// Gives `node` a results controller (its rows as stored now) and finds its open sub-items; the lists
    /// above are recounted unless the caller recounts once for many (`recount(above:)`).
    func makeLive(_ node: FoldNode, recountingAbove: Bool = true) throws {
        let c = outline.controller(for: request(for: node.itemID))
        c.onChange = { [unowned self, unowned node] batch in self.take(batch, in: node) }
        try c.performFetch()
        node.controller = c
        if node !== root { liveLists[ObjectIdentifier(node)] = node }
        try findOpenChildren(of: node)
        node.relayout()
        if recountingAbove { recountAncestors(of: node) }
    }

    /// Recounts every list above `nodes`, each once, deepest first: linear in the lists, however deep they nest.
    func recount(above nodes: [FoldNode]) {
        var seen = Set<ObjectIdentifier>()
        var above: [FoldNode] = []
        for node in nodes {
            var p = node.parent
            while let q = p, seen.insert(ObjectIdentifier(q)).inserted {
                above.append(q)
                p = q.parent
            }
        }
        for q in above.sorted(by: { $0.depth > $1.depth }) { q.recount() }
    }

    /// Lets go of a list's controller (none of its rows is on screen), keeping its counts and layout.
    func retire(_ node: FoldNode) {
        guard node.isLive, node !== root else { return }
        node.retire()
        liveLists[ObjectIdentifier(node)] = nil
    }

    /// The open sub-items of `node`'s item as stored now: new ones start unknown, closed ones go.
    private func findOpenChildren(of node: FoldNode) throws {
        // A view's rows come from everywhere: no list is open in it.
        if view != nil && node === root { return }
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
                liveLists[ObjectIdentifier(node)] = nil
                parent.drop(node)
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
                } else if !item.isExpanded, let child = node.children[id] {
                    liveLists[ObjectIdentifier(child)] = nil
                    node.children[id] = nil
                }
                // (A list off screen whose length changed is read again by `takeFoldChanges`, without ever
                // making the rows below it unknown, which would lose the selection's row.)
            }
        }
        node.relayout()
        recountAncestors(of: node)
        let expected = expectedID
        follow()
        noteArrivals(batch.inserts.map(\.row), in: node, except: expected)
    }

    /// Every change set, whatever list saw it: an open list whose item was closed or deleted goes, even when
    /// the list it is in is off screen (not live), so its rows never stay on screen without their item.
    func takeFoldChanges(_ changes: ChangeSet) {
        let item = changes[Item.entityIndex]
        guard !item.updated.isEmpty || !item.deleted.isEmpty else { return }
        let expanded = Item.expandedMask
        var nodes: [ObjectID: FoldNode] = [:]
        var pending = Array(root.children.values)
        while let n = pending.popLast() {
            nodes[n.itemID] = n
            pending.append(contentsOf: n.children.values)
        }
        guard !nodes.isEmpty else { return }
        var gone: [FoldNode] = []
        for id in item.deleted { if let n = nodes[id] { gone.append(n) } }
        // A list off screen (not live) does not see its own rows change: what changed its length is found
        // here and read again now (its own rows and where its open lists are; it lets go of its controller
        // when the level next settles), so counts ("12/340") and the rows below it never fall behind.
        let counted = Item.childCountMask
        var shows: PropertyMask = expanded
        if hidesDone { shows.formUnion(Item.doneMask) }
        var stale: [FoldNode] = []
        for (id, mask) in item.updated {
            if let n = nodes[id] {
                if mask.contains(expanded), reading({ try outline.isExpanded(id) }) != true {
                    gone.append(n)
                    continue
                }
                if mask.contains(counted), !n.isLive, n.isKnown || n.hasLayout { stale.append(n) }
            }
            if !mask.isDisjoint(with: shows), let parent = reading({ try outline.parentID(of: id) }) ?? nil,
                let p = parent == root.itemID ? nil : nodes[parent],
                !p.isLive, p.isKnown || p.hasLayout
            {
                stale.append(p)
            }
        }
        var reread: [FoldNode] = []
        var grown: [(node: FoldNode, from: Int)] = []
        for n in stale where n.parent != nil && !n.isLive {
            grown.append((n, n.ownCount))
            if isPaused {
                // Under another level nothing is live: read when the level is back on top and settles.
                n.setUnknown()
                recountAncestors(of: n)
            } else if reading({ try makeLive(n, recountingAbove: false) }) != nil {
                reread.append(n)
            }
        }
        recount(above: reread)
        defer {
            for (n, from) in grown where n.isLive { noteArrivals(grown: n.ownCount - from, in: n) }
            // Read again, a list off screen can say which of its arrivals are still there.
            if !grown.isEmpty { settleNewAbove() }
        }
        guard !gone.isEmpty else {
            if !reread.isEmpty { follow() }
            return
        }
        // Only the outermost go (the rest go with them): closing a chain of 50,000 open items is one drop.
        let goneIDs = Set(gone.map(ObjectIdentifier.init))
        for n in gone {
            guard let parent = n.parent, parent.children[n.itemID] === n, !goneIDs.contains(ObjectIdentifier(parent)) else { continue }
            var below = [n]
            while let b = below.popLast() {
                liveLists[ObjectIdentifier(b)] = nil
                below.append(contentsOf: b.children.values)
            }
            parent.drop(n)
            recountAncestors(of: parent)
        }
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

    /// True while a list of this level is still being read in the background (its IDs arrive on a tick).
    var isReading: Bool {
        var reading = false
        forEachLive { node in reading = reading || node.controller?.isComplete == false }
        return reading
    }

    private func forEachLive(_ body: (FoldNode) -> Void) {
        body(root)
        for node in Array(liveLists.values) where node.isLive { body(node) }
    }

    /// Makes the list that flattened row `row` is in live (with every list on the way down to it), so
    /// the row can be read; a list read again may have changed size, so the row is found again each step.
    func ensureLive(at row: Int) {
        guard row < count else { return }
        // One walk down: lists with a layout are walked through as they are; a list counted but never read
        // is read on the way (to find where its open lists are); the list the row is in is read.
        var madeLive: [FoldNode] = []
        defer { recount(above: madeLive) }
        var node = root
        var flat = row
        while true {
            if !node.isLive && !node.hasLayout {
                guard reading({ try makeLive(node, recountingAbove: false) }) != nil else { return }
                madeLive.append(node)
            }
            guard let (child, offset) = node.child(containing: flat) else { break }
            node = child
            flat = offset
        }
        if !node.isLive {
            guard reading({ try makeLive(node, recountingAbove: false) }) != nil else { return }
            madeLive.append(node)
        }
    }

    // MARK: Settling

    /// The first list whose rows are not all known, where the known rows end: a node never read, or a live
    /// one whose background read is running. Nil when every row is known.
    var firstUnknown: FoldNode? {
        var node = root
        while true {
            if node.isKnown { return nil }
            // A list scrolled past keeps its layout: the unknown part is further down.
            if !node.isLive && !node.hasLayout { return node }
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
        settlePasses += 1
        // Rows known down to the window's end.
        while root.size < window.upperBound, let node = firstUnknown, !node.isLive {
            if node.hasLayout {
                // A list retired before its background read finished: read again, it continues.
                try makeLive(node)
                if !node.isKnown && node === firstUnknown { break }
            } else {
                try makeLive(node)
            }
            changed = true
        }
        // Live exactly where a list's own rows (or its item's row) are on screen; starts are found top-down,
        // walking only into lists that have rows on screen. A list scrolled back to is read again (it may have
        // changed meanwhile), as is one counted but never read (to find where its open lists are); the lists
        // above are recounted once.
        var pending: [(node: FoldNode, start: Int)] = [(root, 0)]
        var revived: [FoldNode] = []
        // Fewer live lists than are kept off screen: none is retired, and the lists on screen need no set
        // (every key makes two passes; with no fold open the root alone is live).
        let mayRetire = liveLists.count > Self.liveOffScreen
        var keep = Set<ObjectIdentifier>()
        defer { recount(above: revived) }
        while let (node, start) = pending.popLast() {
            let local = (window.lowerBound - start)..<(window.upperBound - start)
            func onScreen() -> Bool { node === root || window.contains(start - 1) || node.hasOwnRow(in: local) }
            // (A list never read, and not counted, waits for the loop above: its rows are not known yet.)
            if !node.isLive, node.isKnown || node.hasLayout, !node.hasLayout || onScreen() {
                try makeLive(node, recountingAbove: false)
                revived.append(node)
                changed = true
            }
            if node.isLive, onScreen() {
                if mayRetire { keep.insert(ObjectIdentifier(node)) }
                node.lastOnScreen = settlePasses
            }
            for (i, e) in node.entries.prefix(node.reached).enumerated() {
                let childStart = start + e.row + 1 + node.before[i]
                if ((childStart - 1)..<(childStart + e.node.size)).overlaps(window) { pending.append((e.node, childStart)) }
            }
        }
        // The lists last on screen stay live a while (their controllers keep them current): going back to
        // them (`g` after `G`) then reads nothing, where reading the top lists again cost a key 1–1.5 ms.
        guard mayRetire else { return changed }
        let off = liveLists.filter { !keep.contains($0.key) }.values.sorted { $0.lastOnScreen > $1.lastOnScreen }
        for node in off.dropFirst(Self.liveOffScreen) { retire(node) }
        return changed
    }

    /// Lists kept live after they leave the screen, the most recently shown first.
    static let liveOffScreen = 16

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
        for n in order { own[ObjectIdentifier(n)] = try outline.count(request(for: n.itemID)) }
        // Children before parents.
        for n in order.reversed() {
            let mine = own[ObjectIdentifier(n)]!
            n.setCounted(own: mine, size: mine + n.children.values.reduce(0) { $0 + $1.size })
        }
    }
}
