extension Context {
    /// Reserves `count` permanent IDs of `entity`, for rows added with ``insertRows(_:ids:values:)`` (so
    /// rows of one batch can point to each other).
    public func reserveObjectIDs(_ entity: EntityDescription, count: Int) throws(StoreError) -> [ObjectID] {
        guard count > 0 else { return [] }
        let range = try store.reserveIDs(count)
        return range.map { ObjectID(entity: entity.index, rowID: $0) }
    }

    /// Adds whole rows without making objects (like Core Data's batch insert), for imports. `values` are in
    /// slot order (start from `entity.defaults`); foreign keys hold the row ID of their target. The rows are
    /// validated and written at the next save, in the same transaction as the other changes, and they are
    /// in its change set and undo step; fetches see them only after that save.
    ///
    /// ```swift
    /// let ids = try context.reserveObjectIDs(item, count: 2)
    /// context.insertRows(item, ids: ids, values: [row1, row2])
    /// ```
    public func insertRows(_ entity: EntityDescription, ids: [ObjectID], values: [[Value]]) {
        precondition(ids.count == values.count, "one ID per row")
        precondition(values.allSatisfy { $0.count == entity.properties.count }, "rows must have one value per slot")
        pendingRows.append((entity, ids, values))
    }

    /// Whether rows added with ``insertRows(_:ids:values:)`` wait for the next save or ``flushRows()``.
    public var hasPendingRows: Bool { !pendingRows.isEmpty }

    /// Adds one whole row back without an object (an undo or redo), into the last run of its entity.
    func insertRowBack(_ id: ObjectID, values: [Value]) {
        let e = model.entities[id.entity]
        if let last = pendingRows.indices.last, pendingRows[last].0 === e {
            pendingRows[last].1.append(id)
            pendingRows[last].2.append(values)
        } else {
            pendingRows.append((e, [id], [values]))
        }
    }

    /// Checks batch rows like inserted objects.
    func validateRows(into errors: inout [ValidationError]) {
        for (entity, ids, rows) in pendingRows {
            for (id, row) in zip(ids, rows) {
                validator.validate(values: row, id: id, entity: entity, into: &errors)
                for slot in entity.requiredToOneSlots where row[slot].isNull {
                    errors.append(
                        ValidationError(object: id, entity: entity.name, property: entity.properties[slot].name, rule: .required, value: .null))
                }
            }
        }
    }

    /// After a save: objects that point-to sets may now miss the new rows, so they reload when next read.
    func forgetRelationsTouchedByRows() {
        for (entity, _, rows) in pendingRows {
            for slot in entity.storedSlots {
                guard let r = entity.properties[slot].relationship else { continue }
                var targets = Set<Int64>()
                var last: Int64?
                // Rows of one parent come together: one set insert for each run.
                for row in rows {
                    if case .integer(let t) = row[slot], t != last {
                        targets.insert(t)
                        last = t
                    }
                }
                for t in targets { registered[ObjectID(entity: r.destination, rowID: t)]?.relations[r.inverseSlot] = nil }
            }
        }
        pendingRows = []
    }
}

extension Context {
    /// Writes the rows added with ``insertRows(_:ids:values:)`` so far into the open write transaction, so
    /// this context stops holding them: an import of a million rows, added and flushed a batch at a time,
    /// holds one batch. Only inside ``transaction(actionName:_:)``; the rows are validated now and commit
    /// (or roll back) with the transaction. When the store fails to write them, the transaction fails with
    /// that error, caught or not: some of the rows may be written. They may point to stored rows and to rows flushed before, not to
    /// objects inserted in this unit of work (those are written when it ends, after them). For the undo step each row is kept as its ID and a fingerprint
    /// of its values (undo deletes it only if it still holds them), and in the change set as its ID.
    ///
    /// ```swift
    /// try context.transaction(actionName: "Import") {
    ///     for batch in batches { context.insertRows(item, ids: batch.ids, values: batch.rows); try context.flushRows() }
    /// }
    /// ```
    public func flushRows() throws {
        precondition(store.isInTransaction, "flushRows() outside Context.transaction")
        guard !pendingRows.isEmpty else { return }
        if !inserted.isEmpty {
            let unsaved = Set(inserted.map(\.objectID))
            for (e, _, values) in pendingRows {
                for slot in e.storedSlots {
                    guard let r = e.properties[slot].relationship else { continue }
                    for row in values {
                        if case .integer(let t) = row[slot] {
                            precondition(
                                !unsaved.contains(ObjectID(entity: r.destination, rowID: t)),
                                "flushRows(): a row refers to an object inserted in this unit of work; save that object first")
                        }
                    }
                }
            }
        }
        var errors: [ValidationError] = []
        validateRows(into: &errors)
        if !errors.isEmpty { throw ValidationFailure(errors: errors) }
        var write = StoreWrite(changes: ChangeSet())
        write.logs = false
        let recording = undoHistory.recordsActions && !isApplyingHistory
        // A big batch's fingerprints and folded texts are worked out on another core while its rows are
        // written.
        let prepared =
            pendingRows.reduce(0, { $0 + $1.1.count }) >= RowPreparation.threshold
            ? RowPreparation(pendingRows, fingerprints: recording) : nil
        write.prepared = prepared
        for (e, ids, values) in pendingRows {
            write.inserts.append((e, ids.map(\.rowID), values))
            if recording && prepared == nil {
                // No reserveCapacity(count + ids.count) here: an exact reservation on every batch copied the
                // whole list each time (a million rows: 1.5 GB moved); appending grows it geometrically.
                var scratch = ByteWriter()
                for (id, row) in zip(ids, values) { flushed.fingerprints.append((id, UndoRecord.fingerprint(row, e, scratch: &scratch))) }
            }
        }
        write.changes = ChangeSet()
        for (_, ids, _) in pendingRows { write.changes.insert(contentsOf: ids) }
        // Waited for whatever happens to the write: the work reads the rows and must end before they go.
        defer { prepared?.wait() }
        let result: StoreWriteResult
        do {
            result = try store.backend.write(write)
        } catch {
            // Part of the rows may be written (the store's inserts stop at a failing row, see `writeRun`):
            // the transaction fails with this error even if the caller catches it and goes on.
            flushFailure = error
            throw error
        }
        if let prepared, recording {
            prepared.wait()
            flushed.fingerprints.append(contentsOf: prepared.rowFingerprints)
        }
        // The inserts, and the counts the write changed (an owner's count of members).
        flushed.changes.formUnion(result.changes)
        flushed.rows += pendingRows.reduce(0) { $0 + $1.1.count }
        flushed.counts += result.counts
        forgetRelationsTouchedByRows()
    }
}

/// What `flushRows` wrote in the open transaction, for the save that ends it: the change set's inserts,
/// the undo step's fingerprints and the counts the store changed.
struct FlushedRows {
    var changes = ChangeSet()
    var fingerprints: [(id: ObjectID, fingerprint: UInt64)] = []
    var counts: [MaintainedCount] = []
    /// How many rows were flushed (the save takes `changes` out to add its own).
    var rows = 0

    var isEmpty: Bool { rows == 0 }
}
