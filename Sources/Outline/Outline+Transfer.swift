import ObjectGraph

/// Moving and copying several items at once, named by ID (a visual range, the items `y` or `m` took): each runs
/// inside `perform` like every edit by ID, on the items as stored now.
///
/// ```swift
/// try outline.perform("Move 3 items to “Work”") { try outline.move(ids, to: .last(under: work)) }
/// ```
extension Outline {
    /// `ids` without repeats and without the items inside another one's subtree (those go with it anyway), in
    /// the order given. Items no longer stored are kept, for the caller to report as missing.
    public func outermost(_ ids: [ObjectID]) throws -> [ObjectID] {
        let all = Set(ids)
        var seen: Set<ObjectID> = []
        var out: [ObjectID] = []
        for id in ids where seen.insert(id).inserted {
            guard let item = try context.existingObject(for: id) as? Item else {
                out.append(id)
                continue
            }
            // Walking up stops at the top, or at an item met twice (a cycle in a damaged store).
            var walked: Set<ObjectID> = [id]
            var above = item.parent
            var inside = false
            while let p = above, walked.insert(p.objectID).inserted {
                if all.contains(p.objectID) {
                    inside = true
                    break
                }
                above = p.parent
            }
            if !inside { out.append(id) }
        }
        return out
    }

    /// Moves the items `ids` (with their sub-items) to `placement`, next to each other in the order given; only
    /// the outermost move (see `outermost`). Items no longer stored are left out and listed in the result.
    /// Refuses (`OutlineError.moveIntoItself`) a destination that is one of the items or inside one, as
    /// stored now: the caller's unit of work then changes nothing.
    @discardableResult
    public func move(_ ids: [ObjectID], to placement: ItemPlacement) throws -> TransferResult {
        assert(context.store.isInTransaction, "an edit by ID runs inside Outline.perform")
        var result = TransferResult()
        var items: [Item] = []
        for id in try outermost(ids) {
            if let item = try context.existingObject(for: id) as? Item { items.append(item) } else { result.missing.append(id) }
        }
        guard !items.isEmpty else { return result }
        let moving = Set(items.map(\.objectID))
        let (parent, keys) = try destination(placement, count: items.count, leaving: moving)
        // Every item above the destination, itself included: none of them may be one that moves.
        var above: Set<ObjectID> = []
        var p: Item? = parent
        while let x = p, above.insert(x.objectID).inserted { p = x.parent }
        for item in items {
            if item.isRoot { throw OutlineError.cannotMoveRoot }
            if above.contains(item.objectID) { throw OutlineError.moveIntoItself(item.title) }
        }
        for (item, key) in zip(items, keys) {
            if item.parent !== parent { item.setObject(parent, for: "parent") }
            item.order = key
        }
        result.sources = items.map(\.objectID)
        result.items = result.sources
        return result
    }

    /// Copies the items `ids` with everything below them (titles, notes, done marks, order) to `placement`,
    /// next to each other in the order given; only the outermost are copied (see `outermost`). Each subtree
    /// is read whole before anything is written, so copying an item into its own subtree copies it as it was.
    /// The copies are written as rows, as an import is. Items no longer stored are left out and listed.
    @discardableResult
    public func copy(_ ids: [ObjectID], to placement: ItemPlacement) throws -> TransferResult {
        assert(context.store.isInTransaction, "an edit by ID runs inside Outline.perform")
        var result = TransferResult()
        var nodes: [OutlineNode] = []
        for id in try outermost(ids) {
            guard let item = try context.existingObject(for: id) as? Item else {
                result.missing.append(id)
                continue
            }
            if item.isRoot { throw OutlineError.noParent }
            let below = try self.nodes(under: item)
            let node = OutlineNode(item.title, note: item.note, isDone: item.isDone, extras: item.extras, children: below)
            result.subItems += node.count - 1
            result.sources.append(id)
            nodes.append(node)
        }
        guard !nodes.isEmpty else { return result }
        let (parent, keys) = try destination(placement, count: nodes.count, leaving: [])
        result.items = try add(nodes, under: parent, keys: keys)
        return result
    }

    /// The parent that `placement` names and `count` keys in order for the place it names there. Items in
    /// `leaving` are about to leave their places, so they are no one's neighbours.
    private func destination(_ placement: ItemPlacement, count: Int, leaving: Set<ObjectID>) throws -> (Item, [String]) {
        func staying(_ item: Item?, _ step: (Item) throws -> Item?) throws -> Item? {
            var x = item
            while let i = x, leaving.contains(i.objectID) { x = try step(i) }
            return x
        }
        let parent: Item
        var previous: Item?
        var next: Item?
        switch placement {
        case .last(let id):
            parent = try resolve(id)
            return (parent, OrderKey.keys(after: try lastKey(in: parent), count: count))
        case .after(let id):
            let anchor = try resolve(id)
            guard let p = anchor.parent else { throw OutlineError.noParent }
            parent = p
            previous = try staying(anchor) { try sibling(before: $0) }
            next = try staying(try sibling(after: anchor)) { try sibling(after: $0) }
        case .before(let id):
            let anchor = try resolve(id)
            guard let p = anchor.parent else { throw OutlineError.noParent }
            parent = p
            next = try staying(anchor) { try sibling(after: $0) }
            previous = try staying(try sibling(before: anchor)) { try sibling(before: $0) }
        }
        // One key between the two unties them when two processes gave them the same key.
        let first = try key(between: previous, and: next)
        return (parent, [first] + OrderKey.keys(between: first, and: next?.order, count: count - 1))
    }
}
