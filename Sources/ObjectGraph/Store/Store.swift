/// A store of the objects of one model, shared by the contexts that work on it: it opens a store type (an
/// SQLite file today; see `PersistentStore`), and hands every committed change set to its contexts —
/// their own saves, and commits other processes made, which ``poll()`` finds.
///
/// ```swift
/// let store = try Store(path: "outline.sqlite", model: model)
/// let context = Context(store: store)
/// ```
public final class Store {
    /// The model the store was opened with.
    public let model: Model
    /// The file, or nil for an in-memory store.
    public let path: String?
    /// True for a store opened with ``init(readingAt:model:)``.
    public let isReadOnly: Bool
    /// The store type that holds the rows.
    let backend: any PersistentStore
    /// Called now and then (every few thousand objects) while a unit of work deletes, restores or writes
    /// many objects, so that a program can show it is busy; it must not touch the store.
    public var heartbeat: (() -> Void)? {
        didSet { backend.heartbeat = heartbeat }
    }
    /// Contexts that want the change sets other contexts of this store commit.
    var contexts: [WeakContext] = []
    /// The last change-log entry taken in (ours or another's).
    /// The newest commit taken in (merged into every context of this store), by the log's numbering.
    private(set) var changeCursor: Int64 = 0 {
        didSet { takenIn.takeIn(through: changeCursor) }
    }
    /// `changeCursor` and this store's last entry, for other threads (a paced background context).
    let takenIn = TakenInMark()
    /// Change-log entries written through this store and not passed yet: never delivered twice.
    private var ownCommits = Set<Int64>()
    /// How many times entries missing from the change log made every context re-read everything (tests
    /// check that none goes missing where none was pruned).
    private(set) var resynchronizations = 0

    /// Opens the store at `path`, creating it when absent and migrating it when the model only added things.
    ///
    /// Throws `.newerModel` when a newer model wrote the file, `.incompatibleModel` when the change is not
    /// additive, `.notADatabase` / `.notAStore` for other files. On every failure the file is left as it was.
    public convenience init(path: String, model: Model) throws(StoreError) {
        try self.init(SQLiteStore(path: path, model: model), model: model, path: path, isReadOnly: false)
    }

    /// Opens an existing store for reading only: no byte of the file changes, nothing is created or
    /// migrated, a read-only file or folder will do, and readers never wait for a writer (WAL).
    ///
    /// Throws `.cannotOpen` when there is no store at `path`. A store written by an older model is read as
    /// it is: an attribute it lacks reads as nil, an entity it lacks has no objects, a derived value not yet
    /// recounted reads as stored.
    ///
    /// ```swift
    /// let store = try Store(readingAt: "outline.sqlite", model: model)
    /// ```
    public convenience init(readingAt path: String, model: Model) throws(StoreError) {
        try self.init(SQLiteStore(readingAt: path, model: model), model: model, path: path, isReadOnly: true)
    }

    /// A store that lives in memory only, for tests and scratch work.
    public convenience init(inMemoryWith model: Model) throws(StoreError) {
        try self.init(SQLiteStore(inMemoryWith: model), model: model, path: nil, isReadOnly: false)
    }

    deinit { takenIn.close() }

    /// A store on `backend`; commits made before now are already in what it reads.
    init(_ backend: any PersistentStore, model: Model, path: String?, isReadOnly: Bool) throws(StoreError) {
        self.backend = backend
        self.model = model
        self.path = path
        self.isReadOnly = isReadOnly
        changeCursor = try backend.latestChange()
    }

    /// What ``init(readingAt:model:)`` says of an absent or empty file.
    public static let noStoreYet = "there is no store here yet"

    /// True while a write transaction is open: a unit of work is between its first read and its commit.
    public var isInTransaction: Bool { backend.isInTransaction }

    /// Moves every committed change into the database file, so the file alone is a complete copy (what a
    /// command does before it exits and the outliner when it quits). Best effort while other connections
    /// read: it never waits for them. Nothing to do for a read-only store.
    public func checkpoint() {
        guard !isReadOnly, !backend.isInTransaction else { return }
        backend.checkpoint()
    }

