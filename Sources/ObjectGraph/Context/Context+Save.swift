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

    /// Runs `edit` and saves what it changed as one unit of work, inside one write transaction that
    /// begins before `edit` reads anything: commits made elsewhere first reach this context (as `poll`
    /// would bring them), then no other connection can commit until this one has. So whatever `edit`
    /// derives from what it reads (the last sibling, a position) is still true when its changes are
    /// written. On any failure nothing is written, the unit's changes are rolled back and the undo
    /// history is kept. `save()` cannot be called inside it.
    ///
    /// ```swift
    /// try context.transaction(actionName: "Add “Milk”") {
    ///     let last = try context.fetch(lastSiblingRequest).first
    ///     …
    /// }
    /// ```
    @discardableResult
    public func transaction<T>(actionName: String? = nil, _ edit: () throws -> T) throws -> T {
        var result: T?
        var unit: UnitOfWork?
        var commit: Commit?
        reservedInTransaction = false
        do {
            try store.writeTransaction { db in
                // Foreign commits first, so objects read before this transaction show what is stored now.
                try store.poll()
                // Named first, so the edit can rename the step once it knows what it did.
                if let actionName { pendingActionName = actionName }
                result = try edit()
                unit = try prepareSave()
                if let unit { commit = try write(unit, db) }
            }
        } catch {
            // IDs reserved inside the transaction were rolled back with it: never hand them out.
            if reservedInTransaction { freshIDs = 0..<0 }
            // Diagnosed while the objects still hold what failed to be written.
            let reported = unit != nil && error is DatabaseError ? diagnose(error, unit!) : error
            discardChanges()
            throw reported
        }
        if let commit { didCommit(commit) } else { clearLists() }
        return result!
    }

    /// Names the undo step of the unit of work being built ("Delete “Work” and 12 sub-items"): for an action
    /// whose name depends on what the unit reads.
    public func setActionName(_ name: String) {
        pendingActionName = name
    }

    private func saveChanges() throws {
        precondition(!store.isInTransaction, "save() inside Context.transaction: the transaction saves when it ends")
        guard let unit = try prepareSave() else {
            clearLists()
            return
        }
        let commit: Commit
        do {
            commit = try store.writeTransaction { db in try write(unit, db) }
        } catch {
            throw diagnose(error, unit)
        }
        didCommit(commit)
    }

    /// What one save writes, validated.
    struct UnitOfWork {
        let live: [ManagedObject]
        let changed: [ManagedObject]
        let gone: [ManagedObject]
        var changes: ChangeSet
    }

    /// What a save's transaction did, for the bookkeeping after its commit.
    struct Commit {
        let unit: UnitOfWork
        let seq: Int64
        let counts: [MaintainedCounts.Result]
    }

    /// The unit of work to save, validated; nil when there is nothing to write.
    private func prepareSave() throws -> UnitOfWork? {
        let live = inserted.filter { !$0.isDeleted }
        let changed = updated.filter { !$0.isDeleted && !$0.isInserted && $0.hasChanges }
        let gone = deleted
        if live.isEmpty && changed.isEmpty && gone.isEmpty && pendingRows.isEmpty { return nil }
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
        return UnitOfWork(live: live, changed: changed, gone: gone, changes: changes)
    }

    /// Writes a unit of work in the open transaction: its rows, the counts the store maintains, and its
    /// change-log entry. Changes nothing in memory, so a failed commit leaves the context as it was.
    private func write(_ unit: UnitOfWork, _ db: Database) throws -> Commit {
        var counts = MaintainedCounts()
        for o in unit.live where !o.entity.countFeeds.isEmpty { counts.countInserted(o.entity, o.values) }
        for (e, _, rows) in pendingRows where !e.countFeeds.isEmpty {
            for row in rows { counts.countInserted(e, row) }
        }
        try writeDeletes(db, unit.gone, &counts)
        try writeInserts(db, unit.live, &counts)
        try writeRows(db, &counts)
        try writeUpdates(db, unit.changed, &counts)
        var changes = unit.changes
        var results = counts.written
        if counts.hasIncrements {
            let updated = try counts.write(db, store: store, skipping: Set(unit.gone.map(\.objectID)))
            for r in updated { changes.update(r.id, PropertyMask(slot: r.slot)) }
            results += updated
        }
        let seq = changes.isEmpty ? 0 : try store.log(changes, db)
        var done = unit
        done.changes = changes
        return Commit(unit: done, seq: seq, counts: results)
    }

    /// After the commit: the context takes in what was written, records the undo step and tells observers,
    /// controllers and the store's other contexts.
    private func didCommit(_ commit: Commit) {
        let (live, changed, gone, changes) = (commit.unit.live, commit.unit.changed, commit.unit.gone, commit.unit.changes)
        if commit.seq == store.changeCursor + 1 {
            store.changeCursor = commit.seq  // nobody else committed in between: nothing to skip later
        } else if commit.seq > 0 {
            store.ownCommits.insert(commit.seq)
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
        for o in gone { forget(o) }
        // Counts as the transaction left them (it may have seen members other processes added).
        for r in commit.counts {
            rowCache[r.id] = nil
            guard let o = registered[r.id] else { continue }
            if !o.isFault {
                o.values[r.slot] = .integer(r.value)
            } else if o.prefetched != nil || !o.values.isEmpty {
                o.turnIntoFault()
            }
        }
        clearLists()
        for block in observers.values { block(changes) }
        store.deliver(changes, from: self)
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
    private func writeInserts(_ db: Database, _ objects: [ManagedObject], _ counts: inout MaintainedCounts) throws {
        var start = 0
        while start < objects.count {
            // A run of one entity (objects are inserted in runs, e.g. an import's items).
            let e = objects[start].entity
            var end = start + 1
            while end < objects.count && objects[end].entity === e { end += 1 }
            let first = start
            try writeRun(db, e, count: end - start, &counts) { i in
                let o = objects[first + i]
                return (o.objectID.rowID, o.values)
            }
            start = end
        }
    }

    private func writeRows(_ db: Database, _ counts: inout MaintainedCounts) throws {
        for (e, ids, rows) in pendingRows {
            try writeRun(db, e, count: rows.count, &counts) { i in (ids[i].rowID, rows[i]) }
        }
    }

    /// Rows of one INSERT statement, when there are that many left; the rest go one by one.
    static let rowsPerInsert = 32

    /// Writes `count` rows of `e`; `row(i)` gives row `i`'s ID and values in slot order. A count the store
    /// maintains is written as the number of its members this save inserts (see `MaintainedCounts`).
    private func writeRun(
        _ db: Database, _ e: EntityDescription, count: Int, _ counts: inout MaintainedCounts, _ row: (Int) -> (Int64, [Value])
    ) throws {
        let width = Int32(e.storedSlots.count + 1)
        let maintained = e.maintainedMask != 0
        var start = 0
        while start < count {
            let n = count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
            let stmt = try store.statement(db, insertSQL(e, rows: n))
            for i in 0..<n {
                let (id, values) = row(start + i)
                var column = 1 + Int32(i) * width
                stmt.bind(id, at: column)
                column += 1
                for slot in e.storedSlots {
                    if maintained && e.isMaintained(slot) {
                        stmt.bind(.integer(counts.take(e.index, slot: slot, id: id)), at: column)
                    } else {
                        stmt.bind(values[slot], at: column)
                    }
                    column += 1
                }
            }
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

    /// Writes the changed columns of each object (never a maintained count). A row that is gone was deleted
    /// elsewhere since it was read: the save fails rather than report a change nobody can see. A changed
    /// foreign key that a count follows moves one member from the owner the store holds to the new one.
    private func writeUpdates(_ db: Database, _ objects: [ManagedObject], _ counts: inout MaintainedCounts) throws {
        for o in objects {
            guard let committed = o.committed else { continue }
            let e = o.entity
            let slots = e.storedSlots.filter { committed[$0] != o.values[$0] && !e.isMaintained($0) }
            if slots.isEmpty { continue }
            for feed in e.countFeeds where slots.contains(feed.keySlot) {
                // The key as stored now, not as this context read it: another process may have moved it.
                let read = try store.statement(db, "SELECT \(Schema.quote(e.properties[feed.keySlot].name)) FROM \(Schema.quote(e.name)) WHERE id = ?")
                read.bind(o.objectID.rowID, at: 1)
                let old: Value = try read.step(db) ? read.value(at: 0, as: .integer64) : .null
                read.reset()
                let new = o.values[feed.keySlot]
                guard old != new else { continue }
                if case .integer(let p) = old { counts.add(feed, owner: p, -1) }
                if case .integer(let p) = new { counts.add(feed, owner: p, 1) }
            }
            let sql = "UPDATE \(Schema.quote(e.name)) SET "
                + slots.map { "\(Schema.quote(e.properties[$0].name)) = ?" }.joined(separator: ", ") + " WHERE id = ?"
            let stmt = try store.statement(db, sql)
            for (k, slot) in slots.enumerated() { stmt.bind(o.values[slot], at: Int32(k + 1)) }
            stmt.bind(o.objectID.rowID, at: Int32(slots.count + 1))
            try stmt.run(db)
            if db.changesCount == 0 {
                throw StoreError(.conflict, "cannot save: \(e.name) \(o.objectID) was deleted elsewhere", path: store.path, entity: e.name)
            }
        }
    }

    /// Deletes each object's row. For an entity whose keys feed counts, the statement returns the keys as
    /// stored, so the counts that lose a member are the ones the store says, not the ones this context read.
    private func writeDeletes(_ db: Database, _ objects: [ManagedObject], _ counts: inout MaintainedCounts) throws {
        for o in objects {
            let e = o.entity
            if e.countFeeds.isEmpty {
                let stmt = try store.statement(db, "DELETE FROM \(Schema.quote(e.name)) WHERE id = ?")
                stmt.bind(o.objectID.rowID, at: 1)
                try stmt.run(db)
                continue
            }
            let keys = e.countFeeds.map { Schema.quote(e.properties[$0.keySlot].name) }.joined(separator: ", ")
            let stmt = try store.statement(db, "DELETE FROM \(Schema.quote(e.name)) WHERE id = ? RETURNING \(keys)")
            stmt.bind(o.objectID.rowID, at: 1)
            guard try stmt.step(db) else { continue }  // already deleted elsewhere
            for (k, feed) in e.countFeeds.enumerated() {
                let owner = stmt.int64(at: Int32(k))
                if case .integer = stmt.value(at: Int32(k), as: .integer64) { counts.add(feed, owner: owner, -1) }
            }
            stmt.reset()
        }
    }

    /// Turns a failed write into an error that names the entity and property at fault.
    private func diagnose(_ error: any Error, _ unit: UnitOfWork) -> any Error {
        if error is StoreError { return error }
        let (live, changed, gone) = (unit.live, unit.changed, unit.gone)
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
            // A fault in the list changed only inverse sides: it holds no key of its own to blame.
            for o in live + changed where !o.isFault {
                for slot in o.entity.storedSlots {
                    guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot] else { continue }
                    let target = ObjectID(entity: r.destination, rowID: t)
                    if deletedIDs.contains(target) {
                        e.entity = o.entity.name
                        e.object = o.objectID
                        e.property = o.entity.properties[slot].name
                        e.message = "cannot save: \(o.entity.name) \(o.objectID).\(e.property!) still refers to deleted \(model.entities[r.destination].name) \(target)"
                        return e
                    }
                }
            }
            // Or to a row deleted elsewhere since this context read it (the transaction is over: read now).
            for o in live + changed where !o.isFault {
                for slot in o.entity.storedSlots {
                    guard let r = o.entity.properties[slot].relationship, case .integer(let t) = o.values[slot],
                        let found = try? loadRows(entity: model.entities[r.destination], ids: [t]), found.first! == nil
                    else { continue }
                    e.entity = o.entity.name
                    e.object = o.objectID
                    e.property = o.entity.properties[slot].name
                    e.message = "cannot save: \(o.entity.name) \(o.objectID).\(e.property!) refers to \(model.entities[r.destination].name) #\(t), deleted elsewhere"
                    return e
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
