/// A results controller's whole result as identifiers, the shape a diffable data source takes: its
/// sections in order, each with its key value and its objects' IDs, and the items whose values changed
/// in the change that made it (to reconfigure rather than replace).
///
/// ```swift
/// level.onSnapshot = { snapshot in dataSource.apply(snapshot.sections.map(\.items), reconfiguring: snapshot.reloaded) }
/// ```
public struct ResultsSnapshot: Equatable, Sendable {
    /// One section: its section key value (nil without a section key) and its items in order.
    ///
    /// ```swift
    /// for section in level.snapshot().sections { print(section.value ?? "—", section.items.count) }
    /// ```
    public struct Section: Equatable, Sendable {
        /// The section key value (nil without a section key).
        public var value: Value?
        /// The section's object IDs, in order.
        public var items: [ObjectID]

        /// A section with key value `value` and `items`.
        public init(value: Value?, items: [ObjectID]) {
            self.value = value
            self.items = items
        }
    }

    /// The sections, in order (one without a section key).
    public var sections: [Section]
    /// Items still in the result whose values the change altered: updated in place, moved, or moved out
    /// of a section that went. Empty in ``ResultsController/snapshot()``.
    public var reloaded: [ObjectID] = []
    /// True when the change that made it was saved inside ``ResultsController/performUserDrivenChange(_:)``:
    /// the view shows it already (as ``ResultsBatch/isUserDriven``).
    public var isUserDriven = false
    /// True for the snapshot ``ResultsController/resume()`` delivers (as ``ResultsBatch/isReload``).
    public var isReload = false

    /// Every item, sections flattened.
    public var items: [ObjectID] { sections.flatMap(\.items) }
}
