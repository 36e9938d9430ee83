import Foundation

/// What a store type provides to the unit of work: the seam between a ``Context`` (objects, faults, change
/// tracking, validation, delete rules, undo) and storage. Inputs and outputs are values — requests, row
/// IDs, rows of ``Value``s in slot order, change sets — never query text or a driver's types, so a second
/// store type (issue "One outline, many machines") implements it without touching `Context`.
///
/// A store type keeps what it needs between calls (a connection, prepared statements) to itself. The
/// contract, beyond each method's own:
/// - Reads inside ``writeTransaction(_:)`` see what the transaction wrote so far; reads inside
///   ``snapshot(_:)`` all see one state of the store.
/// - ``write(_:)`` is called only inside ``writeTransaction(_:)``, and nothing it does is visible to other
///   connections unless that transaction commits.
/// - Counts the model maintains (``Attribute/count(_:of:)``) are kept by the store in the writing
///   transaction, from what it finds stored, never from what the context read.
/// - Every commit that changes something appends its change set to a log with increasing sequence numbers,
///   so other connections can take it in (``changes(after:)``).
/// - Rows come back typed as each attribute's type (a `.bool` as `.bool`, a `.date` as `.date`), whatever
///   the store keeps: the context compares values to tell what changed.
/// - Constraints are the store's: a unique attribute or compound index taken twice fails the write with
///   `.uniqueConstraint` (naming the entity and property when it can); a to-one key left pointing to no row
///   when the transaction ends (written by this unit, or left by a delete) fails it with `.foreignKey`
///   (`object` may stay nil: the context then names the object at fault). Undo relies on both to report a
///   step that would refer to something deleted elsewhere.
///
/// `SQLiteStore` (under `Store/SQLite/`) is the one store type today; ``Store`` is the public face that
/// contexts share and that delivers change sets between them. The requirements come in small protocols, one
/// per concern (reading, writing, the change log, the undo history, the outbox, external names, a program's
/// values, upkeep); the reads a store need not optimise have defaults built on the others.
typealias PersistentStore = StoreReader & StoreWriter & ChangeLogStorage & HistoryStorage & OutboxStorage & NameStorage & AppValueStorage
    & StoreUpkeep

/// Transactions and units of work.
protocol StoreWriter: AnyObject {
    /// True while ``writeTransaction(_:)`` runs.
    var isInTransaction: Bool { get }
    /// True inside a write transaction or a snapshot: commits elsewhere cannot appear until it ends.
    var isInSnapshot: Bool { get }

    /// Runs `body` in one write transaction that no other connection can commit through: whatever `body`
    /// reads stays true until the commit. Rolls back and rethrows when `body` throws. Does not nest.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` with every read on one state of the store; inside a write transaction or a snapshot,
    /// `body` just runs.
    func snapshot<T>(_ body: () throws -> T) throws -> T

    /// Reserves `count` fresh row IDs that no connection was ever given (inside a write transaction, the
    /// reservation rolls back with it).
    func reserveIDs(_ count: Int) throws(StoreError) -> Range<Int64>

    /// Writes one unit of work in the open write transaction; its change set is logged by ``finishLog()``
    /// (or by the history row of its undo step), at the latest when the transaction commits. See ``StoreWrite``.
    func write(_ unit: StoreWrite) throws(StoreError) -> StoreWriteResult
    /// In the open write transaction: sets the stored attributes `values` (slot, value) of every row of
    /// `entity` that `predicate` matches, in one statement, and opens the change-log entry naming them with
    /// `author`; returns that change set. The caller has checked the slots (attributes, no full-text index).
    func batchUpdate(_ entity: EntityDescription, where predicate: ObjectPredicate, set values: [(slot: Int, value: Value)], author: String?)
        throws(StoreError) -> ChangeSet
    /// In the open write transaction: deletes every row of `entity` that `predicate` matches in one
    /// statement, with the counts the store keeps of them, and opens the change-log entry naming them with
    /// `author`. The caller has checked that nothing refers to the entity's rows.
    func batchDelete(_ entity: EntityDescription, where predicate: ObjectPredicate, author: String?) throws(StoreError) -> StoreWriteResult
    /// Inside the write transaction, after the unit's undo step is recorded: logs the change set
    /// ``write(_:)`` left to log, unless the step's history row took it; returns the entry's sequence
    /// number (0 when the unit logged nothing).
    func finishLog() throws(StoreError) -> Int64

