/// A results controller's whole result as identifiers, the shape a diffable data source takes: its
/// sections in order, each with its key value and its objects' IDs, and the items whose values changed
/// in the change that made it (to reconfigure rather than replace).
///
/// ```swift
/// level.onSnapshot = { snapshot in dataSource.apply(snapshot.sections.map(\.items), reconfiguring: snapshot.reloaded) }
/// ```
public struct ResultsSnapshot: Equatable, Sendable {
    /// One section: its section key value (nil without a section key) and its items in order.
    public struct Section: Equatable, Sendable {
        public var value: Value?
        public var items: [ObjectID]

        public init(value: Value?, items: [ObjectID]) {
            self.value = value
            self.items = items
        }
    }

    public var sections: [Section]
    /// Items still in the result whose values the change altered: updated in place, moved, or moved out
    /// of a section that went. Empty in ``ResultsController/snapshot()``.
    public var reloaded: [ObjectID] = []

    /// Every item, sections flattened.
    public var items: [ObjectID] { sections.flatMap(\.items) }
}
