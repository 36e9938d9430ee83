import ObjectGraph

extension Outline {
    /// The items below `parent` in outline order (each item right before its sub-items), down to `depth`
    /// levels, read as stored values: for listing a whole tree without an object or a query per item.
    ///
    /// ```swift
    /// for row in try outline.subtree(under: root, depth: 2) { print(String(repeating: "  ", count: row.depth) + row.title) }
    /// ```
    public func subtree(under parent: Item, depth: Int = .max) throws -> [SubtreeRow] {
        let levels = try self.levels(under: parent, depth: depth)
        // Each level is grouped by parent (read in the order of the level above): where each parent's run starts.
        var runs: [[Int64: Range<Int>]] = []
        for level in levels {
            var run: [Int64: Range<Int>] = [:]
            var k = 0
            while k < level.count {
                var end = k + 1
                while end < level.count && level[end].parent == level[k].parent { end += 1 }
                run[level[k].parent] = k..<end
                k = end
            }
            runs.append(run)
        }
        var out: [SubtreeRow] = []
        out.reserveCapacity(levels.reduce(0) { $0 + $1.count })
        // Depth-first with an explicit stack of pending ranges: depth costs memory, not the thread's stack.
        var stack: [(depth: Int, rows: Range<Int>)] = levels.isEmpty ? [] : [(0, levels[0].indices)]
        while let top = stack.popLast() {
            guard let k = top.rows.first else { continue }
            let row = levels[top.depth][k]
            out.append(row)
            stack.append((top.depth, top.rows.dropFirst()))
            if top.depth + 1 < runs.count, let below = runs[top.depth + 1][row.id.rowID] { stack.append((top.depth + 1, below)) }
        }
        return out
    }

    /// The items `ids` still stored, each followed by everything below it in outline order, as stored values
    /// (depth 0 for the items themselves): the text a copy puts on the clipboard.
    public func rowsWithSubtrees(of ids: [ObjectID]) throws -> [SubtreeRow] {
        var out: [SubtreeRow] = []
        for id in ids {
            guard let item = try context.existingObject(for: id) as? Item else { continue }
            out.append(
                SubtreeRow(
                    id: id, parent: item.parent?.objectID.rowID ?? 0, depth: 0, title: item.title, note: item.note,
                    isDone: item.isDone, childCount: item.childCount))
            for row in try subtree(under: item) {
                out.append(
                    SubtreeRow(
                        id: row.id, parent: row.parent, depth: row.depth + 1, title: row.title, note: row.note,
                        isDone: row.isDone, childCount: row.childCount))
            }
        }
        return out
    }

    /// How many items are below the items `ids` together, at every depth (see `descendantCount(of:)`); an
    /// item no longer stored counts nothing.
    public func countBelow(_ ids: [ObjectID]) throws -> Int {
        var total = 0
        for id in ids {
            if let item = try context.existingObject(for: id) as? Item { total += try descendantCount(of: item) }
        }
        return total
    }

    /// The subtree below `parent` level by level, as saved: `levels[d]` holds the items at depth d, grouped
    /// by parent in the order of the level above, each group in sibling order. Each level is a few queries
    /// on the (parent, order) index (parents in `IN` lists); every item is asked for its sub-items, so a
    /// stored count never decides what is read, and the item it starts from is not read again (were it in a
    /// cycle of a damaged store).
    func levels(under parent: Item, depth limit: Int = .max, progress: ((Int) -> Void)? = nil) throws -> [[SubtreeRow]] {
        if parent.isRoot && limit == .max { return try levelsOfEverything(under: parent, progress: progress) }
        let keys = ["parent", "title", "note", "done", "childCount"]
        var levels: [[SubtreeRow]] = []
        var parents = [parent.objectID.rowID]
        var done = 0
        while !parents.isEmpty && levels.count < limit {
            var level: [SubtreeRow] = []
            var next: [Int64] = []
            var start = 0
            while start < parents.count {
                // Well under SQLite's 32,766 parameters per statement.
                let chunk = Array(parents[start..<min(parents.count, start + 8192)])
                start += chunk.count
                let request = FetchRequest(
                    Item.entityName, where: Property("parent").oneOf(chunk), sortedBy: [SortKey("parent"), SortKey("order")])
                for (id, v) in try context.fetchValues(request, keys: keys) {
                    // The only item a walk down can meet again is where it started (one parent each).
                    guard case .integer(let owner) = v[0], id != parent.objectID else { continue }
                    let title: String = if case .string(let t) = v[1] { t } else { "" }
                    let note: String? = if case .string(let n) = v[2] { n } else { nil }
                    let isDone = if case .bool(let b) = v[3] { b } else { false }
                    let stored: Int = if case .integer(let c) = v[4] { Int(c) } else { 0 }
                    level.append(SubtreeRow(id: id, parent: owner, depth: levels.count, title: title, note: note, isDone: isDone, childCount: stored))
                    next.append(id.rowID)
                    done += 1
                    if done % 4096 == 0 { progress?(done) }
                }
            }
            // The level above learns its real counts from this one.
            if let above = levels.indices.last {
                var count: [Int64: Int] = [:]
                for row in level { count[row.parent, default: 0] += 1 }
                for k in levels[above].indices { levels[above][k].childCount = count[levels[above][k].id.rowID] ?? 0 }
            }
            levels.append(level)
            parents = next
        }
        progress?(done)
        return levels.filter { !$0.isEmpty }
    }

    /// `levels(under:)` for the whole outline: every item read in one pass in (parent, order) order, a walk
    /// of the index rather than a seek per item, then laid out level by level from the top in memory.
    /// Items that cannot be reached from the top (a damaged store) are read and left out, as the
    /// level-by-level reading leaves them.
    private func levelsOfEverything(under root: Item, progress: ((Int) -> Void)?) throws -> [[SubtreeRow]] {
        let all = try context.fetchValues(
            FetchRequest(Item.entityName, sortedBy: [SortKey("parent"), SortKey("order")]), keys: ["parent", "title", "note", "done"])
        // Each parent's run of children in the sorted rows.
        var runs: [Int64: Range<Int>] = [:]
        var k = 0
        while k < all.count {
            guard case .integer(let owner) = all[k].values[0] else {
                k += 1
                continue
            }
            var end = k + 1
            while end < all.count, all[end].values[0] == .integer(owner) { end += 1 }
            runs[owner] = k..<end
            k = end
        }
        var levels: [[SubtreeRow]] = []
        var parents = [root.objectID.rowID]
        var done = 0
        while !parents.isEmpty {
            var level: [SubtreeRow] = []
            var next: [Int64] = []
            for owner in parents {
                guard let run = runs[owner] else { continue }
                // Every item has one parent, so the only item a walk down can meet again is where it
                // started (when that item is in a cycle of a damaged store).
                for i in run where all[i].id != root.objectID {
                    let (id, v) = all[i]
                    let title: String = if case .string(let t) = v[1] { t } else { "" }
                    let note: String? = if case .string(let n) = v[2] { n } else { nil }
                    let isDone = if case .bool(let b) = v[3] { b } else { false }
                    let count = runs[id.rowID]?.count ?? 0
                    level.append(SubtreeRow(id: id, parent: owner, depth: levels.count, title: title, note: note, isDone: isDone, childCount: count))
                    next.append(id.rowID)
                    done += 1
                    if done % 4096 == 0 { progress?(done) }
                }
            }
            if !level.isEmpty { levels.append(level) }
            parents = next
        }
        progress?(done)
        return levels
    }
}
