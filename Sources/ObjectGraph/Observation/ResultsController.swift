/// A fetch request kept up to date: after each unit of work that changes its result (saved by its
/// context, by another context on the store, or by another process), it delivers one change, in the shape
/// its observer asks for: a ``ResultsBatch`` (index paths, as a table view's batch update takes them), a
/// ``ResultsSnapshot`` (section and item identifiers, as a diffable data source takes them) or a
/// `CollectionDifference` of object IDs (removals at old offsets, insertions at new ones, moves paired).
///
/// It holds only the row IDs of its result; objects are made for the rows asked for. With no handler set it
/// tracks nothing and keeps its last fetch, as Core Data's does without a delegate; a handler set later
/// gets, with the next change, everything since the last batch it could have seen.
/// ```swift
/// let request = FetchRequest("Item", where: Property("parent") == groceries, sortedBy: [SortKey("position")])
/// let level = ResultsController(context: context, request: request)
/// level.onChange = { batch in tableView.apply(batch) }
/// try level.performFetch()
/// ```
public final class ResultsController {
    /// The context whose store it reads and whose changes it follows.
    public let context: Context
    /// The request as given (its unsaved changes left out: a controller shows what is saved).
    public let request: FetchRequest
    /// The attribute (or to-one relationship) whose value groups the rows into sections; nil for one section.
    public let sectionKey: String?
    /// The entity of the request.
    public let entity: EntityDescription
    /// Called with each batch, after the controller's own state has changed.
    public var onChange: ((ResultsBatch) -> Void)?
    /// Called after each change with the whole result as identifiers (see ``snapshot()``), the items that
    /// changed in place or moved named in ``ResultsSnapshot/reloaded``. Costs a pass over the result per change.
    public var onSnapshot: ((ResultsSnapshot) -> Void)?
    /// Called after each change with the difference of the flattened list of IDs: removals at offsets of
    /// the old list, insertions at offsets of the new, a moved row's two paired (`associatedWith`).
    public var onDifference: ((CollectionDifference<ObjectID>) -> Void)?
    /// True while some handler is set: only then does the controller follow changes.
    public var isTracking: Bool { onChange != nil || onSnapshot != nil || onDifference != nil }
    /// True between ``pause()`` and ``resume()``: changes are gathered, not delivered.
    public private(set) var isPaused = false
    /// True once the object the request depends on was deleted; the result is then empty for good.
    public private(set) var isInvalidated = false
    /// Batches delivered so far.
    public private(set) var batchesDelivered = 0
    /// Batches worked out by reading the list again because a change touched many more rows than it holds
    /// (for tests).
    var listRereads = 0

    var storage: FetchStorage
    /// Sections in order: their key value and row count (one section with a nil key when unsectioned).
    var sections: [(value: Value, count: Int)] = []
    var fetched = false
    /// Touched row IDs and changed properties gathered while paused.
    var pending: [Int64: PropertyMask] = [:]
    /// The background read of the IDs, while it runs.
    var pendingScan: IDScan?
    var pendingAnchorDeleted = false
    /// Changes went by while no handler was set: the result is the last fetch's, and the next change is
    /// worked out by reading the list again.
    var missedChanges = false
    /// Depth of ``performUserDrivenChange(_:)`` calls: batches delivered inside are flagged.
    var userDriven = 0
    let sortSlots: [Int]
    /// The properties the request reads (predicate and sort keys, the section key among them): an update of
    /// others leaves every row where it is.
    let readMask: PropertyMask
    /// Each sort key's direction, and the ID's (the last key's): read where thousands of rows are compared,
    /// without touching the request's keys (whose names are reference counted).
    let sortAscending: [Bool]
    let idAscending: Bool
    /// The sort keys of rows in the list, as the changes delivered so far left them (normalized for
    /// comparing): a change that brings many rows places them without reading the rows they go between.
    /// Rows no change touched keep their keys; a fetch starts it empty.
    var sortKeyCache: [Int64: [Value]] = [:]
    /// The same keys as records in list order, while they describe the list (a read of the list with keys
    /// makes them; a change's merge keeps them): where rows are placed and found.
    var keyRecords: ListKeyRecords?
    let anchors: [ObjectID]
    /// What is wrong with the request or the section key, thrown by ``performFetch(window:)``: a controller
    /// is made where a screen is built, and its fetch is where a program handles failure.
    let configurationError: StoreError?

