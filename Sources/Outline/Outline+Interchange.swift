import ObjectGraph

extension Outline {
    /// The sub-items of `parent`, with their whole subtrees, as plain nodes (for export).
    public func nodes(under parent: Item, progress: ((Int) -> Void)? = nil) throws -> [OutlineNode] {
        // Stored values are read without objects; unsaved changes only live in objects.
        if context.hasChanges { return try nodesOfObjects(under: parent, progress: progress) }
        return try nodesOfRows(under: parent, progress: progress)
    }

    /// Reads the subtree level by level, each level in a few queries on the (parent, order) index (the
    /// parents of one query in one `IN` list), as values instead of objects; then nests the levels from the
    /// deepest up.
    private func nodesOfRows(under parent: Item, progress: ((Int) -> Void)?) throws -> [OutlineNode] {
        struct Row {
            var id: Int64
            var parent: Int64
            var node: OutlineNode
        }
        let keys = ["parent", "title", "note", "done", "childCount"]
        var levels: [[Row]] = []
        var parents = [parent.objectID.rowID]
        var done = 0
        while !parents.isEmpty {
            var level: [Row] = []
            var next: [Int64] = []
            var start = 0
            while start < parents.count {
                // Well under SQLite's 32,766 parameters per statement.
                let chunk = Array(parents[start..<min(parents.count, start + 8192)])
                start += chunk.count
                let request = FetchRequest(
                    "Item", where: Key("parent").oneOf(chunk), sortedBy: [SortKey("parent"), SortKey("order")])
                for (id, v) in try context.fetchValues(request, keys: keys) {
                    guard case .integer(let owner) = v[0] else { continue }
                    let title: String = if case .string(let t) = v[1] { t } else { "" }
                    let note: String? = if case .string(let n) = v[2] { n } else { nil }
                    let isDone = if case .bool(let b) = v[3] { b } else { false }
                    level.append(Row(id: id.rowID, parent: owner, node: OutlineNode(title, note: note, done: isDone)))
                    if case .integer(let c) = v[4], c > 0 { next.append(id.rowID) }
                    done += 1
                    if done % 4096 == 0 { progress?(done) }
                }
            }
            levels.append(level)
            parents = next
        }
        // Deepest level first: each node joins its parent, in the order read (the parent's order).
        for depth in stride(from: levels.count - 1, to: 0, by: -1) {
            var position: [Int64: Int] = [:]
            position.reserveCapacity(levels[depth - 1].count)
            for (k, row) in levels[depth - 1].enumerated() { position[row.id] = k }
            // Taken out of the array first, so appending to the level above does not copy it.
            let rows = levels[depth]
            levels[depth] = []
            for row in rows {
                if let k = position[row.parent] { levels[depth - 1][k].node.children.append(row.node) }
            }
        }
        progress?(done)
        return levels.first?.map(\.node) ?? []
    }

    /// The same, through objects: includes this context's unsaved changes.
    private func nodesOfObjects(under parent: Item, progress: ((Int) -> Void)?) throws -> [OutlineNode] {
        // Depth-first with an explicit stack: a frame is an item whose children are being collected.
        struct Frame {
            var node: OutlineNode
            var pending: [Item]
            var next = 0
        }
        var stack = [Frame(node: OutlineNode(""), pending: try children(of: parent))]
        var done = 0
        while true {
            let f = stack.count - 1
            if stack[f].next < stack[f].pending.count {
                let item = stack[f].pending[stack[f].next]
                stack[f].next += 1
                let node = OutlineNode(item.title, note: item.note, done: item.isDone)
                done += 1
                if done % 4096 == 0 { progress?(done) }
                // The stored count spares a query for every leaf.
                if item.childCount > 0 {
                    stack.append(Frame(node: node, pending: try children(of: item)))
                } else {
                    stack[f].node.children.append(node)
                }
            } else {
                let finished = stack.removeLast()
                if stack.isEmpty {
                    progress?(done)
                    return finished.node.children
                }
                stack[stack.count - 1].node.children.append(finished.node)
            }
        }
    }

    /// Adds `nodes` (with their subtrees) at the end of `parent`'s sub-items, as rows written at the next
    /// save (no objects are made: an import of 100,000 items costs little more than SQLite writing them).
    /// Returns the IDs of the top-level items added. The caller saves once, so an import is one transaction.
    @discardableResult
    public func add(_ nodes: [OutlineNode], under parent: Item, progress: ((Int) -> Void)? = nil) throws -> [ObjectID] {
        let entity = Item.Slot.entity
        // One pass for the number of rows and the longest sub-level, reading children in place.
        var total = nodes.count
        var longest = 0
        var pending = [nodes]
        while let level = pending.popLast() {
            for k in level.indices where !level[k].children.isEmpty {
                total += level[k].children.count
                longest = max(longest, level[k].children.count)
                pending.append(level[k].children)
            }
        }
        let ids = try context.reserveObjectIDs(entity, count: total)
        var rows: [[Value]] = []
        rows.reserveCapacity(total)
        var top: [ObjectID] = []
        let template = entity.defaults
        let parentSlot = entity.slot("parent")!
        // Sub-levels are new, so any increasing keys do: they share prefixes of one run, made once, instead
        // of making (and storing) keys level by level. Only the top level follows what `parent` holds.
        let subKeys = OrderKey.keys(after: nil, count: longest)
        let topKeys = OrderKey.keys(after: try lastKeyInStore(parent), count: nodes.count)
        // Breadth-first: parents get their IDs in the order their levels are written, so rows arrive in
        // (parent, order) order and SQLite appends to the table and to its (parent, order) index alike.
        var work: [([OutlineNode], Int64)] = [(nodes, parent.objectID.rowID)]
        var next = 0
        while next < work.count {
            let (level, owner) = work[next]
            let keys = next == 0 ? topKeys : subKeys
            next += 1
            for k in level.indices {
                let id = ids[rows.count]
                var row = template
                row[Item.Slot.title] = .string(level[k].title)
                if let note = level[k].note { row[Item.Slot.note] = .string(note) }
                row[Item.Slot.done] = .bool(level[k].done)
                row[Item.Slot.order] = .string(keys[k])
                row[Item.Slot.childCount] = .integer(Int64(level[k].children.count))
                row[parentSlot] = .integer(owner)
                rows.append(row)
                if next == 1 { top.append(id) }
                if !level[k].children.isEmpty { work.append((level[k].children, id.rowID)) }
                if rows.count % 4096 == 0 { progress?(rows.count) }
            }
        }
        parent.childCount += nodes.count
        context.insertRows(entity, ids: ids, values: rows)
        progress?(rows.count)
        return top
    }

    private func lastKeyInStore(_ parent: Item) throws -> String? {
        if parent.isInserted { return nil }
        var r = FetchRequest("Item", where: Key("parent") == parent, sortedBy: [SortKey("order", ascending: false)])
        r.limit = 1
        return (try context.fetch(r).first as? Item)?.order
    }
}
