import ObjectGraph

extension Outline {
    /// The sub-items of `parent`, with their whole subtrees, as plain nodes (for export).
    public func nodes(under parent: Item, progress: ((Int) -> Void)? = nil) throws -> [OutlineNode] {
        // Stored values are read without objects; unsaved changes only live in objects.
        if context.hasChanges { return try nodesOfObjects(under: parent, progress: progress) }
        return try nodesOfRows(under: parent, progress: progress)
    }

    /// Reads the subtree as values (see `levels(under:)`), then nests the levels from the deepest up.
    private func nodesOfRows(under parent: Item, progress: ((Int) -> Void)?) throws -> [OutlineNode] {
        let read = try self.levels(under: parent, progress: progress)
        // Only the subtree's items, through the parent index: a copy of three items in a big outline reads
        // three rows' extras, not every row's.
        let extras = try storedExtras(under: read.lazy.joined().map(\.parent))
        var levels = read.map { level in
            level.map { row in
                (id: row.id.rowID, parent: row.parent, node: OutlineNode(row.title, note: row.note, isDone: row.isDone, extras: extras[row.id.rowID]))
            }
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
                let node = OutlineNode(item.title, note: item.note, isDone: item.isDone, extras: item.extras)
                done += 1
                if done % 4096 == 0 { progress?(done) }
                let below = try children(of: item)
                if below.isEmpty {
                    stack[f].node.children.append(node)
                } else {
                    stack.append(Frame(node: node, pending: below))
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
        try add(nodes, under: parent, keys: OrderKey.keys(after: try lastKeyInStore(parent), count: nodes.count), progress: progress)
    }

    /// `add(_:under:)` with the top-level items' keys given (one per node, increasing): a copy placed between
    /// two siblings.
    func add(_ nodes: [OutlineNode], under parent: Item, keys topKeys: [String], progress: ((Int) -> Void)? = nil) throws -> [ObjectID] {
        precondition(topKeys.count == nodes.count, "one key per top-level node")
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
        // Every imported item was made now.
        var template = entity.defaults
        let now = Value.date(Item.timestamp())
        template[Item.Slot.created] = now
        template[Item.Slot.modified] = now
        let parentSlot = entity.slot("parent")!
        var tags = TagLinker(context)
        // Sub-levels are new, so any increasing keys do: they share prefixes of one run, made once, instead
        // of making (and storing) keys level by level. Only the top level follows what `parent` holds.
        let subKeys = OrderKey.keys(after: nil, count: longest)
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
                row[Item.Slot.done] = .bool(level[k].isDone)
                if let extras = level[k].extras {
                    for (slot, value) in zip(Item.Slot.extras, extras.values) where value != nil { row[slot] = .string(value!) }
                    if let day = Item.agendaDay(scheduled: extras.scheduled, deadline: extras.deadline) { row[Item.Slot.agendaDay] = .string(day) }
                }
                row[Item.Slot.order] = .string(keys[k])
                row[parentSlot] = .integer(owner)
                if !level[k].tags.isEmpty { row[Item.Slot.tagList] = try tags.link(id.rowID, to: level[k].tags) }
                rows.append(row)
                if next == 1 { top.append(id) }
                if !level[k].children.isEmpty { work.append((level[k].children, id.rowID)) }
                if rows.count % 4096 == 0 { progress?(rows.count) }
            }
        }
        context.insertRows(entity, ids: ids, values: rows)
        try tags.flush()
        progress?(rows.count)
        return top
    }

    func lastKeyInStore(_ parent: Item) throws -> String? {
        if parent.isInserted { return nil }
        var r = FetchRequest(Item.entityName, where: Property("parent") == parent, sortedBy: [SortKey("order", ascending: false)])
        r.limit = 1
        return (try context.fetch(r).first as? Item)?.order
    }
}
