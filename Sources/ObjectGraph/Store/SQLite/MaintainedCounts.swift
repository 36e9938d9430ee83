import GRDB

/// The counts a save must change (see ``Attribute/count(_:of:)``), gathered from what its statements find
/// in the store while its write transaction is open, and then written as increments. Increments commute,
/// so two processes changing one count never lose each other's change.
struct MaintainedCounts {
    typealias Key = MaintainedCount.Key
    typealias Result = MaintainedCount

    /// Members written by this save's inserts, per count (owner entity and slot, a short list searched in
    /// order) and owner row: an owner inserted in the same save is written with its count, an existing one
    /// gets the number as an increment. Kept apart from `deltas` with plain integer keys, because an import
    /// touches it twice per row.
    private var targets: [(entity: Int, slot: Int)] = []
    private var inserted: [[Int64: Int64]] = []
    /// Increments for owners that already exist.
    private(set) var deltas: [Key: Int64] = [:]

    @inline(__always)
    private mutating func target(_ entity: Int, _ slot: Int) -> Int {
        if let k = targets.firstIndex(where: { $0.entity == entity && $0.slot == slot }) { return k }
        targets.append((entity, slot))
        inserted.append([:])
        return targets.count - 1
    }

    /// True when some count must still be written as an increment.
    var hasIncrements: Bool { inserted.contains { !$0.isEmpty } || !deltas.isEmpty }

    /// Counts the members of an inserted row (its keys in `row`, in slot order).
    mutating func countInserted(_ entity: EntityDescription, _ row: [Value]) {
        for feed in entity.countFeeds {
            if case .integer(let owner) = row[feed.keySlot] {
                inserted[target(feed.owner, feed.ownerSlot)][owner, default: 0] += 1
            }
        }
    }

    /// Counts written with inserted owner rows (not zero), for the objects in memory.
    private(set) var written: [Result] = []

    /// The count to write with an inserted owner row: the members inserted with it. Whatever is not
    /// taken here belongs to owners that already exist.
    mutating func take(_ entity: Int, slot: Int, id: Int64) -> Int64 {
        guard let k = targets.firstIndex(where: { $0.entity == entity && $0.slot == slot }),
            let n = inserted[k].removeValue(forKey: id)
        else { return 0 }
        written.append(Result(id: ObjectID(entity: entity, rowID: id), slot: slot, value: n))
        return n
    }

    /// A member left `owner` (its key held `old`) or joined it.
    mutating func add(_ feed: CountFeed, owner: Int64, _ delta: Int64) {
        deltas[Key(entity: feed.owner, slot: feed.ownerSlot, id: owner), default: 0] += delta
    }

    /// Writes every increment not taken by an inserted owner (owners in `gone` were deleted by this save and
    /// are skipped) and returns each count's new value. An owner that no longer exists is skipped too: a
    /// member still pointing to it fails the deferred foreign key check at commit.
    mutating func write(_ db: Database, store: SQLiteStore, skipping gone: Set<ObjectID>) throws -> [Result] {
        for (k, owners) in inserted.enumerated() {
            for (id, n) in owners { deltas[Key(entity: targets[k].entity, slot: targets[k].slot, id: id), default: 0] += n }
        }
        inserted = []
        targets = []
        var out: [Result] = []
        for key in deltas.keys.sorted() {
            let delta = deltas[key]!
            let id = ObjectID(entity: key.entity, rowID: key.id)
            guard delta != 0, !gone.contains(id) else { continue }
            let e = store.model.entities[key.entity]
            let column = Schema.quote(e.properties[key.slot].name)
            let stmt = try store.statement(db, "UPDATE \(Schema.quote(e.name)) SET \(column) = \(column) + ? WHERE id = ? RETURNING \(column)")
            stmt.bind(.integer(delta), at: 1)
            stmt.bind(key.id, at: 2)
            if try stmt.step(db) {
                out.append(Result(id: id, slot: key.slot, value: stmt.int64(at: 0)))
                stmt.reset()
            }
        }
        deltas = [:]
        return out
    }

    /// Every maintained count of `model` that differs from its members counted in the rows: owner, slot,
    /// the stored value (nil when NULL) and the real one.
    static func stale(_ db: Database, model: Model) throws -> [(id: ObjectID, slot: Int, stored: Int64?, actual: Int64)] {
        var out: [(id: ObjectID, slot: Int, stored: Int64?, actual: Int64)] = []
        for (member, feed) in feeds(model) {
            let (table, column, actual) = recountSQL(model, member, feed)
            for row in try Row.fetchAll(db, sql: "SELECT id, \(column), \(actual) FROM \(table) WHERE \(column) IS NOT \(actual)") {
                out.append((ObjectID(entity: feed.owner, rowID: row[0]), feed.ownerSlot, row[1], row[2]))
            }
        }
        return out
    }

    /// Sets every maintained count of `model` from its members counted in the rows (a repair, in the
    /// caller's transaction). Returns how many counts changed.
    static func recount(_ db: Database, model: Model) throws -> Int {
        var changed = 0
        for (member, feed) in feeds(model) {
            let (table, column, actual) = recountSQL(model, member, feed)
            try db.execute(sql: "UPDATE \(table) SET \(column) = \(actual) WHERE \(column) IS NOT \(actual)")
            changed += db.changesCount
        }
        return changed
    }

    /// The statement that sets the count in `slot` of every `owner` row from its members (for a migration).
    static func recountStatement(_ model: Model, owner: EntityDescription, slot: Int) -> String? {
        guard let (member, feed) = feeds(model).first(where: { $0.1.owner == owner.index && $0.1.ownerSlot == slot }) else { return nil }
        let (table, column, actual) = recountSQL(model, member, feed)
        return "UPDATE \(table) SET \(column) = \(actual)"
    }

    private static func feeds(_ model: Model) -> [(EntityDescription, CountFeed)] {
        model.entities.flatMap { member in member.countFeeds.map { (member, $0) } }
    }

    /// The owner's table, its count column, and the subquery that counts an owner row's members.
    private static func recountSQL(_ model: Model, _ member: EntityDescription, _ feed: CountFeed) -> (String, String, String) {
        let owner = model.entities[feed.owner]
        let table = Schema.quote(owner.name), column = Schema.quote(owner.properties[feed.ownerSlot].name)
        let key = Schema.quote(member.properties[feed.keySlot].name)
        return (table, column, "(SELECT count(*) FROM \(Schema.quote(member.name)) m WHERE m.\(key) = \(table).id)")
    }
}
