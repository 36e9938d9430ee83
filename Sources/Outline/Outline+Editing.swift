import ObjectGraph

/// The outliner's edits with items named by ID, as a screen holding `ItemRow` values names them.
///
/// Each one runs inside `perform` (one write transaction, one named undo step): it resolves its items there,
/// after the commits made elsewhere have arrived, so it acts on the items as stored now, never on a row the
/// screen drew before a change. An item no longer stored is an `ItemGone` error and the unit of work changes
/// nothing.
///
/// ```swift
/// try outline.perform("Mark done “Milk”") { try outline.setDone(milk, to: true) }
/// ```
extension Outline {
    /// The item `id` as stored now, or `ItemGone`.
    func existing(_ id: ObjectID) throws -> Item {
        guard let item = try context.existingObject(for: id) as? Item else { throw ItemGone(id: id) }
        return item
    }

    /// `existing` for an edit: outside a transaction what it read could change before its save.
    func resolve(_ id: ObjectID) throws -> Item {
        assert(context.store.isInTransaction, "an edit by ID runs inside Outline.perform")
        return try existing(id)
    }

    // MARK: - Adding

    /// Adds an item at the end of the sub-items of `parent`; returns its ID.
    @discardableResult
    public func append(_ title: String, to parent: ObjectID) throws -> ObjectID {
        try append(title, to: try resolve(parent)).objectID
    }

    /// Adds items at the end of the sub-items of `parent`, in order; returns their IDs. Many at once inside
    /// ``perform(_:_:)`` (``rowsAtOnce`` or more, under an item that is stored) are written as rows, with no
    /// objects, like an import: they are in the unit's undo step and change set as objects would be, and
    /// fetches in the same unit of work see them.
    @discardableResult
    public func append(titles: [String], to parent: ObjectID) throws -> [ObjectID] {
        let item = try resolve(parent)
        // Rows added by another call and not written yet (an import under an item made in this unit) would be
        // written with these: objects then.
        guard titles.count >= Outline.rowsAtOnce, context.store.isInTransaction, !item.isInserted, !context.hasPendingRows else {
            return try append(titles: titles, to: item).map(\.objectID)
        }
        return try appendRows(titles: titles, to: item)
    }

    /// How many titles ``append(titles:to:)`` writes as rows rather than objects: a paste of a few lines
    /// gets objects (the screen reads them at once); `burrow add -` of a long list does not pay for 100,000
    /// objects it never reads (their making and freeing were a third of the time, DECISIONS 2026-12-04).
    public static let rowsAtOnce = 256

    /// Inserts an item at `index` among the sub-items of `parent` (past the end: last); returns its ID.
    @discardableResult
    public func insert(_ title: String, into parent: ObjectID, at index: Int) throws -> ObjectID {
        try insert(title, into: try resolve(parent), at: index).objectID
    }

    /// Inserts an item right after `sibling`, in its level; returns its ID.
    @discardableResult
    public func insert(_ title: String, after sibling: ObjectID) throws -> ObjectID {
        try insert(title, after: try resolve(sibling)).objectID
    }

    /// Inserts an item right before `sibling`, in its level; returns its ID.
    @discardableResult
    public func insert(_ title: String, before sibling: ObjectID) throws -> ObjectID {
        try insert(title, before: try resolve(sibling)).objectID
    }

    // MARK: - Changing

    /// Gives the item `id` a new title.
    public func rename(_ id: ObjectID, to title: String) throws {
        try resolve(id).title = title
    }

    /// Sets the note of `id` to `text` (an empty text removes it) when it still says `expected` (what the
    /// user started editing), and returns `id`. No one's words are lost when the item changed meanwhile:
    /// if someone changed the note, the item keeps theirs and `text` becomes the note of a new item right
    /// below it; if someone deleted the item (`title` is what the user saw), `text` goes to a new item at the
    /// end of `fallback` (or of the top level, when that is gone too). The new item's ID is returned.
    @discardableResult
    public func setNote(
        _ id: ObjectID, to text: String, ifStill expected: String, title: String, keepingUnder fallback: ObjectID
    ) throws -> ObjectID {
        guard let item = try context.existingObject(for: id) as? Item, !item.isInaccessible else {
            let parent = try (context.existingObject(for: fallback) as? Item).flatMap { $0.isInaccessible ? nil : $0 } ?? root()
            let kept = try append("Edited note of “\(title)”", to: parent)
            kept.note = text.isEmpty ? nil : text
            return kept.objectID
        }
        guard (item.note ?? "") == expected else {
            let kept = try insert("Edited note of \(quotedTitle(item))", after: item)
            kept.note = text.isEmpty ? nil : text
            return kept.objectID
        }
        item.note = text.isEmpty ? nil : text
        return id
    }