    /// Called now and then while a long write runs (a UI redraws a busy message from it).
    var heartbeat: (() -> Void)? { get set }

    /// Makes the stored file complete on its own (best effort, never waits for readers).
    func checkpoint()
    /// Closes the store's connections now; nothing uses it afterwards (see ``Store/close()``).
    func close() throws(StoreError)
}

extension StoreWriter {
    func checkpoint() {}
    func close() throws(StoreError) {}
}

/// Reading rows. Four reads are required; the rest have defaults built on them (a store with a faster
/// way implements them).
protocol StoreReader: AnyObject {
    /// The IDs `request` matches, sorted and windowed as it says. With `rows`, the columns of its layout
    /// are read into it in the same pass.
    func fetchIDs(_ request: FetchRequest, of entity: EntityDescription, prefetching rows: PrefetchedRows?) throws(StoreError) -> [Int64]
    /// Matching IDs in request order with the values of the request's sort keys, up to `limit` rows
    /// (the request's own window is not applied).
    func fetchSortKeys(_ request: FetchRequest, of entity: EntityDescription, limit: Int?) throws(StoreError) -> [(id: Int64, keys: [Value])]
    /// The stored values of `slots` (attributes, or to-one keys as row IDs) of every matching row, in order,
    /// windowed as the request says.
    func fetchValues(_ request: FetchRequest, of entity: EntityDescription, slots: [Int]) throws(StoreError) -> [(id: Int64, values: [Value])]
    /// How many rows `request` matches (no window).
    func count(_ request: FetchRequest, of entity: EntityDescription) throws(StoreError) -> Int
    /// Rows by ID in the order of `ids`, with the slots of `layout` (the others hold their defaults);
    /// nil for an ID with no row.
    func rows(of entity: EntityDescription, ids: [Int64], layout: RowLayout) throws(StoreError) -> [[Value]?]
    /// The rows of `entity` whose to-one key in `keySlot` holds `owner`: their IDs, with whole rows when
    /// `withRows`.
    func rows(of entity: EntityDescription, keySlot: Int, equalTo owner: Int64, withRows: Bool) throws(StoreError) -> [(id: Int64, row: [Value]?)]

    /// IDs of the rows of `entity` whose full-text-indexed attributes contain `folded` (already folded by
    /// ``TextFolding``; the indexed text is folded the same way), ascending, among `ids` when given, at
    /// most `limit`. The index is kept by ``StoreWriter/write(_:)`` in the same transaction as the rows.
    func fullTextMatches(_ folded: String, of entity: EntityDescription, among ids: [Int64]?, limit: Int?) throws(StoreError) -> [Int64]
    /// How many rows ``fullTextMatches(_:of:among:limit:)`` finds without `ids` or `limit`.
    func fullTextCount(_ folded: String, of entity: EntityDescription) throws(StoreError) -> Int
    /// The share (0 to 1) of the index a whole search for `folded` reads, when the store can tell without
    /// reading it; nil when it cannot.
    func fullTextShareToRead(_ folded: String, of entity: EntityDescription) throws(StoreError) -> Double?

