import Foundation

@testable import ObjectGraph

/// A second store type, written only against `PersistentStore` (no SQLite, no change to `Context`), to
/// show that the seam holds: every entity's rows live in a dictionary by row ID, a write transaction works
/// on the tables and rolls back to a copy-on-write snapshot of them when its body throws, and every commit
/// that changes something is appended to a change log.
///
/// Values are kept as SQLite keeps them (its storage classes: NULL, INTEGER, REAL, TEXT, BLOB, after the
/// column's affinity) and read back typed as `SQLiteStore` reads them, so both store types hand the
/// context the same values, compare and sort the same way, and count, check and repair the same way.
///
/// Several `Store`s built on one `MemoryStore` behave like several processes on one file: each has its own
/// cursor into the change log and finds the others' commits with `poll()`.
final class MemoryStore: PersistentStore {
    let model: Model

    /// Everything stored: what a write transaction rolls back to.
    struct State {
        /// By entity index: rows by ID, each a value per slot (slots not stored hold `.null`).
        var tables: [[Int64: [Value]]]
        /// The next row ID the allocator hands out (nil: the allocator is missing, as in a damaged file).
        var nextID: Int64? = 1
        /// The change log, oldest first.
        var log: [(seq: Int64, changes: ChangeSet)] = []
        /// The sequence number of the next log entry (never reused once committed).
        var nextSeq: Int64 = 1
        /// The undo history, oldest first: each action with its encoded step and its model's hash.
        var history: [(entry: HistoryEntry, step: [UInt8], modelHash: String)] = []
        /// The sequence number of the next action.
        var nextAction: Int64 = 1
        /// The outbox, oldest first, when the store keeps one.
        var outbox: [OutboxRow]?
        /// The number of the next outbox step (never reused).
        var nextOutbox: Int64 = 1
        /// External names by row ID, and the other way.
        var names: [Int64: (entity: Int, uuid: UUID)] = [:]
        var named: [UUID: ObjectID] = [:]
        /// A program's own values by key.
        var appValues: [String: String] = [:]
    }

    var state: State
    private var writing = false
    private var snapshotDepth = 0
    /// The log entry of the unit written last in the open transaction (see `finishLog`).
    private var loggedSeq: Int64 = 0
    /// How many change-log entries are kept; older ones are pruned (a reader behind them re-reads
    /// everything, as with SQLite's retention).
    var logLimit: Int

    init(model: Model, logLimit: Int = 4096) {
        self.model = model
        self.logLimit = logLimit
        state = State(tables: Array(repeating: [:], count: model.entities.count))
    }

    /// A `Store` on this backend: call it twice for two "processes" on one store.
    func makeStore() throws(StoreError) -> Store {
        try Store(self, model: model, path: nil, isReadOnly: false)
    }

    // MARK: - Transactions

