/// What to fetch: an entity, an optional predicate, an order, and a window.
///
/// ```swift
/// var request = FetchRequest("Color", where: Key("red") > 0.5, sortedBy: [SortDescriptor("name")])
/// request.limit = 10
/// ```
public struct FetchRequest: Sendable, Hashable {
    public var entity: String
    public var predicate: Predicate
    public var sortDescriptors: [SortDescriptor]
    public var limit: Int?
    public var offset: Int = 0
    /// Include this context's unsaved inserts, changes and deletes (the default).
    public var includesPendingChanges = true

    public init(_ entity: String, where predicate: Predicate = .true, sortedBy sortDescriptors: [SortDescriptor] = []) {
        self.entity = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}
