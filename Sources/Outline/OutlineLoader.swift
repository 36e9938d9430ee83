import ObjectGraph

/// Adds items given one at a time in document order (each with its depth below the parent), as rows written
/// into the open transaction a batch at a time (`Context.flushRows`): an import of a million items holds one
/// batch and the path to the current item, never the whole outline. Use inside `Outline.perform`; the rows
/// commit with it, and its undo step keeps them by fingerprint.
///
/// ```swift
/// try outline.perform("Import") {
///     var loader = try OutlineLoader(outline, under: parent)
///     try loader.add(OutlineNode("Groceries"), depth: 0)
///     try loader.add(OutlineNode("Milk"), depth: 1)
///     try loader.finish()
/// }
/// ```
public struct OutlineLoader {
    /// Rows written to the store at a time.
    public static let batchSize = 8192

    private let context: Context
    private let entity: EntityDescription
    private let template: [Value]
    private let parentSlot: Int
    /// Whether batches may be written before the save: not under an item this unit of work inserts.
    private let flushes: Bool
    /// The open path: for each depth, the item whose sub-items come next (the parent at depth 0) and the
    /// order key of its last sub-item so far.
    private var path: [(id: Int64, lastKey: String?)]
    private var ids: ArraySlice<ObjectID> = []
    private var batchIDs: [ObjectID] = []
    private var batchRows: [[Value]] = []
    private var reserve = 64
    private var tags: TagLinker
    /// Items added so far.
    public private(set) var count = 0

    /// A loader adding at the end of `parent`'s sub-items.
    public init(_ outline: Outline, under parent: Item) throws {
        context = outline.context
        tags = TagLinker(outline.context)
        entity = Item.Slot.entity
        var t = entity.defaults
        let now = Value.date(Item.timestamp())
        t[Item.Slot.created] = now
        t[Item.Slot.modified] = now
        template = t
        parentSlot = entity.slot("parent")!
        flushes = !parent.isInserted
        path = [(parent.objectID.rowID, try outline.lastKeyInStore(parent))]
    }

    /// Adds `node` (its children are not looked at) at `depth`: 0 is a sub-item of the parent, and each
    /// item may be at most one deeper than the one before.
    public mutating func add(_ node: OutlineNode, depth: Int) throws {
        precondition(depth >= 0 && depth < path.count, "an item is at most one level deeper than the one before it")
        path.removeLast(path.count - depth - 1)
        let key = OrderKey.between(path[depth].lastKey, nil)
        path[depth].lastKey = key
        if ids.isEmpty {
            // IDs in growing blocks, ascending: rows reach the search index in row-ID order.
            ids = try context.reserveObjectIDs(entity, count: reserve)[...]
            reserve = min(reserve * 4, Self.batchSize)
        }
        let id = ids.removeFirst()
        var row = template
        row[Item.Slot.title] = .string(node.title)
        if let note = node.note { row[Item.Slot.note] = .string(note) }
        row[Item.Slot.done] = .bool(node.isDone)
        if let extras = node.extras {
            for (slot, value) in zip(Item.Slot.extras, extras.values) where value != nil { row[slot] = .string(value!) }
            if let day = Item.agendaDay(scheduled: extras.scheduled, deadline: extras.deadline) { row[Item.Slot.agendaDay] = .string(day) }
        }
        row[Item.Slot.order] = .string(key)
        row[parentSlot] = .integer(path[depth].id)
        if !node.tags.isEmpty { row[Item.Slot.tagList] = try tags.link(id.rowID, to: node.tags) }
        batchIDs.append(id)
        batchRows.append(row)
        path.append((id.rowID, nil))
        count += 1
        if batchRows.count >= Self.batchSize { try flush(write: flushes) }
    }

    /// Hands the last rows to the context, written at the save that ends the unit of work.
    public mutating func finish() throws {
        try flush(write: false)
    }

    private mutating func flush(write: Bool) throws {
        guard !batchRows.isEmpty else { return }
        context.insertRows(entity, ids: batchIDs, values: batchRows)
        try tags.flush()
        batchIDs = []
        batchRows = []
        batchIDs.reserveCapacity(Self.batchSize)
        batchRows.reserveCapacity(Self.batchSize)
        if write { try context.flushRows() }
    }
}