    /// Closes the store's connections now rather than when it is released, as its release would: the last
    /// connection to a file copies the log into it and removes it. Nothing may use the store, or a context
    /// on it, afterwards. For a process that is about to exit (a command): it closes, then keeps the objects
    /// to the exit, which spares it the threads their release starts.
    package func close() throws(StoreError) {
        try backend.close()
    }

    /// Verifies the store without changing it: the file's own integrity, every reference pointing to an
    /// object that exists, the ID allocator above every stored ID, and every maintained count equal to its
    /// members. An empty list means all of that holds.
    ///
    /// ```swift
    /// for problem in try store.check() { print(problem) }
    /// ```
    public func check() throws(StoreError) -> [StoreProblem] { try backend.check() }

    /// Repairs what is derived from the rows: every maintained count is counted again, missing required
    /// values get their defaults and the ID allocator is set above every stored ID. Runs inside the open
    /// write transaction when there is one (so it commits or rolls back with the rest of a repair), else in
    /// one of its own. Returns what it changed, as sentences.
    public func repairDerived() throws(StoreError) -> [String] { try backend.repairDerived() }

    /// Runs `body` in one write transaction (see ``PersistentStore/writeTransaction(_:)``); a change-log
    /// entry it wrote (`logged`) is recorded as this store's own once the transaction has committed.
    func writeTransaction<T>(_ body: (_ logged: inout Int64) throws -> T) throws -> T {
        var seq: Int64 = 0
        let result = try backend.writeTransaction { try body(&seq) }
        if seq > 0 { takenIn.wrote(seq) }
        if seq == changeCursor + 1 {
            changeCursor = seq  // nobody else committed in between: nothing to skip later
        } else if seq > 0 {
            ownCommits.insert(seq)
        }
        return result
    }

    /// Reserves `count` fresh row IDs (see ``PersistentStore/reserveIDs(_:)``).
    func reserveIDs(_ count: Int) throws(StoreError) -> Range<Int64> { try backend.reserveIDs(count) }

    /// True inside a write transaction or a snapshot: commits elsewhere were taken in when it began, and
    /// none can be seen until it ends.
    var isCatchingUpInPlace: Bool { backend.isInSnapshot }

    /// Runs `body` with every read on one snapshot of the store, first taking in every commit made elsewhere
    /// up to that snapshot. A results controller's diff reads rows it was not told about (to place the ones
    /// it was): they must be in the same state as when the list last changed, which holds only if no commit
    /// is between the change sets it has taken in and the rows it reads. Inside a write transaction, or an
    /// open snapshot, `body` just runs. Nothing may save inside it.
    func snapshot<T>(catchingUp: Bool = true, _ body: () throws -> T) throws -> T {
        if isCatchingUpInPlace { return try body() }
        return try backend.snapshot {
            if catchingUp { try catchUp() }
            return try body()
        }
    }

    /// The number of the newest commit that changed objects, by any process (0 before the first): equal
    /// numbers at two moments mean no object changed between them (what a cache of derived values checks).
    ///
    /// ```swift
    /// if try store.latestChange() == cachedAt { return cached }
    /// ```
    public func latestChange() throws(StoreError) -> Int64 { try backend.latestChange() }

    // MARK: - Changes made elsewhere

    /// Looks for commits made by other processes (or other `Store` instances on the same file) and merges
    /// them into every context on this store, so their results controllers deliver batches: all the
    /// commits found in one poll as one change set, read on one snapshot (see `snapshot`). Cheap when
    /// nothing happened. Call it from the run loop (the app does every 100 ms).
    ///
    /// ```swift
    /// try store.poll()
    /// ```
    /// Returns how many foreign commits were merged.
    @discardableResult
    public func poll() throws(StoreError) -> Int {
        do {
            if isCatchingUpInPlace { return try catchUp() }
            guard try backend.mayHaveChangedElsewhere() else { return 0 }
            if try backend.tookInMigrationElsewhere() {
                // Tables and columns that read as empty until now have rows: every context reads again.
                resynchronizations += 1
                contexts.removeAll { $0.context == nil }
                for c in contexts { c.context?.resynchronize() }
            }
            return try snapshot(catchingUp: false) { try catchUp() }
        } catch {
            throw StoreError.wrap(error, "cannot read changes made elsewhere", path: path)
        }
    }