    /// A controller for `request`, its rows grouped by the value of `sectionKey` when one is given. With
    /// a section key the request's first sort key must be that key (rows of a section must be
    /// contiguous); ``performFetch(window:)`` fails otherwise.
    ///
    /// ```swift
    /// let tasks = ResultsController(context: context, request: FetchRequest("Task", sortedBy: [SortKey("done"), SortKey("position")]), sectionKey: "done")
    /// ```
    public init(context: Context, request: FetchRequest, sectionKey: String? = nil) {
        // Entities are checked where the request is made; one the model lacks is a programming error.
        guard let entity = context.model.entity(request.entity) else { preconditionFailure("no entity \(request.entity)") }
        var request = request
        // A controller shows what is saved; a context's unsaved edits reach it when they are saved.
        request.includesPendingChanges = false
        self.context = context
        self.request = request
        self.sectionKey = sectionKey
        self.entity = entity
        var problem: StoreError?
        let layout: RowLayout
        do {
            layout = try RowLayout(request, entity)
        } catch {
            problem = error
            layout = entity.wholeRow
        }
        storage = FetchStorage(entity: entity, rowIDs: [], request: request, layout: layout)
        var slots: [Int] = []
        for key in request.sortKeys {
            do {
                slots.append(try entity.storedProperty(key.key).slot)
            } catch {
                problem = problem ?? error
            }
        }
        sortSlots = slots
        readMask = slots.reduce(request.predicate.readMask(in: entity)) { $0.union(PropertyMask(slot: $1)) }
        sortAscending = request.sortKeys.map(\.ascending)
        idAscending = request.idAscending
        if let sectionKey, problem == nil, request.sortKeys.first?.key != sectionKey {
            problem = StoreError(
                .invalidRequest,
                "a results controller sectioned by “\(sectionKey)” needs “\(sectionKey)” as its request's first sort key (its rows are "
                    + "grouped by that value, so they must be ordered by it first); "
                    + (request.sortKeys.first.map { "the first is “\($0.key)”" } ?? "the request has none"),
                entity: entity.name, property: sectionKey)
        }
        configurationError = problem
        anchors = request.predicate.anchors(in: entity)
        context.controllers.append(WeakController(controller: self))
    }

    /// Reads the result. Call once before reading rows; batches are delivered from then on.
    ///
    /// On a store that can read in the background (a file), an unsectioned result is read in the background: this returns as soon as the first
    /// `window` rows are known, so a million-row level shows its first screen at once; anything that needs
    /// the whole list (``count``, a row further down, the next change) waits for the rest.
    public func performFetch(window: Int = 256) throws(StoreError) {
        if let configurationError { throw configurationError }
        context.noteRead(entity.index)
        fetched = true
        isInvalidated = false
        missedChanges = false
        sortKeyCache = [:]
        keyRecords = nil
        pending = [:]
        pendingAnchorDeleted = false
        if sectionKey == nil, let scan = context.store.backend.scanIDs(request, of: entity) {
            let (ids, complete) = try scan.prefix(window)
            storage.rowIDs = ids
            pendingScan = complete ? nil : scan
            sections = [(.null, ids.count)]
            return
        }
        let results = try context.fetch(request)
        storage.rowIDs = results.rowIDs
        sections = try layout(results.rowIDs)
    }

    /// Waits for a background read of the IDs to finish, if one is running.
    /// ``completeLoading()`` for the accessors that cannot throw: a failed read leaves the IDs known so far
    /// and is kept on the context, so the next save fails with it rather than act on a short result.
    func loadRest() {
        do {
            try completeLoading()
        } catch {
            context.noteReadFailure(error)
        }
    }

    func completeLoading() throws(StoreError) {
        guard let scan = pendingScan else { return }
        pendingScan = nil
        storage.rowIDs = try scan.all()
        sections = [(.null, storage.rowIDs.count)]
    }

    /// True once every ID of the result is known (``loadedCount`` is then the count).
    public var isComplete: Bool { pendingScan == nil }

    /// Rows known so far without waiting (all of them once ``isComplete``).
    public var loadedCount: Int { storage.rowIDs.count }

    // MARK: - Reading

