extension Context {
    /// Loads the row of a fault: from its fetch's rows when they hold every stored column, from the
    /// read-ahead cache when a relationship prefetch brought it, else on its own.
    func fulfill(_ object: ManagedObject) {
        guard object.isFault else { return }
        if object.missing == 0, let rows = object.prefetched {
            object.take(row: rows.row(object.prefetchedRow))
            return
        }
        let id = object.objectID
        var values = rowCache.removeValue(forKey: id)
        if values == nil {
            statistics.faultsFired += 1
            do {
                values = try loadRows(entity: object.entity, ids: [id.rowID]).first ?? nil
            } catch {
                noteReadFailure(error)
            }
        }
        fill(object, values)
    }

    /// Gives a fault its row; a row that leaves `missing` slots out makes it a partial fault.
    private func fill(_ object: ManagedObject, _ values: [Value]?, missing: UInt64 = 0) {
        if let values {
            object.values = values
            object.missing = missing
            object.isFault = missing != 0
            object.prefetched = nil
        } else {
            // The row is gone (deleted by another context or process): the object reads as defaults.
            object.take(row: object.entity.defaults)
            object.isInaccessible = true
        }
    }

    /// The object at `index` of a fetch result. Rows are read in batches in the direction of travel
    /// (backwards when the reader just stepped above the batch), but an object is made only when touched.
    func materialize(_ storage: FetchStorage, _ index: Int) -> ManagedObject {
        let entity = storage.entity
        let id = ObjectID(entity: entity.index, rowID: storage.rowIDs[index])
        if let rows = storage.prefetchedForReading {
            let (read, missing) = rows._withUnsafeGuaranteedRef { ($0.generation, $0.missing) }
            if read == generation {
                let (o, isNew) = registered.object(for: id) { unregisteredObject(id, entity) }
                if !isNew {
                    if !o.isFault { return o }
                    o.values = []
                }
                o.prefetched = rows.takeUnretainedValue()
                o.prefetchedRow = index
                o.missing = missing
                return o
            }
            // Rows may have changed since they were read: from here on the result reads in batches.
            storage.prefetched = nil
        }
        let existing = registered[id]
        if let o = existing, !o.isFault { return o }
        var k = index - storage.batchStart
        // A batch read before a save or a merged change may hold rows changed since: read again.
        if k < 0 || k >= storage.batchRows.count || storage.batchRows[k] == nil || storage.batchGeneration != generation {
            storage.loadBatch(around: index, size: batchSize, from: store.backend, generation: generation, statistics: &statistics)
            k = index - storage.batchStart
        }
        // Moved out of the buffer, not copied: the object becomes the row's only owner.
        let values = k >= 0 && k < storage.batchRows.count ? storage.batchRows[k].take() : nil
        let o = existing ?? makeObject(id, entity)
        fill(o, values, missing: storage.layout.missing)
        return o
    }

    /// A new, registered fault for `id`.
    func makeObject(_ id: ObjectID, _ entity: EntityDescription) -> ManagedObject {
        let object = unregisteredObject(id, entity)
        registered[id] = object
        return object
    }

    /// A new fault for `id`, for the caller to register.
    @inline(__always)
    private func unregisteredObject(_ id: ObjectID, _ entity: EntityDescription) -> ManagedObject {
        let object = entity.objectType.init(entity: entity, objectID: id)
        object.context = self
        statistics.objectsCreated += 1
        return object
    }

    /// Reads rows by ID (whole rows, or the columns of `layout`), in the order of `ids`; a missing row
    /// gives nil.
    func loadRows(entity: EntityDescription, ids: [Int64], layout: RowLayout? = nil) throws(StoreError) -> [[Value]?] {
        let rows = try store.backend.rows(of: entity, ids: ids, layout: layout ?? entity.wholeRow)
        for row in rows where row != nil { statistics.rowsLoaded += 1 }
        return rows
    }

    /// Row IDs of the objects on the far side of an inverse-side relationship, as the store holds them.
    /// With `prefetch`, their rows are read in the same query into the read-ahead cache.
    func loadRelation(of object: ManagedObject, slot: Int, prefetch: Bool = false) -> Set<Int64> {
        let r = object.entity.properties[slot].relationship!
        let dest = model.entities[r.destination]
        statistics.relationReads += 1
        let found: [(Int64, [Value]?)]
        do {
            found = try store.backend.rows(of: dest, keySlot: r.inverseSlot, equalTo: object.objectID.rowID, withRows: prefetch)
        } catch {
            // Empty for now: the next save fails with the error rather than write what was built on it.
            noteReadFailure(error)
            return []
        }
        var ids = Set<Int64>()
        for (rowID, row) in found {
            // A row deleted as a row in this unit of work (`deleteTree`'s rows and links) is still stored
            // until the save, but is no member.
            if !pendingDeletedRows.isEmpty && pendingDeletedRows.contains(rowID) { continue }
            ids.insert(rowID)
            let id = ObjectID(entity: dest.index, rowID: rowID)
            if let row, registered[id].map({ $0.isFault }) ?? true { rowCache[id] = row }
        }
        statistics.rowsLoaded += prefetch ? ids.count : 0
        return ids
    }

    /// Keeps the first read failure of the unit of work (see `readFailure`).
    func noteReadFailure(_ error: StoreError) {
        if readFailure == nil { readFailure = error }
    }

    /// The read that failed since the last save where the API could not throw, if any, without forgetting it
    /// (the next save still fails with it): an app tells its user at once.
    public var pendingReadFailure: StoreError? { readFailure }

    /// The read that failed since the last save where the API could not throw, if any (and forgets it: the
    /// next save no longer fails with it).
    public func takeReadFailure() -> StoreError? {
        defer { readFailure = nil }
        return readFailure
    }

    /// Fails a save after a read that failed where the API could not throw (see `readFailure`).
    func checkReads() throws(StoreError) {
        guard var failure = takeReadFailure() else { return }
        failure.message = "nothing was saved: a read failed before it (\(failure.message))"
        throw failure
    }
}
