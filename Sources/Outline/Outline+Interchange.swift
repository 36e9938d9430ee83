import ObjectGraph

extension Outline {
    /// The sub-items of `parent`, with their whole subtrees, as plain nodes (for export).
    public func nodes(under parent: Item, progress: ((Int) -> Void)? = nil) throws -> [OutlineNode] {
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
        let total = nodes.reduce(0) { $0 + $1.count }
        let ids = try context.reserveObjectIDs(entity, count: total)
        var rows: [[Value]] = []
        rows.reserveCapacity(total)
        var top: [ObjectID] = []
        let template = entity.defaults
        let parentSlot = entity.slot("parent")!
        var work: [([OutlineNode], Int64)] = [(nodes, parent.objectID.rowID)]
        let firstKey = try lastKeyInStore(parent)
        while let (level, owner) = work.popLast() {
            let keys = OrderKey.keys(after: owner == parent.objectID.rowID ? firstKey : nil, count: level.count)
            for (node, key) in zip(level, keys) {
                let id = ids[rows.count]
                var row = template
                row[Item.Slot.title] = .string(node.title)
                if let note = node.note { row[Item.Slot.note] = .string(note) }
                row[Item.Slot.done] = .bool(node.done)
                row[Item.Slot.order] = .string(key)
                row[Item.Slot.childCount] = .integer(Int64(node.children.count))
                row[parentSlot] = .integer(owner)
                rows.append(row)
                if owner == parent.objectID.rowID { top.append(id) }
                if !node.children.isEmpty { work.append((node.children, id.rowID)) }
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
