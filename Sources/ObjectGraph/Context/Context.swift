import Foundation

/// A unit of work over a store: an identity map of objects, change tracking, fetches, delete rules,
/// validation, and save as one transaction of the store.
///
/// ```swift
/// let context = Context(store: store)
/// let color = try context.insert("Color")
/// color["red"] = 0.5
/// try context.save()
/// ```
/// A context is not thread-safe: use it from one thread (or actor) only.
public final class Context {
    /// The store the context reads from and saves to.
    public let store: Store
    /// The store's model.
    public var model: Model { store.model }
    // The counters and the change lists are touched once per object made or changed: plain loads,
    // stores and appends only, so they skip dynamic exclusivity checks (see ManagedObject).
    /// What the context did so far (objects created, rows loaded), for tests and diagnostics.
    @exclusivity(unchecked) public internal(set) var statistics = ContextStatistics()
    /// The store's undo history, shared by every context and process; this context's saves are recorded
    /// in it.
    public let undoHistory: UndoHistory
    /// The name the next save records for undo.
    var pendingActionName: String?
    /// A read that failed where the API cannot throw (a fault fired, a relationship's members loaded): the
    /// object read as gone, the relationship as empty. The next save or transaction fails with it, writing
    /// nothing, since the unit of work may have been built on what that read could not see.
    var readFailure: StoreError?
    /// The newest commit this context had taken in when the unit of work first read something (nil while
    /// it has read nothing). A plain save refuses to write an object that a commit made elsewhere after it
    /// changed (an attribute, or the members of a relationship: a sibling added under the same parent):
    /// what the unit derived from its reads (the key after the last sibling's, a count) may be stale.
    /// Polls during the unit do not move it: taking a commit in does not refresh what was derived before.
    var unitReadMark: Int64?
    /// Objects that commits taken in after `unitReadMark`, while the unit had changes, changed: the unit
    /// may have read them before (what it derived is stale however they read now). Taken in while the
    /// context has no changes, a commit ends the unit's reads instead: the next read starts a new mark.
    var mergedDuringUnit: Set<ObjectID> = []
    /// What the unit asked the store since `unitReadMark` (fetches, counts, values) with the first answer
    /// each got; asked again by a plain save (`UnitQuery`). Entities of questions past `UnitQuery.limit`.
    var unitQueries: [UnitQuery: UnitQuery.Answer] = [:]
    var unitQueriesBeyondLimit: Set<String> = []
    /// Objects with unsaved changes that a commit taken in changed or deleted: refaulted when the unit
    /// ends (see `refaultMergedWhileChanged`).
    var mergedWhileChanged: Set<ObjectID> = []
    /// Where the next save's action happened, recorded with it.
    var pendingPlace: ActionPlace?
    /// True while an undo or redo is being applied: that save is not a new step.
    var isApplyingHistory = false
    /// While `isApplyingHistory`: an undo (else a redo).
    var isUndoing = false
    /// While `isApplyingHistory`: the history's number of the action undone or redone (for the outbox).
    var replayedAction: Int64?
    /// True during `saveWithoutUndo()`: set-up work, which neither the history nor the outbox keeps.
    var isSavingWithoutUndo = false
    /// True during `transactionOutsideUndo`: the outbox keeps the step, the undo history does not.
    var isSavingOutsideUndo = false
    /// What a plain `save()` does when a commit made elsewhere after the unit of work's first read changed
    /// an object the unit writes: refuse (the default, as Core Data's default merge policy refuses a stale
    /// object) or write this unit's changes over it. `transaction { }` never meets the case.
    ///
    /// ```swift
    /// context.mergePolicy = .overwrite   // last writer wins, property by property
    /// ```
    public var mergePolicy = MergePolicy.refuseStale

    /// See ``Context/mergePolicy``.
    ///
    /// ```swift
    /// context.mergePolicy = .overwrite   // last writer wins, property by property
    /// ```
    public enum MergePolicy: Sendable {
        /// The save fails with `StoreError.conflict`, writes nothing and keeps the unit's changes; roll
        /// back (which takes in what changed) and make the change again, or make it in `transaction { }`.
        case refuseStale
        /// The unit's changed properties are written over what was committed meanwhile (the store's
        /// maintained counts and relationships stay right; values derived from stale reads are written).
        case overwrite
    }