    /// The rows at positions `from ..< from + count` of a fetch result, read in order, for as long as they
    /// are the IDs the result expects; nil when this store cannot read in order from there (then the
    /// caller reads by ID). A store without ordered reads returns nil.
    func rowsInOrder(_ result: FetchStorage, from: Int, count: Int) throws(StoreError) -> [[Value]?]?
    /// The IDs reachable from any of `roots` by following `keySlot` (a to-one key of `entity` to itself)
    /// backwards at every depth, each with its key (the row it is below), a row's key before it; the roots
    /// excluded, each row once (a cycle ends the walk).
    func descendants(of roots: [Int64], entity: EntityDescription, keySlot: Int) throws(StoreError) -> [(id: Int64, key: Int64)]
    /// The whole rows of ``descendants(of:entity:keySlot:)``, in one walk (a cascade down a tree reads
    /// what it deletes with this).
    func descendantRows(of roots: [Int64], entity: EntityDescription, keySlot: Int) throws(StoreError) -> [(id: Int64, row: [Value])]
    /// The whole rows of `ids` (all stored), read on another thread and connection as the open write
    /// transaction found them when it began; nil when this store cannot (in memory, outside a write
    /// transaction, or once it has written anything, when what is committed may differ from what it sees).
    func rowsAside(of entity: EntityDescription, ids: [Int64]) -> PendingRows?
    /// How many there are of ``descendants(of:entity:keySlot:)``, without listing them.
    func countDescendants(of root: Int64, entity: EntityDescription, keySlot: Int) throws(StoreError) -> Int
    /// The IDs of `request` read on another thread and connection, first rows first; nil when this store
    /// cannot (the caller then fetches them in place).
    func scanIDs(_ request: FetchRequest, of entity: EntityDescription) -> IDScan?
}

extension StoreReader {
    /// The request's sort keys through ``fetchValues(_:of:slots:)``, from the first row.
    func fetchSortKeys(_ request: FetchRequest, of entity: EntityDescription, limit: Int?) throws(StoreError) -> [(id: Int64, keys: [Value])] {
        var whole = request
        (whole.limit, whole.offset) = (limit, 0)
        let slots = request.sortKeys.map { key in
            guard let p = entity.property(key.key), p.isStored else {
                preconditionFailure("\(entity.name).\(key.key) is not a stored attribute or to-one relationship")
            }
            return p.slot
        }
        return try fetchValues(whole, of: entity, slots: slots).map { ($0.id, $0.values) }
    }

    /// The IDs ``fetchIDs(_:of:prefetching:)`` finds without the window, counted.
    func count(_ request: FetchRequest, of entity: EntityDescription) throws(StoreError) -> Int {
        var whole = request
        (whole.limit, whole.offset) = (nil, 0)
        return try fetchIDs(whole, of: entity, prefetching: nil).count
    }

    /// Every row's indexed text folded and searched: what a store without a full-text index does.
    func fullTextMatches(_ folded: String, of entity: EntityDescription, among ids: [Int64]?, limit: Int?) throws(StoreError) -> [Int64] {
        guard !folded.isEmpty, !entity.fullTextSlots.isEmpty else { return [] }
        let wanted = ids.map(Set.init)
        var out: [Int64] = []
        for (id, values) in try fetchValues(FetchRequest(entity.name), of: entity, slots: entity.fullTextSlots)
        where wanted?.contains(id) ?? true {
            let hit = values.contains { value in
                if case .string(let s) = value { return TextFolding.fold(s).contains(folded) }
                return false
            }
            if hit { out.append(id) }
        }
        out.sort()
        return limit.map { Array(out.prefix($0)) } ?? out
    }

    func fullTextCount(_ folded: String, of entity: EntityDescription) throws(StoreError) -> Int {
        try fullTextMatches(folded, of: entity, among: nil, limit: nil).count
    }

    func fullTextShareToRead(_ folded: String, of entity: EntityDescription) throws(StoreError) -> Double? { nil }

    func rowsInOrder(_ result: FetchStorage, from: Int, count: Int) throws(StoreError) -> [[Value]?]? { nil }
    func rowsAside(of entity: EntityDescription, ids: [Int64]) -> PendingRows? { nil }
    func scanIDs(_ request: FetchRequest, of entity: EntityDescription) -> IDScan? { nil }

