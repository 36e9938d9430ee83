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

    /// Adds `nodes` (with their subtrees) at the end of `parent`'s sub-items. Nothing is saved: the caller
    /// saves once, so an import is one transaction.
    @discardableResult
    public func add(_ nodes: [OutlineNode], under parent: Item, progress: ((Int) -> Void)? = nil) throws -> [Item] {
        var added = 0
        var top: [Item] = []
        var work: [([OutlineNode], Item)] = [(nodes, parent)]
        var lastKey: [ObjectID: String?] = [:]
        while let (level, owner) = work.popLast() {
            let after: String? = try lastKey[owner.objectID] ?? lastKeyInStore(owner)
            let keys = OrderKey.keys(after: after, count: level.count)
            lastKey[owner.objectID] = keys.last
            for (node, key) in zip(level, keys) {
                let item = try context.insert(Item.self, entity: "Item")
                item.title = node.title
                if let note = node.note { item.note = note }
                if node.done { item.isDone = true }
                item.order = key
                item.setObject(owner, for: "parent")
                if owner === parent { top.append(item) }
                if !node.children.isEmpty { work.append((node.children, item)) }
                added += 1
                if added % 4096 == 0 { progress?(added) }
            }
            owner.childCount += level.count
        }
        progress?(added)
        return top
    }

    private func lastKeyInStore(_ parent: Item) throws -> String? {
        if parent.isInserted { return nil }
        var r = FetchRequest("Item", where: Key("parent") == parent, sortedBy: [SortKey("order", ascending: false)])
        r.limit = 1
        return (try context.fetch(r).first as? Item)?.order
    }
}
