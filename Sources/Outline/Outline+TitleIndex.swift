import ObjectGraph

extension Outline {
    /// Every item reachable from the top, with its title and parent, read in one pass as values (see
    /// `TitleIndex`). Items a damaged store leaves unreachable are left out, as everywhere else.
    public func titleIndex() throws -> TitleIndex {
        let root = try self.root()
        let all = try context.fetchValues(FetchRequest(Item.entityName, sortedBy: [SortKey("parent"), SortKey("order")]), keys: ["parent", "title"])
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
        var ids: [ObjectID] = [root.objectID]
        var titles: [String] = [root.title]
        var parents: [Int32] = [-1]
        ids.reserveCapacity(all.count)
        titles.reserveCapacity(all.count)
        parents.reserveCapacity(all.count)
        // Depth first with an explicit stack of pending runs: (the parent's position, rows left).
        var stack: [(parent: Int32, rows: Range<Int>)] = []
        if let top = runs[root.objectID.rowID] { stack.append((0, top)) }
        while let frame = stack.popLast() {
            guard let i = frame.rows.first else { continue }
            stack.append((frame.parent, frame.rows.dropFirst()))
            let (id, values) = all[i]
            // One parent each: the only item a walk down can meet again is the top (a damaged store).
            guard id != root.objectID else { continue }
            let position = Int32(ids.count)
            ids.append(id)
            let title: String = if case .string(let t) = values[1] { t } else { "" }
            titles.append(title)
            parents.append(frame.parent)
            if let below = runs[id.rowID] { stack.append((position, below)) }
        }
        return TitleIndex(ids: ids, titles: titles, parents: parents)
    }
}