    /// Level by level through ``rows(of:keySlot:equalTo:withRows:)``.
    func descendants(of roots: [Int64], entity: EntityDescription, keySlot: Int) throws(StoreError) -> [(id: Int64, key: Int64)] {
        var seen = Set(roots)
        var out: [(id: Int64, key: Int64)] = []
        var level = Array(seen)
        while !level.isEmpty {
            var next: [Int64] = []
            for owner in level {
                for (id, _) in try rows(of: entity, keySlot: keySlot, equalTo: owner, withRows: false) where seen.insert(id).inserted {
                    next.append(id)
                    out.append((id, owner))
                }
            }
            level = next
        }
        return out
    }

    func descendantRows(of roots: [Int64], entity: EntityDescription, keySlot: Int) throws(StoreError) -> [(id: Int64, row: [Value])] {
        let ids = try descendants(of: roots, entity: entity, keySlot: keySlot).map(\.id)
        return zip(ids, try rows(of: entity, ids: ids, layout: entity.wholeRow)).compactMap { id, row in row.map { (id, $0) } }
    }

    func countDescendants(of root: Int64, entity: EntityDescription, keySlot: Int) throws(StoreError) -> Int {
        try descendants(of: [root], entity: entity, keySlot: keySlot).count
    }
}

/// The change log: how a connection finds what others committed.
protocol ChangeLogStorage: AnyObject {
    /// True when another connection may have committed since the last call (cheap; false positives are
    /// allowed, false negatives are not).
    func mayHaveChangedElsewhere() throws(StoreError) -> Bool
    /// The newest sequence number the change log ever gave (0 when none): pruning never lowers it.
    func latestChange() throws(StoreError) -> Int64
    /// Log entries after `seq` up to the newest number the log gave, in order, and that number. Every
    /// number up to the newest is given to exactly one entry, so a number missing from the entries is one
    /// that was pruned (a reader behind it must re-read everything).
    func changes(after seq: Int64) throws(StoreError) -> (entries: [(seq: Int64, changes: ChangeSet?)], newest: Int64)
    /// For a store opened read-only on a file an older model wrote: true once, when another connection has
    /// migrated the file to this model meanwhile and the store now reads it as it is (everything must be
    /// read again). False for any other store.
    func tookInMigrationElsewhere() throws(StoreError) -> Bool
    /// ``changes(after:)`` with the author each commit named.
    func authoredChanges(after seq: Int64) throws(StoreError) -> (entries: [LoggedCommit], newest: Int64)
}

extension StoreWriter {
    /// For a store type without batch updates.
    func batchUpdate(_ entity: EntityDescription, where predicate: ObjectPredicate, set values: [(slot: Int, value: Value)], author: String?)
        throws(StoreError) -> ChangeSet
    {
        throw StoreError(.invalidRequest, "this store type cannot make batch updates", entity: entity.name)
    }
}

extension StoreWriter where Self: StoreReader {
    /// For a store type without a batch delete of its own: the rows' IDs read, then deleted as a save deletes
    /// them (counts and full-text index kept by `write(_:)`).
    func batchDelete(_ entity: EntityDescription, where predicate: ObjectPredicate, author: String?) throws(StoreError) -> StoreWriteResult {
        let ids = try fetchIDs(FetchRequest(entity.name, where: predicate), of: entity, prefetching: nil)
        guard !ids.isEmpty else { return StoreWriteResult(changes: ChangeSet(), counts: []) }
        var w = StoreWrite()
        w.deletes = ids.map { (entity, $0) }
        w.changes.delete(contentsOf: ids.lazy.map { ObjectID(entity: entity.index, rowID: $0) })
        w.author = author
        return try write(w)
    }
}

extension ChangeLogStorage {
    func tookInMigrationElsewhere() throws(StoreError) -> Bool { false }

