/// Counters that show what a context did, so tests can check laziness and batching.
///
/// ```swift
/// let loaded = context.statistics.rowsLoaded
/// _ = results[500]["title"]
/// print(context.statistics.rowsLoaded - loaded)   // the rows read to show that one element
/// ```
public struct ContextStatistics: Sendable, Equatable {
    /// Managed objects instantiated (faults included).
    public var objectsCreated = 0
    /// Rows read from the store into memory.
    public var rowsLoaded = 0
    /// Rows read by continuing an ordered range scan (the fast path for reading a result in order).
    public var rowsReadInOrder = 0
    /// Rows fetches asked the store to step past (`FetchRequest.offset`): read and thrown away, so a walk that
    /// pages by offset reads its level again for every page (keyset reads skip only ties).
    public var rowsSkipped = 0
    /// Batched row reads issued.
    public var batchLoads = 0
    /// Single-object fault fulfilments (a fault touched outside any batch).
    public var faultsFired = 0
    /// Reads of one object's to-many members from the store (a cascade down a tree makes none per object).
    public var relationReads = 0
    /// Rows a cascade down a tree read on another thread while the save deleted them (`deleteTree` in a
    /// transaction that had written nothing yet).
    public var rowsReadAside = 0

    /// Adds a fetch's offset, stopping at `Int.max` (a caller may ask for everything past a huge one).
    mutating func noteSkipped(_ offset: Int) {
        let (sum, overflow) = rowsSkipped.addingReportingOverflow(offset)
        rowsSkipped = overflow ? .max : sum
    }
}
