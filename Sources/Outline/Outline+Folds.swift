import ObjectGraph

extension Outline {
    /// The open items among `parent`'s sub-items, in no order, read through the index of open items only:
    /// what it costs is how many are open, not how long the level is.
    /// `excludingDone` leaves out done ones (a level hiding done items shows no rows for them).
    public func expandedChildren(of parent: ObjectID, excludingDone: Bool = false) throws -> [ObjectID] {
        var predicate = Property("expanded") == true && Property("parent") == parent
        if excludingDone { predicate = predicate && Property("done") == false }
        let request = FetchRequest(Item.entityName, where: predicate)
        return try context.fetch(request).objectIDs
    }

    /// True when the item `id` is folded open; false when it is closed or gone.
    public func isExpanded(_ id: ObjectID) throws -> Bool {
        guard let item = try context.existingObject(for: id) as? Item, !item.isInaccessible else { return false }
        return item.isExpanded
    }

    /// Folds the items `ids` open or closed, in one write transaction of its own; items gone meanwhile are
    /// skipped. No undo step is made (`expanded` is view state). Returns how many changed.
    ///
    /// ```swift
    /// try outline.setExpanded([groceries.objectID], true)
    /// ```
    @discardableResult
    public func setExpanded(_ ids: [ObjectID], _ expanded: Bool) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try perform {
            var changed = 0
            for id in ids {
                guard let item = try context.existingObject(for: id) as? Item, item.isExpanded != expanded else { continue }
                item.isExpanded = expanded
                changed += 1
            }
            return changed
        }
    }

    /// The outline's "hide done items" setting as stored (nil when never set).
    public func hidesDone() throws -> Bool? {
        try root().hidesDone
    }

    /// Stores the "hide done items" setting, in a write transaction of its own (no undo step: view state).
    public func setHidesDone(_ hides: Bool) throws {
        try perform { try root().hidesDone = hides }
    }

    /// How many done items are among the sub-items of each of `parents` (those a level hiding them leaves out).
    public func doneCount(under parents: [ObjectID]) throws -> Int {
        var total = 0
        for start in stride(from: 0, to: parents.count, by: 500) {
            let chunk = parents[start..<min(parents.count, start + 500)].map(\.rowID)
            total += try context.count(FetchRequest(Item.entityName, where: Property("parent").oneOf(chunk) && Property("done") == true))
        }
        return total
    }

    /// Every item below `parent` (at any depth) that has sub-items: what "open everything" opens. Read level
    /// by level (one query per depth and per few hundred parents), so a deep outline costs no recursion.
    public func itemsWithChildren(below parent: ObjectID) throws -> [ObjectID] {
        try walkDown(from: parent, where: Property("childCount") > Int64(0))
    }

    /// Every open item below `parent`, at any depth: what "close everything" closes. Open items under
    /// closed ones are included (they would reopen with their parent otherwise). Read from the index of
    /// open items, each then followed up to see whether it is below `parent`: it costs what is open.
    public func expandedItems(below parent: ObjectID) throws -> [ObjectID] {
        let open = try context.fetch(FetchRequest(Item.entityName, where: Property("expanded") == true)).objectIDs
        var below: [ObjectID: Bool] = [parent: true]
        func isBelow(_ id: ObjectID) throws -> Bool {
            var chain: [ObjectID] = []
            var current: ObjectID? = try parentID(of: id)
            var answer = false
            while let c = current {
                if let known = below[c] {
                    answer = known
                    break
                }
                // A damaged store may hold a cycle: a chain longer than the outline is not below.
                if chain.count > 1_000_000 { break }
                chain.append(c)
                current = try parentID(of: c)
            }
            for c in chain { below[c] = answer }
            return answer
        }
        var found: [ObjectID] = []
        for id in open where id != parent {
            if try isBelow(id) { found.append(id) }
        }
        return found
    }

    /// The items below `parent` matching `predicate`, following only such items down (a leaf has no
    /// sub-items to follow), breadth first.
    private func walkDown(from parent: ObjectID, where predicate: ObjectPredicate) throws -> [ObjectID] {
        var found: [ObjectID] = []
        var frontier = [parent]
        var seen = Set<ObjectID>([parent])
        while !frontier.isEmpty {
            var next: [ObjectID] = []
            // A few hundred at a time keeps each statement's parameter list small.
            for start in stride(from: 0, to: frontier.count, by: 500) {
                let chunk = frontier[start..<min(frontier.count, start + 500)].map(\.rowID)
                let request = FetchRequest(Item.entityName, where: Property("parent").oneOf(chunk) && predicate)
                // A damaged store may hold a cycle: each item is followed once.
                for id in try context.fetch(request).objectIDs where seen.insert(id).inserted { next.append(id) }
            }
            found += next
            frontier = next
        }
        return found
    }
}
