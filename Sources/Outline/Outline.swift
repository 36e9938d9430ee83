import ObjectGraph

/// The outline on an ObjectGraph context: the root item, levels in sibling order, and the edits an
/// outliner makes (append, insert at a position or beside an item, move, delete). Edits do not save; call
/// ``save()`` once per user action.
///
/// ```swift
/// let outline = try Outline(path: "outline.sqlite")
/// let groceries = try outline.append("Groceries", to: try outline.root())
/// try outline.append("Milk", to: groceries)
/// try outline.save()
/// ```
public final class Outline {
    public let context: Context
    var cachedRoot: Item?

    public init(context: Context) {
        self.context = context
        context.willSave = Outline.keepTree
    }

    /// Opens (or creates) the outline database at `path`.
    public convenience init(path: String) throws(StoreError) {
        self.init(context: Context(store: try Store(path: path, model: OutlineModel.model)))
        do {
            try upgradeStoredData()
        } catch let e as StoreError {
            throw e
        } catch {
            throw StoreError(.storage, "cannot upgrade the outline's data: \(error)", path: path)
        }
    }

    /// Opens the outline database at `path` for reading only (see `Store.init(readingAt:model:)`): listing
    /// and exporting never change a byte of it.
    public convenience init(readingAt path: String) throws(StoreError) {
        self.init(context: Context(store: try Store(readingAt: path, model: OutlineModel.model)))
    }

    /// Moves committed changes into the database file (see `Store.checkpoint()`), so the file alone is a
    /// complete copy: for the end of a command or of the outliner.
    public func checkpoint() {
        context.store.checkpoint()
    }

    /// The top item, created (and saved) on first use; there is exactly one per database. Made in a
    /// transaction of its own (another process may be making it at the same moment), which saves whatever
    /// the context holds unsaved with it: ask for it before a unit of work's changes, as opening does.
    public func root() throws -> Item {
        if let r = cachedRoot, r.context != nil, !r.isDeleted, !r.isInaccessible { return r }
        if let found = try findRoot() {
            cachedRoot = found
            return found
        }
        if context.store.isReadOnly { throw PathError(message: "the outline has no top item yet") }
        if context.store.isInTransaction {
            // Inside a unit of work (a fresh in-memory outline): the root is saved with it.
            let r = try makeRoot()
            cachedRoot = r
            return r
        }
        // Looked for again inside the write lock: another process may have made it since the look above.
        let r = try context.transactionWithoutUndo { try findRoot() ?? makeRoot() }
        cachedRoot = r
        return r
    }

    private func makeRoot() throws -> Item {
        let r = try context.insert(Item.self, entity: Item.entityName)
        r.title = "Burrow"
        r["rootMarker"] = 1
        return r
    }

    func findRoot() throws -> Item? {
        let found = try context.fetch(FetchRequest(Item.entityName, where: Property("rootMarker") == Int64(1)))
        return found.first as? Item
    }

    /// The request for `parent`'s sub-items in sibling order.
    public static func level(of parent: Item) -> FetchRequest {
        level(of: parent.objectID)
    }

    /// `parent`'s sub-items in order (objects are made as they are read).
    public func children(of parent: Item) throws -> [Item] {
        try context.fetch(Outline.level(of: parent)).map { $0 as! Item }
    }

    /// The sub-item of `parent` at `index`, if any.
    public func child(of parent: Item, at index: Int) throws -> Item? {
        guard index >= 0 else { return nil }
        var r = Outline.level(of: parent)
        r.offset = index
        r.limit = 1
        return try context.fetch(r).first as? Item
    }

    // MARK: - Adding

    /// Adds an item at the end of `parent`'s sub-items.
    @discardableResult
    func append(_ title: String, to parent: Item) throws -> Item {
        try make(title, in: parent, key: OrderKey.between(try lastKey(in: parent), nil))
    }

    /// Adds items at the end of `parent`'s sub-items, in order.
    @discardableResult
    func append(titles: [String], to parent: Item) throws -> [Item] {
        let keys = OrderKey.keys(after: try lastKey(in: parent), count: titles.count)
        return try zip(titles, keys).map { try make($0, in: parent, key: $1) }
    }

    /// Adds items at the end of `parent`'s sub-items as rows written into the open transaction now (so
    /// what the unit of work reads next sees them), with the keys and times objects would get. `parent`
    /// must be stored (a row cannot be written before the object it points to).
    func appendRows(titles: [String], to parent: Item) throws -> [ObjectID] {
        let entity = Item.Slot.entity
        let keys = OrderKey.keys(after: try lastKey(in: parent), count: titles.count)
        let ids = try context.reserveObjectIDs(entity, count: titles.count)
        var template = entity.defaults
        let now = Value.date(Item.timestamp())
        template[Item.Slot.created] = now
        template[Item.Slot.modified] = now
        template[Outline.parentSlot] = .integer(parent.objectID.rowID)
        var rows: [[Value]] = []
        rows.reserveCapacity(titles.count)
        for (title, key) in zip(titles, keys) {
            var row = template
            row[Item.Slot.title] = .string(title)
            row[Item.Slot.order] = .string(key)
            rows.append(row)
        }
        context.insertRows(entity, ids: ids, values: rows)
        try context.flushRows()
        return ids
    }

