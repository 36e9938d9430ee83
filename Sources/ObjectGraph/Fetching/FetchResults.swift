/// The result of a fetch: object IDs in order, with objects made only when an element is touched (their
/// rows read in batches around it, or, for a request naming `propertiesToFetch`, taken from the columns
/// read with the IDs).
///
/// ```swift
/// let colors = try context.fetch(FetchRequest("Color", sortedBy: [SortKey("name")]))
/// for color in colors.prefix(20) { print(color["name"]) }
/// ```
public struct FetchResults: RandomAccessCollection {
    /// The entity of the objects fetched.
    public var entity: EntityDescription { storage.entity }
    /// Row IDs in fetch order.
    public var rowIDs: [Int64] { storage.rowIDs }
    let storage: FetchStorage
    let context: Context

    init(
        entity: EntityDescription, rowIDs: [Int64], request: FetchRequest, layout: RowLayout, context: Context,
        prefetched: PrefetchedRows? = nil
    ) {
        storage = FetchStorage(entity: entity, rowIDs: rowIDs, request: request, layout: layout)
        storage.prefetched = prefetched
        self.context = context
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rowIDs.count }

    public subscript(position: Int) -> ManagedObject {
        context.materialize(storage, position)
    }

    /// The ID at `position`, without making the object.
    public func objectID(at position: Int) -> ObjectID {
        ObjectID(entity: entity.index, rowID: rowIDs[position])
    }

    /// All IDs in order.
    public var objectIDs: [ObjectID] { rowIDs.map { ObjectID(entity: entity.index, rowID: $0) } }
}

/// A fetch result's IDs and the rows of its current read-ahead batch, by position.
final class FetchStorage {
    // Read for every element touched; plain loads and stores only (see ManagedObject on exclusivity).
    let entity: EntityDescription
    @exclusivity(unchecked) var rowIDs: [Int64] {
        didSet {
            batchRows = []
            anchor = nil
            prefetched = nil
        }
    }
    /// The named columns of every row, read with the IDs (see `FetchRequest.propertiesToFetch`); nil once
    /// they may be stale, and then the result reads in batches like any other.
    @exclusivity(unchecked) var prefetched: PrefetchedRows? {
        didSet { prefetchedForReading = prefetched.map(Unmanaged.passUnretained) }
    }
    /// The same rows, kept alive by `prefetched`: reading them this way costs no retain and release
    /// (atomic operations, a good part of making an object) when each element is touched.
    @exclusivity(unchecked) private(set) var prefetchedForReading: Unmanaged<PrefetchedRows>?
    let request: FetchRequest
    /// The columns each batch reads.
    let layout: RowLayout
    @exclusivity(unchecked) var batchStart = 0
    @exclusivity(unchecked) var batchRows: [[Value]?] = []
    /// The context's `generation` when the batch was read: rows read before a save or a merged change may
    /// be stale, and are read again rather than used.
    var batchGeneration = 0
    /// The last row read, as a position and its sort values: where the next ordered batch continues.
    var anchor: (position: Int, keys: [Value])?
    /// Whatever the store type keeps for this result between its ordered batch reads, so a batch does not
    /// rebuild it (opaque here: only the store type that made it reads it).
    var storeCache: AnyObject?

    init(entity: EntityDescription, rowIDs: [Int64], request: FetchRequest, layout: RowLayout) {
        self.entity = entity
        self.rowIDs = rowIDs
        self.request = request
        self.layout = layout
    }
}