    /// When true, ``delete(_:)`` marks the object deleted and its delete rules (cascade, nullify) run when
    /// the unit of work is saved, or at ``processPendingChanges()``: Core Data's `propagatesDeletesAtEndOfEvent`,
    /// the end of an event being the save here. A child moved to another parent before then is no longer
    /// reached by its old parent's cascade. False (the default): the rules run at once.
    ///
    /// ```swift
    /// context.propagatesDeletesAtSave = true
    /// context.delete(oldList); keeper.setObject(newList, for: "list")   // keeper survives the cascade
    /// try context.save()
    /// ```
    public var propagatesDeletesAtSave = false
    /// Objects deleted whose rules wait for the save (``propagatesDeletesAtSave``), in order.
    var deferredDeletes: [ManagedObject] = []

    /// Who this context's saves are by, as ``Store/changeHistory(after:entities:)`` reports it (Core Data's
    /// `transactionAuthor`): a sync client names itself so that it can pass over its own commits.
    public var transactionAuthor: String?

    /// Objects read in one batch when a fetch result or relationship is touched.
    public var batchSize = 256
    /// A domain's own rules, run in every saving transaction after the edit and before validation, with
    /// the objects inserted or changed and whether the save is an undo or redo: it may change values (a
    /// sort key a sibling took meanwhile) or refuse the save by throwing a ``ValidationFailure`` (an undo
    /// it refuses is passed over as an ``UndoConflict``).
    ///
    /// ```swift
    /// context.willSave = { objects, replaying in try checkNoCycle(objects) }
    /// ```
    public var willSave: ((_ objects: [ManagedObject], _ replaying: Bool) throws -> Void)?

    /// The identity map: at most one object per row.
    let registered = IdentityMap()
    @exclusivity(unchecked) var inserted: [ManagedObject] = []
    /// Whole rows added without objects (see `insertRows`), written at the next save.
    var pendingRows: [(EntityDescription, [ObjectID], [[Value]])] = []
    @exclusivity(unchecked) var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []
    /// Whole rows deleted without objects (see `deleteTree`), with their stored values for the undo step.
    var pendingDeletes: [(EntityDescription, [ObjectID], [[Value]])] = []
    /// The row IDs in `pendingDeletes`, for fetches before the save.
    var pendingDeletedRows: Set<Int64> = []
    /// Entries of `pendingDeletes` whose values are still being read on another thread
    /// (`PersistentStore.rowsAside`), by index: filled in before the undo step is made.
    var pendingDeletesAside: [(index: Int, rows: PendingRows)] = []
    /// Entries of `pendingDeletes`, by index, whose rows change no count the store maintains: every
    /// count-feed key of each row names a row of the same walk, read in the write transaction that deletes
    /// them (a subtree below its root). The store deletes them without reading their keys back.
    var pendingDeletesUncounted: Set<Int> = []
    /// Rows `flushRows` wrote in the open transaction, for the save that ends it.
    var flushed = FlushedRows()
    /// Why a `flushRows` of the open transaction failed: the transaction cannot commit, whatever the edit
    /// does after (a `rollback()` included). Cleared when the next transaction begins.
    var flushFailure: StoreError?
    /// Rows read ahead by a batch, waiting for their object to be touched.
    var rowCache: [ObjectID: [Value]] = [:]
    /// Moves on whenever rows may have changed under this context (a save, a merged change, a refresh):
    /// rows read before then (see `PrefetchedRows`) are no longer used to make objects, and a value derived
    /// from them (a count of what is below an item, say) is worth reading again.
    public internal(set) var generation = 0
    var freshIDs: Range<Int64> = 0..<0
    private var idBlock = 64
    /// True when `freshIDs` came from inside the open write transaction (they go if it rolls back).
    var reservedInTransaction = false
    var observers: [Int: (ChangeSet) -> Void] = [:]
    /// The observers that also see change sets taken in from elsewhere (`merge`).
    var mergeObservers: [Int: (ChangeSet) -> Void] = [:]
    /// Results controllers on this context, told about every change set.
    var controllers: [WeakController] = []
    /// Checks attribute rules at save.
    let validator = AttributeValidator()
    private var nextObserver = 0