    var isInTransaction: Bool { writing }
    var isInSnapshot: Bool { writing || snapshotDepth > 0 }

    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        precondition(!writing, "write transactions do not nest")
        precondition(snapshotDepth == 0, "nothing may save while changes are being delivered (from a results controller's batch)")
        let before = state  // copy-on-write: the tables are copied only when the body first changes them
        writing = true
        defer { (writing, loggedSeq) = (false, 0) }
        do {
            return try body()
        } catch {
            state = before
            throw error
        }
    }

    func snapshot<T>(_ body: () throws -> T) throws -> T {
        // One thread, and nothing may save inside a snapshot: every read in `body` sees one state.
        if isInSnapshot { return try body() }
        snapshotDepth += 1
        defer { snapshotDepth -= 1 }
        return try body()
    }

    func reserveIDs(_ count: Int) throws(StoreError) -> Range<Int64> {
        // Outside a write transaction this is a commit of its own; inside one it rolls back with it.
        let start = state.nextID ?? smallestUnusedID()
        state.nextID = start + Int64(count)
        return start..<(start + Int64(count))
    }

    /// One more than the largest ID stored in any table (1 for an empty store).
    private func smallestUnusedID() -> Int64 {
        (state.tables.compactMap { $0.keys.max() }.max() ?? 0) + 1
    }

    // MARK: - Reading

    /// The rows `request` matches, in its order (sort keys, then the ID in the last key's direction), not
    /// windowed. The stored values are in SQLite's storage classes, so `Value.compare` orders them as
    /// SQLite's `ORDER BY` does (NULL first ascending, last descending).
    private func matching(_ request: FetchRequest, _ entity: EntityDescription) -> [(id: Int64, row: [Value])] {
        var out: [(id: Int64, row: [Value])] = []
        for (id, row) in state.tables[entity.index] where request.predicate.evaluate(entity, rowID: id, values: row) {
            out.append((id, row))
        }
        let keys = request.sortKeys.map { key -> (slot: Int, ascending: Bool) in
            guard let p = entity.property(key.key), p.isStored else {
                preconditionFailure("\(entity.name).\(key.key) is not a stored attribute or to-one relationship")
            }
            return (p.slot, key.ascending)
        }
        let idAscending = request.idAscending
        out.sort { a, b in
            for k in keys {
                let c = Value.compare(ObjectPredicate.normalized(a.row[k.slot]), ObjectPredicate.normalized(b.row[k.slot]))
                if c != 0 { return k.ascending ? c < 0 : c > 0 }
            }
            return idAscending ? a.id < b.id : a.id > b.id
        }
        return out
    }

    /// `rows` cut to `limit` rows after `offset` (SQL's `LIMIT … OFFSET …`).
    private func window<T>(_ rows: [T], limit: Int?, offset: Int) -> ArraySlice<T> {
        let start = min(max(offset, 0), rows.count)
        let end = limit.map { $0 < 0 ? rows.count : min(rows.count, start + $0) } ?? rows.count
        return rows[start..<end]
    }

    func fetchIDs(_ request: FetchRequest, of entity: EntityDescription, prefetching rows: PrefetchedRows?) throws(StoreError) -> [Int64] {
        let found = window(matching(request, entity), limit: request.limit, offset: request.offset)
        if let rows {
            let slots = rows.layout.slots, types = rows.layout.columnTypes
            for (_, row) in found {
                for k in 0..<slots.count { rows.values.append(Self.read(row[slots[k]], as: types[k])) }
            }
        }
        return found.map(\.id)
    }

    func fetchValues(_ request: FetchRequest, of entity: EntityDescription, slots: [Int]) throws(StoreError) -> [(id: Int64, values: [Value])] {
        window(matching(request, entity), limit: request.limit, offset: request.offset).map { found in
            (found.id, slots.map { Self.read(found.row[$0], as: entity.typeOfSlot[$0]) })
        }
    }

    func rows(of entity: EntityDescription, ids: [Int64], layout: RowLayout) throws(StoreError) -> [[Value]?] {
        let table = state.tables[entity.index]
        return ids.map { id in table[id].map { decode($0, entity, layout) } }
    }

    func rows(of entity: EntityDescription, keySlot: Int, equalTo owner: Int64, withRows: Bool) throws(StoreError)
        -> [(id: Int64, row: [Value]?)]
    {
        state.tables[entity.index]
            .filter { $0.value[keySlot] == .integer(owner) }
            .sorted { $0.key < $1.key }
            .map { ($0.key, withRows ? decode($0.value, entity, entity.wholeRow) : nil) }
    }

    // Ordered reads, reads aside, background scans, counts and sort keys are optimisations it leaves out,
    // walks down a tree take the protocol's defaults (level by level through the rows above), and full-text
    // search scans every row as a store without an index does.

    // MARK: - Writing

    func write(_ unit: StoreWrite) throws(StoreError) -> StoreWriteResult {
        precondition(writing, "write(_:) outside a write transaction")
        // The bookkeeping every store type shares; only the reads and writes of rows are this store's.
        var counts = MaintainedCounts()
        // Members inserted by this unit, per owner: an owner inserted with them is written with its count.
        for run in unit.inserts where !run.entity.countFeeds.isEmpty {
            for row in run.rows { counts.countInserted(run.entity, row) }
        }
        // Deletes first (a unique value freed by one can be taken by an insert), then inserts, then updates.
        var deleted: [Int: Set<Int64>] = [:]
        for (e, id) in unit.deletes {
            guard let row = state.tables[e.index].removeValue(forKey: id) else { continue }  // deleted elsewhere
            deleted[e.index, default: []].insert(id)
            for feed in e.countFeeds {
                // The key as stored, not as the context read it.
                if case .integer(let owner) = row[feed.keySlot] { counts.add(feed, owner: owner, -1) }
            }
        }
        // Rows whose keys the foreign key check looks at: every key of an inserted row, the changed keys of
        // an updated one (SQLite checks a key only when a statement writes it).
        var touched: [(entity: EntityDescription, id: Int64, slots: [Int])] = []
        for run in unit.inserts {
            let e = run.entity
            for (id, values) in zip(run.ids, run.rows) {
                if state.tables[e.index][id] != nil {  // the primary key
                    throw StoreError(.uniqueConstraint, "cannot save: another \(e.name) already has this id", entity: e.name, property: "id")
                }
                var row = [Value](repeating: .null, count: e.properties.count)
                for slot in e.storedSlots {
                    row[slot] =
                        e.isMaintained(slot) ? .integer(counts.take(e.index, slot: slot, id: id)) : Self.stored(values[slot], as: e.typeOfSlot[slot])
                }
                try checkUnique(e, id, row)
                state.tables[e.index][id] = row
                touched.append((e, id, e.storedSlots))
            }
        }
        for (e, id, slots, values) in unit.updates {
            let current = state.tables[e.index][id]
            for feed in e.countFeeds where slots.contains(feed.keySlot) {
                // The key as stored now: another process may have moved the row since the context read it.
                let old = current.map { Self.read($0[feed.keySlot], as: .integer64) } ?? .null
                let new = values[feed.keySlot]
                guard old != new else { continue }
                if case .integer(let p) = old { counts.add(feed, owner: p, -1) }
                if case .integer(let p) = new { counts.add(feed, owner: p, 1) }
            }
            guard var row = current else {
                throw StoreError(
                    .conflict, "cannot save: \(e.name) #\(id) was deleted elsewhere", entity: e.name,
                    object: ObjectID(entity: e.index, rowID: id))
            }
            for slot in slots { row[slot] = Self.stored(values[slot], as: e.typeOfSlot[slot]) }
            try checkUnique(e, id, row)
            state.tables[e.index][id] = row
            touched.append((e, id, slots))
        }
        var changes = unit.changes
        var results = counts.written
        let gone = Set(unit.deletes.map { ObjectID(entity: $0.entity.index, rowID: $0.id) })
        for (key, delta) in counts.takeIncrements(skipping: gone) {
            let id = ObjectID(entity: key.entity, rowID: key.id)
            // An owner deleted by this unit is skipped, and so is one that is gone: a member still pointing
            // to it fails the foreign key check below.
            guard !gone.contains(id), var row = state.tables[key.entity][key.id] else { continue }
            if case .integer(let n) = row[key.slot] { row[key.slot] = .integer(n + delta) }  // NULL + n stays NULL
            state.tables[key.entity][key.id] = row
            results.append(MaintainedCount(id: id, slot: key.slot, value: Self.int64(row[key.slot])))
            changes.update(id, PropertyMask(slot: key.slot))
        }
        try checkForeignKeys(written: touched, deleted: deleted)
        if !changes.isEmpty && unit.logs {
            loggedSeq = state.nextSeq
            state.nextSeq += 1
            state.log.append((loggedSeq, changes))
            if state.log.count > logLimit { state.log.removeFirst(state.log.count - logLimit) }
        }
        return StoreWriteResult(changes: changes, counts: results)
    }

    /// The entry of the unit written last, logged by `write(_:)` itself (this store's history rows hold none).
    func finishLog() throws(StoreError) -> Int64 {
        defer { loggedSeq = 0 }
        return loggedSeq
    }

    /// Unique attributes and unique compound indexes, checked per row as SQLite's unique indexes are (rows
    /// with a NULL in the index never collide).
    private func checkUnique(_ e: EntityDescription, _ id: Int64, _ row: [Value]) throws(StoreError) {
        var groups: [[Int]] = []
        for slot in e.storedSlots where e.properties[slot].attribute?.isUnique == true { groups.append([slot]) }
        for index in e.indexes where index.isUnique { groups.append(index.properties.compactMap { e.slot($0) }) }
        for slots in groups where !slots.contains(where: { row[$0].isNull }) {
            let clash = state.tables[e.index].contains { other in
                other.key != id && slots.allSatisfy { ObjectPredicate.sqlEqual(other.value[$0], row[$0]) }
            }
            if clash {
                let name = e.properties[slots[0]].name
                throw StoreError(.uniqueConstraint, "cannot save: another \(e.name) already has this \(name)", entity: e.name, property: name)
            }
        }
    }

    /// The deferred foreign key check SQLite makes at commit (made here, at the end of the write, which is
    /// the last thing a unit of work does in its transaction): every key this unit wrote points to a row,
    /// and no row still points to one it deleted. Like SQLite, it does not say which row: the context
    /// finds that out itself (`UnitOfWork.diagnose`).
    private func checkForeignKeys(written: [(entity: EntityDescription, id: Int64, slots: [Int])], deleted: [Int: Set<Int64>]) throws(StoreError) {
        let failed = StoreError(.foreignKey, "cannot save: FOREIGN KEY constraint failed")
        for (e, id, slots) in written {
            guard let row = state.tables[e.index][id] else { continue }
            for slot in slots {
                guard let r = e.relationshipOfSlot[slot], case .integer(let target) = row[slot] else { continue }
                if state.tables[r.destination][target] == nil { throw failed }
            }
        }
        guard !deleted.isEmpty else { return }
        for e in model.entities {
            for slot in e.storedSlots {
                guard let r = e.relationshipOfSlot[slot], let gone = deleted[r.destination] else { continue }
                for row in state.tables[e.index].values {
                    if case .integer(let target) = row[slot], gone.contains(target) { throw failed }
                }
            }
        }
    }

    // MARK: - Changes made elsewhere

    /// Always true (allowed: false positives only make a poll read the log).
    func mayHaveChangedElsewhere() throws(StoreError) -> Bool { true }

    func latestChange() throws(StoreError) -> Int64 { state.nextSeq - 1 }

    func changes(after seq: Int64) throws(StoreError) -> (entries: [(seq: Int64, changes: ChangeSet?)], newest: Int64) {
        let newest = state.nextSeq - 1
        guard newest > seq else { return ([], newest) }
        return (state.log.filter { $0.seq > seq }.map { (seq: $0.seq, changes: Optional($0.changes)) }, newest)
    }

    // MARK: - Upkeep

    /// Nothing to do: the tables are the whole store.
    var heartbeat: (() -> Void)?

    func check() throws(StoreError) -> [StoreProblem] {
        var out: [StoreProblem] = []
        for e in model.entities {
            for slot in e.storedSlots {
                guard let r = e.relationshipOfSlot[slot] else { continue }
                let dest = model.entities[r.destination]
                for (id, row) in state.tables[e.index].sorted(by: { $0.key < $1.key }) {
                    guard case .integer(let target) = row[slot], state.tables[dest.index][target] == nil else { continue }
                    out.append(.dangling(e, id, slot, dest, target))
                }
            }
        }
        for (e, a, slot) in requiredWithDefaults() {
            for id in state.tables[e.index].keys.sorted() where state.tables[e.index][id]![slot].isNull {
                out.append(.missing(e, id, a.name))
            }
        }
        if let problem = StoreProblem.allocator(next: state.nextID, unused: smallestUnusedID()) { out.append(problem) }
        for s in staleCounts() {
            out.append(.staleCount(model, s.id, s.slot, stored: s.stored, actual: s.actual))
        }
        return out
    }

    func repairDerived() throws(StoreError) -> [String] {
        func repair() -> [String] {
            var done: [String] = []
            var filled = 0
            for (e, a, slot) in requiredWithDefaults() {
                for (id, row) in state.tables[e.index] where row[slot].isNull {
                    state.tables[e.index][id]![slot] = Self.stored(a.defaultValue, as: a.type)
                    filled += 1
                }
            }
            if filled > 0 { done.append("gave \(filled) missing required value\(filled == 1 ? "" : "s") their defaults") }
            let stale = staleCounts()
            for s in stale { state.tables[s.id.entity][s.id.rowID]![s.slot] = .integer(s.actual) }
            if !stale.isEmpty { done.append("counted again \(stale.count) stored count\(stale.count == 1 ? "" : "s") that were wrong") }
            let unused = smallestUnusedID()
            if state.nextID == nil || state.nextID! < unused {
                state.nextID = unused
                done.append("set the ID allocator to #\(unused)")
            }
            return done
        }
        if writing { return repair() }
        do {
            return try writeTransaction(repair)
        } catch {
            throw StoreError(.storage, "cannot repair the store: \(error)")
        }
    }

    /// Required stored attributes that have a default, with their slots.
    private func requiredWithDefaults() -> [(EntityDescription, Attribute, Int)] {
        model.entities.flatMap { e in
            e.storedSlots.compactMap { slot in
                e.properties[slot].attribute.flatMap { a in !a.isOptional && !a.defaultValue.isNull ? (e, a, slot) : nil }
            }
        }
    }

    /// Every maintained count that differs from its members counted in the rows.
    private func staleCounts() -> [(id: ObjectID, slot: Int, stored: Int64?, actual: Int64)] {
        var out: [(id: ObjectID, slot: Int, stored: Int64?, actual: Int64)] = []
        for member in model.entities {
            for feed in member.countFeeds {
                var actual: [Int64: Int64] = [:]
                for row in state.tables[member.index].values {
                    if case .integer(let owner) = row[feed.keySlot] { actual[owner, default: 0] += 1 }
                }
                for (id, row) in state.tables[feed.owner].sorted(by: { $0.key < $1.key }) {
                    let stored: Int64? = row[feed.ownerSlot].isNull ? nil : Self.int64(row[feed.ownerSlot])
                    let n = actual[id] ?? 0
                    if stored != n { out.append((ObjectID(entity: feed.owner, rowID: id), feed.ownerSlot, stored, n)) }
                }
            }
        }
        return out
    }

    // MARK: - For tests

    /// The stored values of one row, read typed (nil when there is none): what another program would see.
    func storedRow(_ id: ObjectID) -> [Value]? {
        let e = model.entities[id.entity]
        return state.tables[id.entity][id.rowID].map { decode($0, e, e.wholeRow) }
    }

    /// Changes a stored value behind every context's back, as another tool damaging the file would.
    func damage(_ id: ObjectID, slot: Int, to value: Value) {
        precondition(!writing)
        state.tables[id.entity][id.rowID]?[slot] = Self.stored(value, as: model.entities[id.entity].typeOfSlot[slot])
    }
}
