import GRDB

extension Context {
    /// Loads the row of a fault: from the read-ahead cache when a batch brought it, else on its own.
    func fulfill(_ object: ManagedObject) {
        guard object.isFault else { return }
        let id = object.objectID
        var values = rowCache.removeValue(forKey: id)
        if values == nil {
            statistics.faultsFired += 1
            values = (try? loadRows(entity: object.entity, ids: [id.rowID]))?[id.rowID]
        }
        if let values {
            object.values = values
        } else {
            // The row is gone (deleted by another context or process): the object reads as defaults.
            object.values = object.entity.defaults
            object.isInaccessible = true
        }
        object.isFault = false
    }

    /// The object at `index` of a fetch result, reading its row in a batch with its neighbours.
    func materialize(_ entity: EntityDescription, _ rowIDs: [Int64], _ index: Int) -> ManagedObject {
        let id = ObjectID(entity: entity.index, rowID: rowIDs[index])
        if let o = registered[id], !o.isFault { return o }
        if rowCache[id] == nil {
            if rowCache.count > batchSize * 8 { rowCache.removeAll(keepingCapacity: true) }
            // Read ahead in the direction of travel: backwards when the previous row is not loaded yet
            // but the next one is (scrolling up).
            var range = index..<min(index + batchSize, rowIDs.count)
            if index > 0, index + 1 < rowIDs.count, isLoaded(entity, rowIDs[index + 1]),
                !isLoaded(entity, rowIDs[index - 1])
            {
                range = max(0, index - batchSize + 1)..<(index + 1)
            }
            let wanted = rowIDs[range].filter { !isLoaded(entity, $0) }
            if let rows = try? loadRows(entity: entity, ids: wanted) {
                statistics.batchLoads += 1
                for (rowID, values) in rows { rowCache[ObjectID(entity: entity.index, rowID: rowID)] = values }
            }
        }
        let o = object(for: id)
        fulfill(o)
        return o
    }

    private func isLoaded(_ entity: EntityDescription, _ rowID: Int64) -> Bool {
        let id = ObjectID(entity: entity.index, rowID: rowID)
        return rowCache[id] != nil || registered[id].map { !$0.isFault } ?? false
    }

    /// Reads whole rows by ID; missing rows are absent from the result.
    func loadRows(entity: EntityDescription, ids: [Int64]) throws(StoreError) -> [Int64: [Value]] {
        guard !ids.isEmpty else { return [:] }
        var out: [Int64: [Value]] = Dictionary(minimumCapacity: ids.count)
        do {
            try store.queue.read { db in
                var start = 0
                while start < ids.count {
                    // A few fixed IN-list sizes keep the statement cache small; padding uses ID 0, never a row.
                    let n = ids.count - start
                    let size = n <= 1 ? 1 : n <= 16 ? 16 : n <= 128 ? 128 : 512
                    let take = min(n, size)
                    let stmt = try RawStatement(
                        db, "SELECT \(entity.selectColumns) FROM \"\(entity.name)\" WHERE id IN ("
                            + Array(repeating: "?", count: size).joined(separator: ",") + ")")
                    for k in 0..<size {
                        stmt.bind(k < take ? ids[start + k] : 0, at: Int32(k + 1))
                    }
                    while try stmt.step(db) {
                        out[stmt.int64(at: 0)] = decodeRow(stmt, entity)
                    }
                    start += take
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read \(entity.name) objects", path: store.path)
        }
        statistics.rowsLoaded += out.count
        return out
    }

    /// The values of the current row of a `SELECT <selectColumns>` statement.
    func decodeRow(_ stmt: RawStatement, _ entity: EntityDescription) -> [Value] {
        var values = entity.defaults
        for (k, slot) in entity.storedSlots.enumerated() {
            values[slot] = stmt.value(at: Int32(k + 1), as: entity.storedTypes[k])
        }
        return values
    }

    /// Row IDs of the objects on the far side of an inverse-side relationship, as the store holds them.
    /// With `prefetch`, their rows are read in the same query into the read-ahead cache.
    func loadRelation(of object: ManagedObject, slot: Int, prefetch: Bool = false) -> Set<Int64> {
        let r = object.entity.properties[slot].relationship!
        let dest = model.entities[r.destination]
        let fk = dest.properties[r.inverseSlot].name
        var ids = Set<Int64>()
        let columns = prefetch ? dest.selectColumns : "\"id\""
        do {
            try store.queue.read { db in
                let stmt = try RawStatement(db, "SELECT \(columns) FROM \"\(dest.name)\" WHERE \"\(fk)\" = ?")
                stmt.bind(object.objectID.rowID, at: 1)
                while try stmt.step(db) {
                    let rowID = stmt.int64(at: 0)
                    ids.insert(rowID)
                    if prefetch, !isLoaded(dest, rowID) {
                        rowCache[ObjectID(entity: dest.index, rowID: rowID)] = decodeRow(stmt, dest)
                    }
                }
            }
        } catch {
            // A failed read leaves the relationship empty for this unit of work; the store error is rare
            // (I/O) and surfaces at the next save.
            return ids
        }
        statistics.rowsLoaded += prefetch ? ids.count : 0
        return ids
    }
}