    /// A new context on `store`, with no objects registered; the store hands it what other contexts commit.
    public init(store: Store) {
        self.store = store
        undoHistory = UndoHistory(store: store)
        store.contexts.append(WeakContext(context: self))
    }

    deinit {
        // Objects keep an unowned reference to their context: those that outlive it must read nil.
        registered.forEachObject { $0.context = nil }
    }

    /// True when there are unsaved inserts, updates or deletes.
    public var hasChanges: Bool {
        !inserted.isEmpty || !deleted.isEmpty || !deferredDeletes.isEmpty || !pendingRows.isEmpty || !pendingDeletes.isEmpty
            || !flushed.isEmpty || updated.contains { $0.hasChanges }
    }

    // MARK: - Inserting

    /// Inserts a new object of `entity`, with its defaults and a permanent ID. Throws `.unknownEntity` for
    /// a name the model does not have, as a fetch does.
    public func insert(_ entityName: String) throws(StoreError) -> ManagedObject {
        try insert(try entity(named: entityName))
    }

    /// Inserts a new object of `entity` as the Swift type `T` (the entity's declared object type).
    public func insert<T: ManagedObject>(_ type: T.Type, entity name: String) throws(StoreError) -> T {
        guard let object = try insert(name) as? T else { preconditionFailure("\(name) objects are not \(T.self)") }
        return object
    }

    /// Inserts a new object of `entity` (an entity of this context's model), with its defaults and a permanent ID.
    public func insert(_ entity: EntityDescription) throws(StoreError) -> ManagedObject {
        let id = ObjectID(entity: entity.index, rowID: try nextRowID())
        let object = entity.objectType.init(entity: entity, objectID: id)
        object.context = self
        // A buffer of its own now: sharing the defaults would make the first set copy them through the
        // generic copy-on-write path, and `append(contentsOf:)` copies through the generic runtime too;
        // element by element is specialized for `Value`.
        var values: [Value] = []
        values.reserveCapacity(entity.defaults.count)
        for v in entity.defaults { values.append(v) }
        object.values = values
        object.isFault = false
        object.isInserted = true
        registered[id] = object
        inserted.append(object)
        statistics.objectsCreated += 1
        object.awakeFromInsert()
        return object
    }

    /// Inserts an object under `id`, an ID whose row is gone (deleted here or elsewhere; the store never
    /// gives an ID out twice), with its entity's defaults: for a program that takes back its own delete, as
    /// undo does, so that what still names that ID (a replica's records, the user's place on screen) finds
    /// the object again. Nil when `id` is stored or inserted already.
    ///
    /// ```swift
    /// let back = try context.insert(again: deletedID)   // then set its values
    /// ```
    public func insert(again id: ObjectID) throws(StoreError) -> ManagedObject? {
        if let held = registered[id], !held.isDeleted { return nil }
        if try loadRows(entity: model.entities[id.entity], ids: [id.rowID]).first ?? nil != nil { return nil }
        let entity = model.entities[id.entity]
        let object = reinsertObject(id, values: entity.defaults)
        object.awakeFromInsert()
        return object
    }

    /// Re-creates an object with a known ID with the given values (undo of a deletion, `insert(again:)`).
    func reinsertObject(_ id: ObjectID, values: [Value]) -> ManagedObject {
        if let stale = registered[id] {
            // Still registered (its row was deleted): the same instance comes back.
            stale.take(row: values)
            stale.isDeleted = false
            stale.isInaccessible = false
            stale.committed = nil
            stale.relations = [:]
            stale.isInserted = true
            if let k = deleted.firstIndex(where: { $0 === stale }) { deleted.remove(at: k) }
            inserted.append(stale)
            return stale
        }
        let entity = model.entities[id.entity]
        let object = entity.objectType.init(entity: entity, objectID: id)
        object.context = self
        object.values = values
        object.isFault = false
        object.isInserted = true
        registered[id] = object
        inserted.append(object)
        statistics.objectsCreated += 1
        return object
    }

    private func nextRowID() throws(StoreError) -> Int64 {
        if freshIDs.isEmpty {
            // Blocks grow so that bulk inserts reserve rarely, while a context that inserts one object
            // wastes few IDs.
            freshIDs = try store.reserveIDs(idBlock)
            reservedInTransaction = store.isInTransaction
            idBlock = min(idBlock * 4, 65536)
        }
        return freshIDs.popFirst()!
    }

