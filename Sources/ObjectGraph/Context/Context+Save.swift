import Foundation
import GRDB

extension Context {
    /// Validates every changed object, then writes all changes in one SQLite transaction and publishes
    /// the change set. On failure nothing is written and the context keeps its changes.
    ///
    /// Throws ``ValidationFailure`` (every broken rule) or ``StoreError``.
    public func save() throws {
        try saveChanges()
    }

    /// Saves, naming the unit of work for undo ("Add “Milk”").
    public func save(actionName: String) throws {
        pendingActionName = actionName
        try saveChanges()
    }

    /// Saves without making an undo step: for set-up work the user did not ask for (creating a root
    /// object, migrations of data).
    public func saveWithoutUndo() throws {
        let was = isApplyingHistory
        isApplyingHistory = true
        defer { isApplyingHistory = was }
        try saveChanges()
    }

    private func saveChanges() throws {
        let live = inserted.filter { !$0.isDeleted }
        let changed = updated.filter { !$0.isDeleted && !$0.isInserted && $0.hasChanges }
        let gone = deleted
        if live.isEmpty && changed.isEmpty && gone.isEmpty && pendingRows.isEmpty {
            clearLists()
            return
        }
        var errors: [ValidationError] = []
        for o in live { validate(o, into: &errors) }
        for o in changed where o.committed != nil { validate(o, into: &errors) }
        for o in gone { validateDelete(o, into: &errors) }
        validateRows(into: &errors)
        if !errors.isEmpty { throw ValidationFailure(errors: errors) }

        var changes = ChangeSet()
        changes.insert(contentsOf: live.lazy.map(\.objectID))
        for (_, ids, _) in pendingRows { changes.insert(contentsOf: ids) }
        for o in changed {
            let mask = o.changedMask
            if !mask.isEmpty { changes.update(o.objectID, mask) }
        }
        for o in gone { changes.delete(o.objectID) }

        var seq: Int64 = 0
        do {
            try store.queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try writeDeletes(db, gone)
                    try writeInserts(db, live)
                    try writeRows(db)
                    try writeUpdates(db, changed)
                    if !changes.isEmpty { seq = try store.log(changes, db) }
                    return .commit
                }
            }
            if seq == store.changeCursor + 1 {
                store.changeCursor = seq  // nobody else committed in between: nothing to skip later
            } else if seq > 0 {
                store.ownCommits.insert(seq)
            }
        } catch {
            throw diagnose(error, live: live, changed: changed, gone: gone)
        }
        generation += 1

        if !isApplyingHistory {
            var step = UndoRecord(name: pendingActionName ?? "")
            for o in live { step.append(o.objectID, before: nil, after: o.values) }
            for (_, ids, rows) in pendingRows { for (id, row) in zip(ids, rows) { step.append(id, before: nil, after: row) } }
            for o in changed where o.committed != nil { step.append(o.objectID, before: o.committed, after: o.values) }
            for o in gone { step.append(o.objectID, before: o.committed ?? o.values, after: nil) }
            undoHistory.record(step)
        }
        pendingActionName = nil

        for o in live {
            o.isInserted = false
            commitRelations(o)
        }
        for o in updated {
            o.committed = nil
            commitRelations(o)
            o.isInUpdatedList = false
        }
        forgetRelationsTouchedByRows()
        for o in gone {
            registered[o.objectID] = nil
            rowCache[o.objectID] = nil
            o.context = nil
        }
        clearLists()
        for block in observers.values { block(changes) }
        notifyControllers(changes, local: true)
        store.broadcast(changes, from: self)
    }

    private func clearLists() {
        for o in updated { o.isInUpdatedList = false }
        inserted = []
        updated = []
        deleted = []
    }

    private func commitRelations(_ o: ManagedObject) {
        if !o.relations.isEmpty {
            for slot in o.relations.keys { o.relations[slot]!.commit() }
        }
        o.relationMask = 0
    }

    // MARK: - Writing

    /// Inserts go several rows to a statement (`rowsPerInsert`): in a transaction of many statements,
    /// SQLite opens a statement journal for each run of an INSERT that can fail a constraint, and with the
    /// stepping in, halting and resetting that was most of the cost of a small row.
    private func writeInserts(_ db: Database, _ objects: [ManagedObject]) throws {
        var start = 0
        while start < objects.count {
            // A run of one entity (objects are inserted in runs, e.g. an import's items).
            let e = objects[start].entity
            var end = start + 1
            while end < objects.count && objects[end].entity === e { end += 1 }
            try writeRun(db, e, count: end - start) { i, stmt, k in
                let o = objects[start + i]
                stmt.bind(o.objectID.rowID, at: k)
                let values = o.values
                var column = k + 1
                for slot in e.storedSlots {
                    stmt.bind(values[slot], at: column)
                    column += 1
                }
            }
            start = end
        }
    }

    private func writeRows(_ db: Database) throws {
        for (e, ids, rows) in pendingRows {
            try writeRun(db, e, count: rows.count) { i, stmt, k in
                stmt.bind(ids[i].rowID, at: k)
                let row = rows[i]
                var column = k + 1
                for slot in e.storedSlots {
                    stmt.bind(row[slot], at: column)
                    column += 1
                }
            }
        }
    }

    /// Rows of one INSERT statement, when there are that many left; the rest go one by one.
    static let rowsPerInsert = 32

    /// Writes `count` rows of `e`; `bind(i, statement, k)` binds row `i`'s ID and stored values from
    /// parameter `k` on.
    private func writeRun(_ db: Database, _ e: EntityDescription, count: Int, _ bind: (Int, RawStatement, Int32) -> Void) throws {
        let width = Int32(e.storedSlots.count + 1)
        var start = 0
        while start < count {
            let n = count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
            let stmt = try store.statement(db, insertSQL(e, rows: n))
            for i in 0..<n { bind(start + i, stmt, 1 + Int32(i) * width) }
            try stmt.run(db)
            start += n
        }
    }

    /// `INSERT INTO <entity> (<columns>) VALUES (?, …), …` for `rows` rows, built once per store.
    private func insertSQL(_ e: EntityDescription, rows: Int) -> String {
        let key = e.index << 16 | rows
        if let sql = store.insertSQL[key] { return sql }
        let row = "(" + Array(repeating: "?", count: e.storedSlots.count + 1).joined(separator: ",") + ")"
        let sql = "INSERT INTO \"\(e.name)\" (\(e.selectColumns)) VALUES " + Array(repeating: row, count: rows).joined(separator: ",")
        store.insertSQL[key] = sql
        return sql
    }

    private func writeUpdates(_ db: Database, _ objects: [ManagedObject]) throws {
        for o in objects {
            guard let committed = o.committed else { continue }
            let slots = o.entity.storedSlots.filter { committed[$0] != o.values[$0] }
            if slots.isEmpty { continue }
            let sql = "UPDATE \"\(o.entity.name)\" SET "
                + slots.map { "\"\(o.entity.properties[$0].name)\" = ?" }.joined(separator: ", ") + " WHERE id = ?"
            let stmt = try store.statement(db, sql)
            for (k, slot) in slots.enumerated() { stmt.bind(o.values[slot], at: Int32(k + 1)) }
            stmt.bind(o.objectID.rowID, at: Int32(slots.count + 1))
            try stmt.run(db)
        }
    }

    private func writeDeletes(_ db: Database, _ objects: [ManagedObject]) throws {
        for o in objects {
            let stmt = try store.statement(db, "DELETE FROM \"\(o.entity.name)\" WHERE id = ?")
            stmt.bind(o.objectID.rowID, at: 1)
            try stmt.run(db)
        }
    }

    /// Turns a failed write into an error that names the entity and property at fault.
    private func diagnose(_ error: any Error, live: [ManagedObject], changed: [ManagedObject], gone: [ManagedObject]) -> any Error {
        var e = StoreError.wrap(error, "cannot save", path: store.path)
        switch e.code {
        case .uniqueConstraint:
            // SQLite says "UNIQUE constraint failed: Entity.column[, Entity.column]".
            if let msg = e.sqliteMessage, let r = msg.range(of: "failed: ") {
                let parts = msg[r.upperBound...].split(separator: ",")[0].split(separator: ".")
                if parts.count == 2 {
                    e.entity = String(parts[0]).trimmingCharacters(in: .whitespaces)
                    e.property = String(parts[1])
                    e.message = "cannot save: another \(e.entity!) already has this \(e.property!)"
                }
            }
        case .foreignKey:
            // Deferred keys fail at commit without saying which row: find the dangling reference ourselves.
            let deletedIDs = Set(gone.map(\.objectID))
            for o in live + changed {
                for slot in o.entity.storedSlots {
                    guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot] else { continue }
                    let target = ObjectID(entity: r.destination, rowID: t)
                    if deletedIDs.contains(target) {
                        e.entity = o.entity.name
                        e.property = o.entity.properties[slot].name
                        e.message = "cannot save: \(o.entity.name) \(o.objectID).\(e.property!) still refers to deleted \(model.entities[r.destination].name) \(target)"
                        return e
                    }
                }
            }
            for o in gone {
                for p in o.entity.properties {
                    guard let r = p.relationship, r.deleteRule == .noAction, !r.storesForeignKey,
                        let left = o.members(slot: p.slot).sorted().first
                    else { continue }
                    e.entity = o.entity.name
                    e.property = p.name
                    e.message = "cannot save: deleted \(o.entity.name) \(o.objectID) is still referred to by \(model.entities[r.destination].name) #\(left) through \(p.name) (no-action rule)"
                    return e
                }
            }
        default: break
        }
        return e
    }
}