    /// Rows in all sections (waits for a background read to finish; see ``loadedCount``).
    public var count: Int {
        context.noteRead(entity.index)
        loadRest()
        return storage.rowIDs.count
    }
    /// How many sections the result has (1 without a section key).
    public var numberOfSections: Int { sectionKey == nil ? 1 : sections.count }
    /// How many rows section `section` has.
    public func numberOfRows(inSection section: Int) -> Int { sectionKey == nil ? count : sections[section].count }
    /// The section key value of a section (nil without a section key).
    public func sectionValue(_ section: Int) -> Value? { sectionKey == nil ? nil : sections[section].value }

    /// The IDs in order (all sections, flattened).
    public var objectIDs: [ObjectID] {
        context.noteRead(entity.index)
        loadRest()
        return storage.rowIDs.map { ObjectID(entity: entity.index, rowID: $0) }
    }

    /// The ID at `row` of the flattened result, without making its object.
    public func objectID(at row: Int) -> ObjectID {
        context.noteRead(entity.index)
        if row >= storage.rowIDs.count { loadRest() }
        return ObjectID(entity: entity.index, rowID: storage.rowIDs[row])
    }
    /// The ID at `index`, without making its object.
    public func objectID(at index: ResultIndex) -> ObjectID { objectID(at: flat(index)) }

    /// The object at `row` of the flattened result; rows are read in batches around it.
    public func object(at row: Int) -> ManagedObject {
        context.noteRead(entity.index)
        if row >= storage.rowIDs.count { loadRest() }
        return context.materialize(storage, row)
    }
    /// The object at `index`; rows are read in batches around it.
    public func object(at index: ResultIndex) -> ManagedObject { object(at: flat(index)) }

    /// Where `id` is in the result, if it is (a scan of the IDs).
    public func index(of id: ObjectID) -> ResultIndex? {
        loadRest()
        guard id.entity == entity.index, let i = storage.rowIDs.firstIndex(of: id.rowID) else { return nil }
        return path(i, in: sections)
    }

    // MARK: - Pausing

    /// Stops delivering batches; changes are gathered instead.
    public func pause() { isPaused = true }

