/// What to fetch: an entity, an optional predicate, an order, and a window.
///
/// ```swift
/// var request = FetchRequest("Color", where: Property("red") > 0.5, sortedBy: [SortKey("name")])
/// request.limit = 10
/// ```
public struct FetchRequest: Sendable, Hashable {
    /// The name of the entity whose objects are fetched.
    public var entity: String
    /// Which objects match (`.true`, the default: all of them).
    public var predicate: ObjectPredicate
    /// The order, first key first; ties are broken by object ID.
    public var sortKeys: [SortKey]
    /// The most objects the result holds (nil, the default: no limit).
    public var limit: Int?
    /// How many objects of the ordered result are skipped before the first one it holds.
    public var offset: Int = 0
    /// Include this context's unsaved inserts, changes and deletes (the default).
    public var includesPendingChanges = true
    /// The stored properties a loop over the result reads (nil, the default: the result reads whole rows
    /// in batches as it is touched). They are read with the IDs, in one pass, and held with the result
    /// (about their size per row); when this context has unsaved changes of the entity, batches read
    /// them instead. Objects made from such a result are partial faults: reading one of these properties
    /// costs nothing more, and touching any other loads the rest of that object's row. Naming what a
    /// loop reads makes reading a long list much cheaper; naming too little costs one read per object.
    ///
    /// ```swift
    /// var request = FetchRequest("Item", where: Property("parent") == root, sortedBy: [SortKey("position")])
    /// request.propertiesToFetch = ["title"]
    /// ```
    public var propertiesToFetch: [String]?

    /// Ties are broken by ID in the direction of the last sort key, so a reversed request gives exactly
    /// the reversed list (and SQLite walks an index backwards instead of sorting).
    var idAscending: Bool { sortKeys.last?.ascending ?? true }

    /// A request for the objects of `entity` that match `predicate`, in the order of `sortKeys`.
    public init(_ entity: String, where predicate: ObjectPredicate = .true, sortedBy sortKeys: [SortKey] = []) {
        self.entity = entity
        self.predicate = predicate
        self.sortKeys = sortKeys
    }
}
