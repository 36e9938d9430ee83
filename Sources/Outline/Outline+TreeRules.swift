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
            // The level as stored, with what this save changes (objects are one per row: a fetched sibling
            // shows its unsaved place).
            var siblings = try context.fetch(Outline.level(of: parent)).compactMap { $0 as? Item }.filter { $0.parent === parent && !$0.isDeleted }
            let stored = Set(siblings.map(\.objectID))
            siblings += items.filter { !stored.contains($0.objectID) }
            for item in items.sorted(by: { $0.objectID.rowID < $1.objectID.rowID }) {
                let others = siblings.filter { $0 !== item }.map(\.order)
                var key = item.order
                while others.contains(where: { $0.utf8.elementsEqual(key.utf8) }) {
                    let next = others.filter { key.utf8.lexicographicallyPrecedes($0.utf8) }.min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                    key = OrderKey.between(key, next)
                }
                if key != item.order { item.order = key }
            }
        }
    }
}