    /// For a store type that keeps no authors.
    func authoredChanges(after seq: Int64) throws(StoreError) -> (entries: [LoggedCommit], newest: Int64) {
        let (entries, newest) = try changes(after: seq)
        return (entries.map { LoggedCommit(seq: $0.seq, changes: $0.changes, author: nil) }, newest)
    }
}

/// The shared undo history's rows.
protocol HistoryStorage: AnyObject {
    /// Inside the write transaction: records an action (its entry's sequence number is ignored), after
    /// dropping every action after the newest done one (a new action cuts redo) and, once past `limits`, the
    /// oldest (the new one always kept); returns its sequence number.
    func appendHistory(_ entry: HistoryEntry, step: [UInt8], modelHash: String, limits: HistoryLimits) throws(StoreError) -> Int64
    /// Inside the write transaction: the step of action `sequence`, replaced (a group that spans saves);
    /// false, changing nothing, when that action is gone or no longer done.
    func replaceHistoryStep(_ sequence: Int64, step: [UInt8], objectCount: Int) throws(StoreError) -> Bool
    /// The newest action done (`undone` false), or the oldest undone one (the next to redo), with its
    /// step and the hash of the model that recorded it when `withStep`.
    func historyTop(undone: Bool, withStep: Bool) throws(StoreError) -> (entry: HistoryEntry, step: [UInt8]?, modelHash: String)?
    /// Inside the write transaction: marks an action undone, done again, or skipped for good.
    func setHistoryState(_ sequence: Int64, _ state: HistoryState) throws(StoreError)
    /// Inside the write transaction: forgets action `sequence` if it is the newest (a group that changed
    /// nothing in the end).
    func dropNewestHistory(_ sequence: Int64) throws(StoreError)
    /// Inside the write transaction: forgets every action.
    func clearHistory() throws(StoreError)
    /// The newest actions first, undone ones included.
    func historyEntries(limit: Int) throws(StoreError) -> [HistoryEntry]
    /// How many actions can be undone and redone, and the bytes their steps take.
    func historyTotals() throws(StoreError) -> (undo: Int, redo: Int, bytes: Int)
}

extension HistoryStorage {
    /// Every entry read and added up.
    func historyTotals() throws(StoreError) -> (undo: Int, redo: Int, bytes: Int) {
        var totals = (undo: 0, redo: 0, bytes: 0)
        for entry in try historyEntries(limit: .max) {
            totals.bytes += entry.size
            if entry.state == .done { totals.undo += 1 } else if entry.state == .undone { totals.redo += 1 }
        }
        return totals
    }
}

/// The outbox: saved steps waiting to be sent elsewhere (a replica's).
protocol OutboxStorage: AnyObject {
    /// Starts keeping the outbox (an empty one), or stops and forgets it; in its own write transaction.
    func setOutbox(enabled: Bool) throws(StoreError)
    /// True when the store keeps an outbox (any process may have started it). Inside a write transaction,
    /// true for every save that commits in it.
    func outboxIsEnabled() throws(StoreError) -> Bool
    /// Inside the write transaction: appends a saved step (its `seq` ignored); returns its number.
    func appendOutbox(_ row: OutboxRow) throws(StoreError) -> Int64
    /// The steps numbered after `seq`, oldest first, at most `limit`.
    func outbox(after seq: Int64, limit: Int) throws(StoreError) -> [OutboxRow]
    /// How many steps the outbox holds (0 when the store keeps none).
    func outboxCount() throws(StoreError) -> Int
    /// Forgets the steps numbered up to `seq` (sent): in the write transaction under way, else in its own.
    func removeOutbox(through seq: Int64) throws(StoreError)
}

extension OutboxStorage {
    /// Every step read and counted.
    func outboxCount() throws(StoreError) -> Int { try outbox(after: .min, limit: .max).count }
}

