import GRDB

extension SQLiteStore {
    /// Verifies the store without changing it: SQLite's `integrity_check`, every foreign key pointing to a
    /// row that exists, the ID allocator above every stored ID, and every maintained count equal to its
    /// members.
    func check() throws(StoreError) -> [StoreProblem] {
        do {
            return try read { db in
                var out: [StoreProblem] = []
                for line in try String.fetchAll(db, sql: "PRAGMA integrity_check") where line != "ok" {
                    out.append(StoreProblem(.integrity, "SQLite: \(line)"))
                }
                for e in model.entities {
                    for slot in e.storedSlots {
                        guard let r = e.relationshipOfSlot[slot] else { continue }
                        let dest = model.entities[r.destination]
                        let column = Schema.quote(e.properties[slot].name)
                        let sql =
                            "SELECT id, \(column) FROM \(Schema.quote(e.name)) WHERE \(column) IS NOT NULL "
                            + "AND \(column) NOT IN (SELECT id FROM \(Schema.quote(dest.name))) ORDER BY id"
                        for row in try Row.fetchAll(db, sql: sql) {
                            let id: Int64 = row[0], target: Int64 = row[1]
                            out.append(.dangling(e, id, slot, dest, target))
                        }
                    }
                }
                for (e, a) in requiredWithDefaults() {
                    let sql = "SELECT id FROM \(Schema.quote(e.name)) WHERE \(Schema.quote(a.name)) IS NULL ORDER BY id"
                    for id in try Int64.fetchAll(db, sql: sql) {
                        out.append(.missing(e, id, a.name))
                    }
                }
                let next = try Int64.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'next_id'")
                let unused = try SQLiteStore.smallestUnusedID(db, model)
                if let problem = StoreProblem.allocator(next: next, unused: unused) { out.append(problem) }
                for s in try MaintainedCounts.stale(db, model: model) {
                    out.append(.staleCount(model, s.id, s.slot, stored: s.stored, actual: s.actual))
                }
                out += try checkFullText(db)
                out += try checkHistory(db)
                return out
            }
        } catch {
            throw StoreError.wrap(error, "cannot check the store", path: path)
        }
    }

    /// Repairs what is derived from the rows: every maintained count is counted again and the ID
    /// allocator is set above every stored ID. Runs inside the open write transaction when there is one
    /// (so it commits or rolls back with the rest of a repair), else in one of its own. Returns what it
    /// changed, as sentences.
    func repairDerived() throws(StoreError) -> [String] {
        func repair(_ db: Database) throws -> [String] {
            var done: [String] = []
            var filled = 0
            for (e, a) in requiredWithDefaults() {
                try db.execute(
                    sql:
                        "UPDATE \(Schema.quote(e.name)) SET \(Schema.quote(a.name)) = \(Schema.literal(a.defaultValue)) WHERE \(Schema.quote(a.name)) IS NULL"
                )
                filled += db.changesCount
            }
            if filled > 0 { done.append("gave \(filled) missing required value\(filled == 1 ? "" : "s") their defaults") }
            let recounted = try MaintainedCounts.recount(db, model: model)
            if recounted > 0 { done.append("counted again \(recounted) stored count\(recounted == 1 ? "" : "s") that were wrong") }
            let unused = try SQLiteStore.smallestUnusedID(db, model)
            let next = try Int64.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = 'next_id'")
            if next == nil || next! < unused {
                try db.execute(sql: "INSERT OR REPLACE INTO og_metadata(key, value) VALUES ('next_id', ?)", arguments: [unused])
                done.append("set the ID allocator to #\(unused)")
            }
            if try !checkFullText(db).isEmpty {
                let built = try SQLiteStore.buildFullText(db, model, force: true)
                done.append("built the search index of \(built.joined(separator: ", ")) again")
            }
            done += try repairHistory(db)
            return done
        }
        do {
            if let db = transaction { return try repair(db) }
            return try withWriteTransaction(repair)
        } catch {
            throw StoreError.wrap(error, "cannot repair the store", path: path)
        }
    }

    /// Required stored attributes that have a default, by entity.
    private func requiredWithDefaults() -> [(EntityDescription, Attribute)] {
        model.entities.flatMap { e in
            e.storedSlots.compactMap { slot in
                e.properties[slot].attribute.flatMap { a in !a.isOptional && !a.defaultValue.isNull ? (e, a) : nil }
            }
        }
    }
}
