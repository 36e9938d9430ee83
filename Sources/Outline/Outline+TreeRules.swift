import ObjectGraph

extension Outline {
    /// The outline's rules for every save of its context (``Context/willSave``), for what edits through
    /// ``Outline`` cannot guard: an undo or redo restores places and keys as they were, and others may have
    /// moved things meanwhile (another process, another machine). A save that would put an item inside
    /// itself is refused; an undo or redo that puts an item at a key a sibling has now gives it a free key
    /// just after (the sibling came meanwhile; neither is lost, two siblings never share a key).
    static func keepTree(_ objects: [ManagedObject], replaying: Bool) throws {
        var errors: [ValidationError] = []
        var placed: [Item] = []
        for case let item as Item in objects {
            let keys = item.isInserted ? [] : item.changedKeys
            if item.isInserted || keys.contains("parent") || keys.contains("order") { placed.append(item) }
            guard keys.contains("parent") else { continue }
            // Bounded: a store damaged into a cycle elsewhere must not hang the save.
            var at = item.parent
            var steps = 0
            while let a = at, a !== item, steps < 1_000_000 {
                at = a.parent
                steps += 1
            }
            if at != nil {
                errors.append(
                    ValidationError(
                        object: item.objectID, entity: Item.entityName, property: "parent", rule: .refused("it would go inside itself"),
                        value: .string(item.title)))
            }
        }
        if !errors.isEmpty { throw ValidationFailure(errors: errors) }
        guard replaying, let context = placed.first?.context else { return }
        var byParent: [ObjectID: [Item]] = [:]
        for item in placed where !item.isRoot {
            if let p = item.parent { byParent[p.objectID, default: []].append(item) }
        }
        for (parentID, items) in byParent.sorted(by: { $0.key.rowID < $1.key.rowID }) {
            guard let parent = try context.existingObject(for: parentID) as? Item else { continue }
            if items.count > Self.keysAskedOneByOne {
                try giveFreeKeys(items, in: parent, context)
                continue
            }
            for item in items.sorted(by: { $0.objectID.rowID < $1.objectID.rowID }) {
                // Asked of the (parent, order) index, with what this save changes (a fetch includes it; objects
                // are one per row, so a fetched sibling shows its unsaved place): never the whole level, which
                // made an object of each of a million siblings for the undo of one delete.
                var key = item.order
                while try sibling(of: item, in: parent, context, where: .compare("order", .equal, .string(key))) != nil {
                    let next = try sibling(of: item, in: parent, context, where: .compare("order", .greater, .string(key)))
                    key = OrderKey.between(key, next?.order)
                }
                if key != item.order { item.order = key }
            }
        }
    }

    /// Up to this many items put back under one parent have their keys asked of the index one by one; more
    /// (the undo of a delete of many siblings) are checked against the level's keys read once, as values.
    static let keysAskedOneByOne = 64

    /// `items`, all under `parent`, each given a free key just after its own when a sibling has it: the
    /// level's keys read once as values (no object made), as this save leaves them (the objects held here
    /// say where they are now), kept as a count of each key and a sorted list.
    private static func giveFreeKeys(_ items: [Item], in parent: Item, _ context: Context) throws {
        var keyOf: [ObjectID: String] = [:]
        for (id, values) in try context.fetchValues(Outline.level(of: parent.objectID), keys: ["order"]) {
            if let held = context.registeredObject(for: id) as? Item {
                if held.isDeleted || held.parent !== parent { continue }
                keyOf[id] = held.order
            } else if case .string(let k) = values[0] {
                keyOf[id] = k
            } else {
                keyOf[id] = ""
            }
        }
        for item in items { keyOf[item.objectID] = item.order }
        var uses: [String: Int] = [:]
        for k in keyOf.values { uses[k, default: 0] += 1 }
        var sorted = uses.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        /// The first key in `sorted` after `key`.
        func after(_ key: String) -> Int {
            var lo = 0, hi = sorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if key.utf8.lexicographicallyPrecedes(sorted[mid].utf8) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        for item in items.sorted(by: { $0.objectID.rowID < $1.objectID.rowID }) {
            let own = item.order
            var key = own
            // Another sibling has `key`: its uses, less this item's own.
            while uses[key, default: 0] - (key == own ? 1 : 0) > 0 {
                let k = after(key)
                key = OrderKey.between(key, k < sorted.count ? sorted[k] : nil)
            }
            guard key != own else { continue }
            uses[own]! -= 1
            uses[key, default: 0] += 1
            sorted.insert(key, at: after(key))
            item.order = key
        }
    }

    /// The first sibling of `item` under `parent` (in order) whose order key matches `condition`, as this save
    /// leaves it: deleted or moved-away siblings are passed over.
    private static func sibling(of item: Item, in parent: Item, _ context: Context, where condition: ObjectPredicate) throws -> Item? {
        var request = FetchRequest(Item.entityName, where: Property("parent") == parent.objectID && condition, sortedBy: [SortKey("order")])
        // A few more than one: a sibling this save deletes or moves away may still be stored here.
        request.limit = 8
        while true {
            let found = try context.fetch(request).compactMap { $0 as? Item }
            if let hit = found.first(where: { $0 !== item && $0.parent === parent && !$0.isDeleted }) { return hit }
            if found.count < request.limit! { return nil }
            request.limit! *= 8
        }
    }
}