/// Names of objects outside the store (UUIDs a replica shares).
protocol NameStorage: AnyObject {
    /// The UUIDs naming `ids` outside the store (nil where none). With `assign`, those without one get a new
    /// random one, written in the open write transaction or in one of their own.
    func externalIDs(_ ids: [ObjectID], assign: Bool) throws(StoreError) -> [UUID?]
    /// The objects `uuids` name here (nil where none).
    func objects(named uuids: [UUID]) throws(StoreError) -> [ObjectID?]
    /// Names `id` by `uuid`, in the open write transaction or one of its own; false (nothing written) when
    /// `id` has another name or `uuid` names another object still stored (a name whose object is gone moves).
    func name(_ id: ObjectID, _ uuid: UUID) throws(StoreError) -> Bool
}

/// A program's own values, kept beside its objects.
protocol AppValueStorage: AnyObject {
    /// The value a program keeps under `key` beside its objects (nil for none).
    func appValue(_ key: String) throws(StoreError) -> String?
    /// Keeps `value` under `key` (nil removes it), in the open write transaction or one of its own.
    func setAppValue(_ key: String, _ value: String?) throws(StoreError)
    /// The keys that begin with `prefix`, in order.
    func appValueKeys(withPrefix prefix: String) throws(StoreError) -> [String]
    /// The model versions the store was migrated from, oldest first (see `Store.upgradedVersions()`).
    func upgradedVersions() throws(StoreError) -> [Int]
}

/// Checking and repairing what is stored.
protocol StoreUpkeep: AnyObject {
    /// Problems found in the stored data; empty when it is sound. Changes nothing.
    func check() throws(StoreError) -> [StoreProblem]
    /// Repairs what is derived from the rows (maintained counts, the ID allocator, missing required values
    /// with defaults); returns what it changed, as sentences.
    func repairDerived() throws(StoreError) -> [String]
}

/// One unit of work as a store writes it: rows to insert (in runs of one entity, values in slot order),
/// rows to update (the changed slots only, never a maintained count), rows to delete, and the change set
/// to log.
struct StoreWrite {
    /// Runs of new rows: an entity, the rows' IDs and their values in slot order.
    var inserts: [(entity: EntityDescription, ids: [Int64], rows: [[Value]])] = []
    /// Changed rows: which stored slots changed, and the row's values now.
    var updates: [(entity: EntityDescription, id: Int64, slots: [Int], values: [Value])] = []
    var deletes: [(entity: EntityDescription, id: Int64)] = []
    /// How many of the last `deletes` change no count the store maintains: each count-feed key of those
    /// rows names a row this same write deletes (a subtree walked in the write's transaction), so the
    /// store need not read their keys back as it deletes them.
    var uncountedDeletes = 0
    var changes = ChangeSet()
    /// False for a part of a unit written before the rest (`Context.flushRows`): its changes are logged
    /// with the rest, in the unit's one change-log entry.
    var logs = true
    /// Who made the commit (``Context/transactionAuthor``), logged with its changes.
    var author: String?
    /// The inserted rows' folded texts, worked out on another thread while they are written (a big batch).
    var prepared: RowPreparation?
}

/// One entry of a store's change log: its number, what it changed (nil when it cannot be read), the
/// author its commit named and when it was made (nil where the store type keeps no time).
struct LoggedCommit {
    let seq: Int64
    let changes: ChangeSet?
    let author: String?
    var date: Date? = nil
}

/// What a store's ``PersistentStore/write(_:)`` did.
struct StoreWriteResult {
    /// The unit's change set, with the maintained counts it changed added.
    var changes: ChangeSet
    /// Every maintained count the write set or changed, as stored when it ran.
    var counts: [MaintainedCount]
}

/// A count the store maintains, as one write left it.
struct MaintainedCount {
    /// One count: the owner row and the slot of its count.
    struct Key: Hashable, Comparable {
        let entity: Int
        let slot: Int
        let id: Int64

        static func < (a: Key, b: Key) -> Bool { (a.entity, a.slot, a.id) < (b.entity, b.slot, b.id) }
    }

    let id: ObjectID
    let slot: Int
    let value: Int64
}