    /// Delivers exactly one batch, flagged ``ResultsBatch/isReload``, that takes the observer from what it
    /// last saw to now: its events when something changed while paused, none otherwise (a signal to redraw).
    public func resume() throws(StoreError) {
        guard isPaused else { return }
        try completeLoading()
        // On one snapshot, having taken in every commit made elsewhere up to it (see `Store.snapshot`).
        do {
            try context.store.snapshot {
                isPaused = false
                let touched = pending, anchorDeleted = pendingAnchorDeleted
                pending = [:]
                pendingAnchorDeleted = false
                guard fetched, !isInvalidated, isTracking else { return }
                if missedChanges && !anchorDeleted {
                    missedChanges = false
                    try deliver(touched: everyRowTouched(), anchorDeleted: false, local: false, reload: true)
                } else {
                    try deliver(touched: touched, anchorDeleted: anchorDeleted, local: false, reload: true)
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot bring the result up to date", path: context.store.path)
        }
    }

    /// Runs `body`, which saves a change the observer has already shown (a row the user dragged): batches
    /// it causes are delivered flagged ``ResultsBatch/isUserDriven``, for the observer to take into its
    /// state without animating them again.
    ///
    /// ```swift
    /// try level.performUserDrivenChange { item["position"] = newKey; try context.save() }
    /// ```
    public func performUserDrivenChange<T>(_ body: () throws -> T) rethrows -> T {
        userDriven += 1
        defer { userDriven -= 1 }
        return try body()
    }

    /// True while ``performUserDrivenChange(_:)`` runs: an ``onDifference`` handler reads it to tell a change
    /// the view already shows (a `CollectionDifference` has no flag of its own; batches and snapshots do).
    ///
    /// ```swift
    /// level.onDifference = { [unowned level] d in if !level.isPerformingUserDrivenChange { animate(d) } }
    /// ```
    public var isPerformingUserDrivenChange: Bool { userDriven > 0 }

    // MARK: - Changes

    /// Takes one change set (local or from elsewhere) and delivers its batch, or gathers it while paused.
    func process(_ changes: ChangeSet, local: Bool) throws(StoreError) {
        guard fetched, !isInvalidated else { return }
        let mine = changes[entity.index]
        guard isTracking else {
            // Only a change to its entity (or the object its request names) can change the result.
            if !mine.isEmpty || anchors.contains(where: { a in changes[a.entity].deleted.contains(a) }) { missedChanges = true }
            return
        }
        try completeLoading()
        var touched: [Int64: PropertyMask] = [:]
        for id in mine.inserted { touched[id.rowID] = PropertyMask(rawValue: ~0) }
        for (id, mask) in mine.updated { touched[id.rowID, default: []].formUnion(mask) }
        for id in mine.deleted { touched[id.rowID] = PropertyMask(rawValue: ~0) }
        let anchorDeleted = anchors.contains { a in changes[a.entity].deleted.contains(a) }
        if missedChanges && !anchorDeleted {
            // What went by unseen is not in this change set: the list is compared whole.
            missedChanges = false
            touched = try everyRowTouched()
        }
        if isPaused {
            for (id, mask) in touched { pending[id, default: []].formUnion(mask) }
            pendingAnchorDeleted = pendingAnchorDeleted || anchorDeleted
            return
        }
        try deliver(touched: touched, anchorDeleted: anchorDeleted, local: local)
    }

    /// Every row of the list as it was and as a fetch reads it now, all properties touched: the change that
    /// takes the observer from the old list to the new when what happened in between is not known.
    func everyRowTouched() throws(StoreError) -> [Int64: PropertyMask] {
        let fresh = try context.fetch(request).rowIDs
        var touched: [Int64: PropertyMask] = [:]
        for id in storage.rowIDs { touched[id] = PropertyMask(rawValue: ~0) }
        for id in fresh { touched[id] = PropertyMask(rawValue: ~0) }
        return touched
    }

    func deliver(touched: [Int64: PropertyMask], anchorDeleted: Bool, local: Bool, reload: Bool = false) throws(StoreError) {
        let oldIDs = storage.rowIDs, oldSections = sections
        var batch: ResultsBatch
        if anchorDeleted {
            batch = invalidate()
        } else if touched.isEmpty {
            batch = ResultsBatch()
        } else {
            batch = try diff(touched, local: local)
        }
        batch.isReload = reload
        batch.isUserDriven = userDriven > 0
        guard !batch.isEmpty else { return }
        batchesDelivered += 1
        onChange?(batch)
        if let onDifference { onDifference(difference(batch, from: oldIDs, oldSections)) }
        if let onSnapshot { onSnapshot(snapshot(reloading: batch, old: oldIDs)) }
    }

    private func invalidate() -> ResultsBatch {
        var batch = ResultsBatch()
        batch.invalidated = true
        if sectionKey != nil {
            batch.deletedSections = Array(0..<sections.count)
        } else {
            batch.deletes = (0..<count).map { ResultIndex(0, $0) }
        }
        storage.rowIDs = []
        sections = sectionKey == nil ? [(.null, 0)] : []
        sortKeyCache = [:]
        keyRecords = nil
        isInvalidated = true
        return batch
    }

    // MARK: - Sections

    func flat(_ index: ResultIndex) -> Int {
        var base = 0
        for s in 0..<index.section { base += sections[s].count }
        return base + index.row
    }

    func path(_ flat: Int, in layout: [(value: Value, count: Int)]) -> ResultIndex {
        if sectionKey == nil { return ResultIndex(0, flat) }
        var rest = flat
        for (s, section) in layout.enumerated() {
            if rest < section.count { return ResultIndex(s, rest) }
            rest -= section.count
        }
        return ResultIndex(layout.count, 0)
    }

    /// Section runs of an ordered ID list (reads the section key of each row from the store).
    func layout(_ ids: [Int64]) throws(StoreError) -> [(value: Value, count: Int)] {
        guard sectionKey != nil else { return [(.null, ids.count)] }
        var out: [(value: Value, count: Int)] = []
        let keys = try sortValues(ids)
        for id in ids {
            let v = keys[id]![0]
            if let last = out.last, ObjectPredicate.sqlEqual(last.value, v) {
                out[out.count - 1].count += 1
            } else {
                out.append((v, 1))
            }
        }
        return out
    }
}

/// A weak reference to a controller, so the context does not keep controllers alive.
struct WeakController {
    weak var controller: ResultsController?
}
