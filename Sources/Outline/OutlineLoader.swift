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
///
/// A reader on another thread makes the rows (``handOverRows()``) while this one writes them.
public struct OutlineLoader {
    /// Rows written to the store at a time.
    public static let batchSize = 8192

    private let context: Context
    private let entity: EntityDescription
    private let parentSlot: Int
    /// Whether batches may be written before the save: not under an item this unit of work inserts.
    private let flushes: Bool
    /// Makes the rows, until handed over to another thread.
    private var maker: ItemRowMaker?
    /// The open path: for each depth, the item whose sub-items come next (the parent at depth 0).
    private var path: [Int64]
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
        maker = ItemRowMaker(template: t, lastKey: try outline.lastKeyInStore(parent))
        parentSlot = entity.slot("parent")!
        flushes = !parent.isInserted
        path = [parent.objectID.rowID]
    }

    /// Adds `node` (its children are not looked at) at `depth`: 0 is a sub-item of the parent, and each
    /// item may be at most one deeper than the one before.
    public mutating func add(_ node: OutlineNode, depth: Int) throws {
        precondition(maker != nil, "add(_:depth:) after handOverRows(): add the rows its maker makes")
        var made = maker!.make(node, depth: depth)
        try place(&made)
    }

    /// What makes this loader's rows, for a reader on another thread: from now on, add what it makes, in the
    /// order it makes them, with ``add(contentsOf:)``.
    ///
    /// ```swift
    /// var maker = loader.handOverRows()
    /// // on the reading thread: let made = maker.make(node, depth: depth)
    /// try loader.add(contentsOf: &batch)   // on this thread, the rows made, in order
    /// ```
    public mutating func handOverRows() -> ItemRowMaker {
        precondition(maker != nil, "handOverRows() once")
        defer { maker = nil }
        return maker!
    }

    /// Adds rows made by this loader's maker, in the order made, each under the item its depth says. In
    /// place: each row is completed where it lies, not copied.
    public mutating func add(contentsOf batch: inout [ItemRowMaker.Made]) throws {
        for i in batch.indices { try place(&batch[i]) }
    }

    private mutating func place(_ made: inout ItemRowMaker.Made) throws {
        let depth = made.depth
        precondition(depth >= 0 && depth < path.count, "an item is at most one level deeper than the one before it")
        path.removeLast(path.count - depth - 1)
        if ids.isEmpty {
            // IDs in growing blocks, ascending: rows reach the search index in row-ID order.
            ids = try context.reserveObjectIDs(entity, count: reserve)[...]
            reserve = min(reserve * 4, Self.batchSize)
        }
        let id = ids.removeFirst()
        made.row[parentSlot] = .integer(path[depth])
        if !made.tags.isEmpty { made.row[Item.Slot.tagList] = try tags.link(id.rowID, to: made.tags) }
        batchIDs.append(id)
        batchRows.append(made.row)
        path.append(id.rowID)
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