    /// Inserts an item so that it becomes `parent`'s sub-item number `index` (clamped to the level).
    @discardableResult
    func insert(_ title: String, into parent: Item, at index: Int) throws -> Item {
        let (before, after) = try neighbours(in: parent, at: max(0, index), excluding: nil)
        return try make(title, in: parent, key: OrderKey.between(before?.order, after?.order))
    }

    /// Inserts an item right after `sibling`, in the same level.
    @discardableResult
    func insert(_ title: String, after sibling: Item) throws -> Item {
        let parent = try parentOf(sibling)
        let next = try self.sibling(after: sibling)
        return try make(title, in: parent, key: try key(between: sibling, and: next))
    }

    /// Inserts an item right before `sibling`, in the same level.
    @discardableResult
    func insert(_ title: String, before sibling: Item) throws -> Item {
        let parent = try parentOf(sibling)
        let previous = try self.sibling(before: sibling)
        return try make(title, in: parent, key: try key(between: previous, and: sibling))
    }

    private func make(_ title: String, in parent: Item, key: String) throws -> Item {
        // By entity and slot, not by name: bulk appends make one of these per item.
        guard let item = try context.insert(Item.Slot.entity) as? Item else { preconditionFailure("Item objects are Items") }
        item.title = title
        item.order = key
        item.setObject(parent, slot: Outline.parentSlot)
        return item
    }

    private static let parentSlot = Item.Slot.entity.slot("parent")!

    // MARK: - Moving

    /// Moves `item` (with its sub-items) to become `parent`'s sub-item number `index`.
    ///
    /// Within the same level the index counts positions without the item; finding the item's current
    /// position costs a count of the siblings before it, so prefer ``move(_:after:)`` in big levels.
    func move(_ item: Item, to parent: Item, at index: Int) throws {
        try checkMove(item, into: parent)
        let (before, after) = try neighbours(in: parent, at: max(0, index), excluding: item)
        try place(item, in: parent, key: OrderKey.between(before?.order, after?.order))
    }

    /// Moves `item` right after `sibling` (into `sibling`'s level).
    func move(_ item: Item, after sibling: Item) throws {
        guard item !== sibling else { return }
        let parent = try parentOf(sibling)
        try checkMove(item, into: parent)
        var next = try self.sibling(after: sibling)
        if next === item { next = try self.sibling(after: item) }
        try place(item, in: parent, key: try key(between: sibling, and: next))
    }

    /// Moves `item` right before `sibling` (into `sibling`'s level).
    func move(_ item: Item, before sibling: Item) throws {
        guard item !== sibling else { return }
        let parent = try parentOf(sibling)
        try checkMove(item, into: parent)
        var previous = try self.sibling(before: sibling)
        if previous === item { previous = try self.sibling(before: item) }
        try place(item, in: parent, key: try key(between: previous, and: sibling))
    }

    private func place(_ item: Item, in parent: Item, key: String) throws {
        if item.parent !== parent { item.setObject(parent, for: "parent") }
        item.order = key
    }

    private func checkMove(_ item: Item, into parent: Item) throws {
        guard !item.isRoot else { throw OutlineError.cannotMoveRoot }
        var p: Item? = parent
        while let x = p {
            if x === item { throw OutlineError.moveIntoItself(item.title) }
            p = x.parent
        }
    }

    // MARK: - Deleting

    /// Deletes `item` and all its sub-items; the parent's count follows (see ``Item``).
    func delete(_ item: Item) throws {
        try deleteCounting(item)
    }

    /// Deletes `item` with everything below it; how many were below when the rows were walked (nil when
    /// they were deleted object by object).
    @discardableResult
    func deleteCounting(_ item: Item) throws -> Int? {
        guard !item.isRoot else { throw OutlineError.cannotDeleteRoot }
        return context.deleteTree(item)
    }

    /// Runs one user action as one unit of work in one write transaction (see `Context.transaction`):
    /// what `edit` reads (a path, the last sibling, a position) is what its changes are written against,
    /// whatever other processes do at the same moment. `edit` may name the undo step with
    /// `context.setActionName(_:)` once it knows what it did.
    ///
    /// ```swift
    /// try outline.perform("Add “Milk”") { try outline.append("Milk", to: try outline.item(at: "Groceries")) }
    /// ```
    @discardableResult
    public func perform<T>(_ actionName: String? = nil, _ edit: () throws -> T) throws -> T {
        try context.transaction(actionName: actionName, edit)
    }