    // MARK: - Looking objects up

    /// The object with `id`: the registered one, or a fault that loads its row when first touched.
    public func object(for id: ObjectID) -> ManagedObject {
        registered[id] ?? makeObject(id, model.entities[id.entity])
    }

    /// The object with `id` with its row loaded, or nil when no such row exists (or it is deleted here).
    public func existingObject(for id: ObjectID) throws(StoreError) -> ManagedObject? {
        noteRead(id.entity)
        if pendingDeletedRows.contains(id.rowID), !pendingDeletedRowIDs(of: model.entities[id.entity]).isEmpty { return nil }
        if let o = registered[id], !o.isFault, !o.isInaccessible || o.hasChanges { return o.isDeleted ? nil : o }
        guard let values = try loadRows(entity: model.entities[id.entity], ids: [id.rowID]).first ?? nil else { return nil }
        let o = object(for: id)
        // An object whose row was gone when it was read (a fault fired after a delete elsewhere) is asked
        // again: never handed out as existing while its row is missing, and its row may be back (restored).
        if o.isFault || o.isInaccessible {
            o.take(row: values)
            o.isInaccessible = false
        }
        return o.isDeleted ? nil : o
    }

    /// Takes `o` out of the identity map and clears its (unowned) link to this context: the one way an
    /// object leaves a context, so no object can hold a context that has let go of it.
    func forget(_ o: ManagedObject) {
        registered[o.objectID] = nil
        rowCache[o.objectID] = nil
        o.context = nil
    }

    /// The registered objects (including faults), for diagnostics and tests.
    public var registeredObjects: Int { registered.count }

    /// The object this context holds for `id` (maybe a fault), or nil: none is made (as Core Data's
    /// `registeredObject(for:)`). For reading many rows as values and taking this context's unsaved
    /// changes from the few objects it holds.
    public func registeredObject(for id: ObjectID) -> ManagedObject? { registered[id] }

    // MARK: - Change tracking

    /// Called before the first change of a stored property of `object` in a unit of work.
    func willChange(_ object: ManagedObject) {
        if object.committed == nil && !object.isInserted {
            object.committed = object.values
        }
        markUpdated(object)
    }

    func markUpdated(_ object: ManagedObject) {
        if !object.isInUpdatedList && !object.isInserted {
            object.isInUpdatedList = true
            updated.append(object)
        }
    }

    /// Notes a read by the program (an object's value, a fetch, a count), for the plain save's check
    /// (`unitReadMark`). `entity` is the index of what was read; the check is by the objects written.
    @inline(__always)
    func noteRead(_ entity: Int) {
        if unitReadMark == nil { unitReadMark = store.changeCursor }
    }

    /// Notes a question the unit asked the store and its answer (the first one, if asked again: what the
    /// unit may have derived from), for the plain save to ask again. After a read (`noteRead`), outside a
    /// transaction (whose reads are inside the write lock).
    /// `answer` is asked only when kept (a fetch with unsaved changes asks the store once more for it).
    func noteQuery(_ request: FetchRequest, _ kind: UnitQuery.Kind, _ answer: @autoclosure () throws(StoreError) -> UnitQuery.Answer)
        throws(StoreError)
    {
        guard mergePolicy == .refuseStale, !store.isInTransaction else { return }
        // Past the limit only the entity is kept, and the request is not hashed: an app that reads for long
        // between its saves (the outliner's 50,000 open lists) asks thousands of questions, each a lookup.
        guard unitQueries.count < UnitQuery.limit else {
            unitQueriesBeyondLimit.insert(request.entity)
            return
        }
        var asked = request
        asked.includesPendingChanges = false
        let query = UnitQuery(request: asked, kind: kind)
        if unitQueries[query] == nil { unitQueries[query] = try answer() }
    }

    func endUnitReads() {
        unitReadMark = nil
        mergedDuringUnit = []
        if !unitQueries.isEmpty { unitQueries = [:] }
        if !unitQueriesBeyondLimit.isEmpty { unitQueriesBeyondLimit = [] }
    }

