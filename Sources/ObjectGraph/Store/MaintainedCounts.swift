/// The counts a save must change (see ``Attribute/count(_:of:)``), gathered from what a store type's
/// statements find while its write transaction is open, and then written as increments (the bookkeeping
/// every store type shares; SQLite's statements are in `MaintainedCounts+SQLite`). Increments commute,
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

    /// The owners of every increment still to write (`takeIncrements`'s keys, before it drops those at 0).
    func owners() -> Set<ObjectID> {
        var out = Set(deltas.keys.lazy.map { ObjectID(entity: $0.entity, rowID: $0.id) })
        for (k, owners) in inserted.enumerated() {
            for id in owners.keys { out.insert(ObjectID(entity: targets[k].entity, rowID: id)) }
        }
        return out
    }

    /// Every increment to write, in a stable order, once the save's inserts have taken theirs: the members
    /// inserted under owners that already exist, and the members that left or joined an owner. Owners in
    /// `gone` (deleted by this save) are left out. Empties the bookkeeping.
    mutating func takeIncrements(skipping gone: Set<ObjectID>) -> [(key: Key, delta: Int64)] {
        for (k, owners) in inserted.enumerated() {
            for (id, n) in owners { deltas[Key(entity: targets[k].entity, slot: targets[k].slot, id: id), default: 0] += n }
        }
        inserted = []
        targets = []
        var out: [(key: Key, delta: Int64)] = []
        for key in deltas.keys.sorted() {
            let delta = deltas[key]!
            guard delta != 0, !gone.contains(ObjectID(entity: key.entity, rowID: key.id)) else { continue }
            out.append((key, delta))
        }
        deltas = [:]
        return out
    }
}