    /// Saves the unit of work: one transaction.
    public func save() throws {
        try context.save()
    }

    /// Saves the unit of work as one undo step named `actionName`.
    public func save(actionName: String) throws {
        try context.save(actionName: actionName)
    }

    // MARK: - Positions

    /// The item's index among its siblings: siblings with a smaller key, plus equal keys with a smaller ID.
    public func position(of item: Item) throws -> Int {
        guard let parent = item.parent else { return 0 }
        let level = Property("parent") == parent
        let smaller = try context.count(FetchRequest(Item.entityName, where: level && Property("order") < item.order))
        let ties = try context.fetch(FetchRequest(Item.entityName, where: level && Property("order") == item.order))
        return smaller + ties.rowIDs.filter { $0 < item.objectID.rowID }.count
    }

    /// The last key of the level, read from its end through the (parent, order) index.
    func lastKey(in parent: Item) throws -> String? {
        var r = FetchRequest(Item.entityName, where: Property("parent") == parent, sortedBy: [SortKey("order", ascending: false)])
        r.limit = 1
        return (try context.fetch(r).first as? Item)?.order
    }

    /// The items that will be before and after position `index` once `excluded` has left the level.
    private func neighbours(in parent: Item, at index: Int, excluding excluded: Item?) throws -> (Item?, Item?) {
        var r = Outline.level(of: parent)
        var shift = 0
        if let excluded, excluded.parent === parent, try position(of: excluded) < index { shift = 1 }
        r.offset = max(0, index - 1 + shift)
        r.limit = 3
        var window = try context.fetch(r).map { $0 as! Item }
        if let excluded { window.removeAll { $0 === excluded } }
        if index == 0 { return (nil, window.first) }
        if window.isEmpty {
            // Past the end: the item goes last.
            var last = FetchRequest(Item.entityName, where: Property("parent") == parent, sortedBy: [SortKey("order", ascending: false)])
            last.limit = 2
            let tail = try context.fetch(last).map { $0 as! Item }.filter { $0 !== excluded }
            return (tail.first, nil)
        }
        return (window.first, window.count > 1 ? window[1] : nil)
    }

    func sibling(after item: Item) throws -> Item? {
        guard let parent = item.parent else { return nil }
        var r = FetchRequest(
            Item.entityName,
            where: Property("parent") == parent && Property("order") >= item.order,
            sortedBy: [SortKey("order")])
        r.limit = 64
        let found = try context.fetch(r)
        // Skip ties that sort before or at the item (same key, lower or equal ID).
        for i in 0..<found.count {
            let id = found.rowIDs[i]
            if (found[i] as! Item).order == item.order && id <= item.objectID.rowID { continue }
            return found[i] as? Item
        }
        return nil
    }

    func sibling(before item: Item) throws -> Item? {
        guard let parent = item.parent else { return nil }
        var r = FetchRequest(
            Item.entityName,
            where: Property("parent") == parent && Property("order") <= item.order,
            sortedBy: [SortKey("order", ascending: false)])
        r.limit = 64
        let found = try context.fetch(r)
        for i in 0..<found.count {
            let id = found.rowIDs[i]
            if (found[i] as! Item).order == item.order && id >= item.objectID.rowID { continue }
            return found[i] as? Item
        }
        return nil
    }

    /// A key strictly between two neighbours; when their keys are equal (two processes inserted at the
    /// same place), the later one gets a fresh key first.
    func key(between a: Item?, and b: Item?) throws -> String {
        if let a, let b, !(a.order < b.order) {
            let next = try sibling(after: b)
            b.order = OrderKey.between(a.order, next?.order)
        }
        return OrderKey.between(a?.order, b?.order)
    }

    private func parentOf(_ item: Item) throws -> Item {
        guard let p = item.parent else { throw OutlineError.noParent }
        return p
    }
}

/// An edit the outline cannot make.
public enum OutlineError: UserFacingError, Equatable {
    case cannotDeleteRoot
    case cannotMoveRoot
    case noParent
    case moveIntoItself(String)
    /// A tag that cannot be one (see `Tag.problem(with:)`): the name, and why.
    case badTag(String, String)

    public var description: String {
        switch self {
        case .cannotDeleteRoot: return "the top of the outline cannot be deleted"
        case .cannotMoveRoot: return "the top of the outline cannot be moved"
        case .noParent: return "the top of the outline has no siblings"
        case .moveIntoItself(let t): return "“\(t)” cannot be moved into itself"
        case .badTag(let name, let why): return "“\(name)” is not a tag: \(why)"
        }
    }
}
