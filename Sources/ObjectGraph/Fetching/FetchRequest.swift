/// What to fetch: an entity, an optional predicate, an order, and a window.
///
/// ```swift
/// var request = FetchRequest("Color", where: Key("red") > 0.5, sortedBy: [SortKey("name")])
/// request.limit = 10
/// ```
public struct FetchRequest: Sendable, Hashable {
    public var entity: String
    public var predicate: ObjectPredicate
    public var sortKeys: [SortKey]
    public var limit: Int?
    public var offset: Int = 0
    /// Include this context's unsaved inserts, changes and deletes (the default).
    public var includesPendingChanges = true

    /// Ties are broken by ID in the direction of the last sort key, so a reversed request gives exactly
    /// the reversed list (and SQLite walks an index backwards instead of sorting).
    var idAscending: Bool { sortKeys.last?.ascending ?? true }

    public init(_ entity: String, where predicate: ObjectPredicate = .true, sortedBy sortKeys: [SortKey] = []) {
        self.entity = entity
        self.predicate = predicate
        self.sortKeys = sortKeys
    }
}