    /// Takes in, on the open snapshot, every commit made elsewhere since the last one taken in: coalesced
    /// into one change set merged once into each context (applied one by one, an earlier commit's diff
    /// would read rows a later one already changed). Returns how many there were.
    @discardableResult
    func catchUp() throws -> Int {
        let (foreign, count, missed) = try takeForeignCommits()
        contexts.removeAll { $0.context == nil }
        if missed {
            for c in contexts { c.context?.resynchronize() }
        } else if count > 0 {
            for c in contexts { c.context?.merge(foreign) }
        }
        return count
    }

    /// Delivers a context's own saved change set to every context on the store, on one snapshot: when
    /// other processes committed since (before this save, or just after it), their changes go with it as
    /// one change set, so no diff reads rows a change it was not given has moved.
    func deliver(_ changes: ChangeSet, from sender: Context) {
        do {
            try snapshot(catchingUp: false) {
                let (foreign, count, missed) = try takeForeignCommits()
                contexts.removeAll { $0.context == nil }
                if missed {
                    for c in contexts { c.context?.resynchronize() }
                } else if count == 0 {
                    sender.notifyControllers(changes, local: true)
                    broadcast(changes, from: sender)
                } else {
                    var all = changes
                    all.formUnion(foreign)
                    for weak in contexts {
                        guard let c = weak.context else { continue }
                        if c === sender {
                            c.takeIn(foreign)
                            c.notifyControllers(all, local: false)
                            // Its observers saw its own changes when it saved; these came from elsewhere.
                            for token in c.mergeObservers.keys.sorted() { c.mergeObservers[token]?(foreign) }
                        } else {
                            c.merge(all)
                        }
                    }
                }
            }
        } catch {
            // The store cannot be read right now: deliver what is known; the next poll brings the rest.
            sender.notifyControllers(changes, local: true)
            broadcast(changes, from: sender)
        }
    }

    /// Hands a saved change set to every other context on this store.
    func broadcast(_ changes: ChangeSet, from sender: Context) {
        contexts.removeAll { $0.context == nil }
        for weak in contexts {
            guard let c = weak.context, c !== sender else { continue }
            c.merge(changes)
        }
    }

    /// Reads, on the open snapshot, the commits made elsewhere since the last one taken in (skipping this
    /// store's own), coalesced; and whether entries were pruned before they could be read.
    private func takeForeignCommits() throws -> (changes: ChangeSet, count: Int, missed: Bool) {
        let (entries, newest) = try backend.changes(after: changeCursor)
        guard newest > changeCursor else { return (ChangeSet(), 0, false) }
        // Every number after the cursor went to one entry: one we never saw was pruned (or went with the
        // history action that held it), so we cannot know what changed, and everything is re-read. (The
        // cursor starts at the newest number ever given, so a gap after it is always a loss.)
        var missed = false
        var expected = changeCursor + 1
        var foreign = ChangeSet()
        var count = 0
        for e in entries {
            if e.seq != expected { missed = true }
            expected = e.seq + 1
            if ownCommits.remove(e.seq) != nil { continue }
            if let changes = e.changes, !changes.isEmpty {
                foreign.formUnion(changes)
                count += 1
            }
        }
        if expected <= newest { missed = true }
        if missed { resynchronizations += 1 }
        changeCursor = newest
        return (foreign, count, missed)
    }
}

/// A weak reference to a context, so the store does not keep contexts alive.
struct WeakContext {
    weak var context: Context?
}