    /// Adds `nodes` (with their subtrees) at the end of the item `parent`'s sub-items, as an import does;
    /// returns the IDs of the top-level items added.
    @discardableResult
    public func add(_ nodes: [OutlineNode], under parent: ObjectID) throws -> [ObjectID] {
        try add(nodes, under: try resolve(parent))
    }

    /// Copies the item `id` with everything below it (titles, notes, done marks, order) right after it, and
    /// returns the copy's ID and how many sub-items came with it (see `copy(_:to:)`).
    @discardableResult
    public func duplicate(_ id: ObjectID) throws -> (copy: ObjectID, subItems: Int) {
        let result = try copy([id], to: .after(id))
        guard let copy = result.items.first else { throw ItemGone(id: id) }
        return (copy, result.subItems)
    }

    /// Marks the item `id` done or not done.
    public func setDone(_ id: ObjectID, to done: Bool) throws {
        // A task's state follows (see `Outline+Tasks`).
        try setTaskDone(try resolve(id), done)
    }

    // MARK: - Moving

    /// Moves the item `id` (with its sub-items) right before `sibling`, into `sibling`'s level.
    public func move(_ id: ObjectID, before sibling: ObjectID) throws {
        let item = try resolve(id)
        try move(item, before: try resolve(sibling))
    }

    /// Moves the item `id` (with its sub-items) right after `sibling`, into `sibling`'s level.
    public func move(_ id: ObjectID, after sibling: ObjectID) throws {
        let item = try resolve(id)
        try move(item, after: try resolve(sibling))
    }

    /// Moves the item `id` (with its sub-items) to become sub-item number `index` of `parent` (clamped, so
    /// `Int.max` is last).
    public func move(_ id: ObjectID, to parent: ObjectID, at index: Int) throws {
        let item = try resolve(id)
        try move(item, to: try resolve(parent), at: index)
    }

    // MARK: - Deleting

    /// What a delete of the item `id` is called, read as stored now: `“Groceries” and 12 sub-items`.
    public func deletionDescription(of id: ObjectID) throws -> String {
        try deletionDescription(of: try existing(id))
    }

    /// Deletes the item `id` and all its sub-items.
    public func delete(_ id: ObjectID) throws {
        try delete(try resolve(id))
    }

    /// Deletes the item `id` and all its sub-items; returns how many were below it (the delete's own walk of
    /// the rows counts them: no second read).
    public func deleteCountingBelow(_ id: ObjectID) throws -> Int {
        try deleteCountingBelow([id])
    }

    /// Deletes the items `ids` and all their sub-items in one walk of the rows (a range of items); returns how
    /// many were below them. One at a time, every item after the first was deleted object by object: a
    /// range of 10,000 siblings took a second, of 100,000 more than a minute.
    public func deleteCountingBelow(_ ids: [ObjectID]) throws -> Int {
        let items = try ids.map(resolve)
        guard !items.contains(where: \.isRoot) else { throw OutlineError.cannotDeleteRoot }
        if let below = context.deleteTrees(items) { return below }
        // Deleted object by object, nothing is written before the save: the rows below are still there to count,
        // each once and none of the range's own (an item of the range may be below another).
        if items.count == 1 { return try descendantCount(of: items[0]) }
        var below = Set<Int64>()
        for item in items { below.formUnion(try context.descendantIDs(of: item, through: "children")) }
        return below.subtracting(items.map(\.objectID.rowID)).count
    }

    /// Deletes the item `id` and all its sub-items and names the open action after them (“Delete “Groceries”
    /// and 12 sub-items”); returns what it deleted as ``deletionDescription(of:)-(ObjectID)`` says it. The
    /// count comes from the delete's own walk of the rows: counting first read the subtree once more (60 ms
    /// of a 100,000-item delete).
    @discardableResult
    public func deleteNamingAction(_ id: ObjectID) throws -> String {
        let name = quotedTitle(try resolve(id))
        let below = try deleteCountingBelow(id)
        let what = below == 0 ? name : "\(name) and \(below) sub-item\(below == 1 ? "" : "s")"
        setActionName("Delete \(what)")
        return what
    }
}