    /// Discards every unsaved change: inserted objects become invalid, deleted ones come back, changed
    /// ones get their saved values. Then takes in what other connections committed (as `Store.poll`
    /// does), so a unit of work made again after a refused save reads what is stored now.
    public func rollback() {
        discardChanges()
        // Only drawn in: when it fails, the next save that read finds the same commits and is refused again.
        if !store.isInTransaction { _ = try? store.poll() }
    }

    /// Forgets the objects of rows `changes` says were inserted, when the unit that inserted them failed:
    /// made from rows flushed in it (read back by the edit), they would stand for rows that went with the
    /// transaction, under IDs that are given out again.
    func forgetObjects(insertedBy changes: ChangeSet) {
        for (_, entity) in changes.entities {
            for id in entity.inserted { if let o = registered[id] { forget(o) } }
        }
    }

    /// Rollback without touching the undo history (a failed undo must leave its step in place).
    func discardChanges() {
        for o in inserted {
            forget(o)
            o.isInserted = false
        }
        for o in deleted { o.isDeleted = false }
        for o in deferredDeletes { o.isDeleted = false }
        deferredDeletes = []
        for o in updated { restore(o) }
        for o in deleted { restore(o) }
        inserted = []
        updated = []
        deleted = []
        pendingRows = []
        finishRowDeletes(committed: false)
        forgetObjects(insertedBy: flushed.changes)
        flushed = FlushedRows()
        pendingActionName = nil
        pendingPlace = nil
        endUnitReads()
        refaultMergedWhileChanged()
    }

    /// Returns the context to the state of a new one on the same store: unsaved changes are discarded and
    /// every object is forgotten (one still held keeps what it last read, marked inaccessible, and never
    /// loads again; fetch again for current ones). Each results controller on the context fetches again
    /// and delivers what that changed as one batch, as Core Data's `reset()` leaves nothing registered; then
    /// each observer (``observeChanges(includingMerged:_:)``) is called once with a change set that lists
    /// nothing and says ``ChangeSet/invalidatesAll``. A context that held nothing and had no changes tells
    /// nobody.
    ///
    /// ```swift
    /// context.reset()   // after a bulk change made with rows, say: nothing stale stays cached
    /// ```
    public func reset() {
        let forgetsSomething = hasChanges || registeredObjects > 0 || !rowCache.isEmpty
        discardChanges()
        for o in registered.values {
            forget(o)
            o.take(row: o.isFault ? o.entity.defaults : o.values)
            o.isInaccessible = true
        }
        rowCache = [:]
        generation += 1
        reloadControllers()
        guard forgetsSomething else { return }
        var invalidated = ChangeSet()
        invalidated.invalidatesAll = true
        for token in observers.keys.sorted() { observers[token]?(invalidated) }
    }

    private func restore(_ o: ManagedObject) {
        if let c = o.committed { o.values = c }
        o.committed = nil
        for slot in o.relations.keys { o.relations[slot]!.discardChanges() }
        o.relationMask = 0
        o.isInUpdatedList = false
    }

    /// Turns every object without unsaved changes back into a fault (it reloads when next touched) and
    /// drops the read-ahead cache, so the next reads see what the store holds now.
    public func refreshAll() {
        for o in registered.values where !o.hasChanges && !o.isInUpdatedList && !(o.isFault && o.values.isEmpty && o.prefetched == nil) {
            o.turnIntoFault()
        }
        rowCache = [:]
        generation += 1
    }

    // MARK: - Observing

    /// Calls `block` with the change set of every unit of work this context saves; with `includingMerged`,
    /// also with every change set it takes in from other contexts and processes, after its results
    /// controllers have delivered their batches for it. Observers are called in the order they were added.
    ///
    /// ```swift
    /// let token = context.observeChanges(includingMerged: true) { changes in print(changes.updatedCount) }
    /// ```
    @discardableResult
    public func observeChanges(includingMerged: Bool = false, _ block: @escaping (ChangeSet) -> Void) -> Int {
        nextObserver += 1
        observers[nextObserver] = block
        if includingMerged { mergeObservers[nextObserver] = block }
        return nextObserver
    }

    /// Stops calling the block that ``observeChanges(includingMerged:_:)`` returned `token` for.
    public func removeObserver(_ token: Int) {
        observers[token] = nil
        mergeObservers[token] = nil
    }
}
