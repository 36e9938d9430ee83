import GRDB

extension MaintainedCounts {
    /// Writes every increment not taken by an inserted owner (owners in `gone` were deleted by this save and
    /// are skipped) and returns each count's new value. An owner that no longer exists is skipped too: a
    /// member still pointing to it fails the deferred foreign key check at commit.
    mutating func write(_ db: Database, store: SQLiteStore, skipping gone: Set<ObjectID>) throws -> [Result] {
        var out: [Result] = []
        for (key, delta) in takeIncrements(skipping: gone) {
            let id = ObjectID(entity: key.entity, rowID: key.id)
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
