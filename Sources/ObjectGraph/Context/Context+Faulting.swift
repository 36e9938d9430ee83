import GRDB

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
            values = (try? loadRows(entity: object.entity, ids: [id.rowID]))?.first ?? nil
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
        if k < 0 || k >= storage.batchRows.count || storage.batchRows[k] == nil {
            loadBatch(storage, around: index)
            k = index - storage.batchStart
        }
        // Moved out of the buffer, not copied: the object becomes the row's only owner.
        let values = k >= 0 && k < storage.batchRows.count ? storage.batchRows[k].take() : nil
        let o = existing ?? makeObject(id, entity)
        fill(o, values, missing: storage.layout.missing)
        return o
    }

    /// Reads the batch of rows around `index` into the result's buffer. Reading on from the previous
    /// batch (or from the start) is one ordered range scan that continues after the last row read
    /// (keyset pagination); rows are checked against the expected IDs, and anything that does not match
    /// (the store changed, or the result has unsaved rows) is read by ID instead.
    private func loadBatch(_ storage: FetchStorage, around index: Int) {
        let n = storage.rowIDs.count
        let backward = index > 0 && index == storage.batchStart - 1
        let range = backward ? max(0, index - batchSize + 1)..<(index + 1) : index..<min(index + batchSize, n)
        statistics.batchLoads += 1
        // The ordered read's buffer becomes the batch as it is; rows it did not match are read by ID.
        var rows: [[Value]?] = []
        if !backward, let ordered = try? loadOrdered(storage, from: index, count: range.count) { rows = ordered }
        let matched = rows.count
        if matched < range.count {
            rows.append(contentsOf: repeatElement(nil, count: range.count - matched))
            let rest = Array(storage.rowIDs[(range.lowerBound + matched)..<range.upperBound])
            if let loaded = try? loadRows(entity: storage.entity, ids: rest, layout: storage.layout) {
                for (j, row) in loaded.enumerated() { rows[matched + j] = row }
            }
        }
        storage.batchRows = rows
        storage.batchStart = range.lowerBound
        if let last = rows.last ?? nil {
            let slots = storage.request.sortKeys.map { storage.entity.property($0.key)!.slot }
            storage.anchor = (range.upperBound - 1, slots.map { last[$0] })
        } else {
            storage.anchor = nil
        }
    }

    /// The rows at positions `from ..< from + count` read in order, as far as they match the expected IDs;
    /// nil when an ordered read is not possible here.
    private func loadOrdered(_ storage: FetchStorage, from: Int, count: Int) throws -> [[Value]?]? {
        let request = storage.request, entity = storage.entity
        // Row-value comparison walks the index only when every key goes the same (ascending) way.
        guard request.sortKeys.allSatisfy(\.ascending) else { return nil }
        guard from > 0 else { return try readOrdered(storage, from: 0, count: count, keyset: (.none, []), ties: 0) }
        guard let anchor = storage.anchor, anchor.position == from - 1, !anchor.keys.contains(where: \.isNull) else { return nil }
        let columns = request.sortKeys.map { ObjectPredicate.column($0.key, entity) }
        if let first = anchor.keys.first {
            // SQLite seeks with the first column of a row-value condition but then tests the whole condition
            // on every row, which costs about as much as reading three more columns. `first >= ?` is a plain
            // seek that costs nothing per row; the rows it adds (the anchor and its ties, which come before
            // it) are skipped by their expected IDs. Many ties fall back to the exact condition.
            let seek = (OrderedForm.seek(columns[0] + " >= ?"), [first])
            if let rows = try readOrdered(storage, from: from, count: count, keyset: seek, ties: Self.maxTies) { return rows }
        }
        let after = anchor.keys + [.integer(storage.rowIDs[from - 1])]
        let condition = "(" + (columns + ["\"id\""]).joined(separator: ", ") + ") > ("
            + Array(repeating: "?", count: after.count).joined(separator: ", ") + ")"
        return try readOrdered(storage, from: from, count: count, keyset: (.after(condition), after), ties: 0)
    }

    /// Where an ordered read starts: at the start of the result, or after the anchor by a seek on the first
    /// sort key or by the exact row-value condition.
    private enum OrderedForm {
        case none
        case seek(String)
        case after(String)

        var key: Int {
            switch self {
            case .none: return 0
            case .seek: return 1
            case .after: return 2
            }
        }

        var condition: String? {
            switch self {
            case .none: return nil
            case .seek(let c), .after(let c): return c
            }
        }
    }

    /// Rows before the anchor that an ordered read skips at most before it gives up on its seek.
    private static let maxTies = 32

    /// One ordered read: up to `ties` rows just before position `from` may come first and are skipped (nil
    /// when other rows come first), then rows are kept while they are the expected ones.
    private func readOrdered(
        _ storage: FetchStorage, from: Int, count: Int, keyset: (form: OrderedForm, values: [Value]), ties: Int
    ) throws -> [[Value]?]? {
        let request = storage.request, entity = storage.entity
        // The SQL of a result's batches differs only by form and limit: built once, not once per batch.
        let key = (count + ties) << 2 | keyset.form.key
        let sql: String
        if let cached = storage.batchSQL[key] {
            sql = cached
        } else {
            sql = selectSQL(
                request, entity, columns: storage.layout.columns, limit: count + ties, offset: from == 0 ? request.offset : 0,
                and: keyset.form.condition.map { ($0, []) }
            ).0
            storage.batchSQL[key] = sql
        }
        // LIMIT and OFFSET are bound last (see `selectSQL`).
        let args = storage.predicateArguments + keyset.values
            + [.integer(Int64(count + ties)), .integer(Int64(from == 0 ? request.offset : 0))]
        var out: [[Value]?] = []
        out.reserveCapacity(count)
        let expected = storage.rowIDs
        var skipped = true
        try store.read { db in
            let stmt = try store.statement(db, sql)
            for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
            // Position of the next row to skip, once the first skipped row was found.
            var tie = -1
            while try stmt.step(db) {
                let id = stmt.int64(at: 0)
                if ties > 0 && out.isEmpty && id != expected[from] {
                    if tie < 0 {
                        let window = max(0, from - ties)..<from
                        guard let j = expected[window].lastIndex(of: id) else {
                            skipped = false
                            stmt.reset()
                            break
                        }
                        tie = j + 1
                        continue
                    }
                    guard tie < from, expected[tie] == id else {
                        skipped = false
                        stmt.reset()
                        break
                    }
                    tie += 1
                    continue
                }
                guard id == expected[from + out.count], tie < 0 || tie == from || !out.isEmpty else {
                    stmt.reset()
                    break
                }
                out.append(decodeRow(stmt, entity, storage.layout))
                if out.count == count {
                    stmt.reset()
                    break
                }
            }
        }
        guard skipped else { return nil }
        statistics.rowsLoaded += out.count
        statistics.rowsReadInOrder += out.count
        return out
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
        let layout = layout ?? entity.wholeRow
        guard !ids.isEmpty else { return [] }
        var out = [[Value]?](repeating: nil, count: ids.count)
        // Rows come back in whatever order SQLite likes; find each one's position by binary search.
        let byID = ids.indices.sorted { ids[$0] < ids[$1] }
        var loaded = 0
        do {
            try store.read { db in
                var start = 0
                while start < ids.count {
                    // A few fixed IN-list sizes keep the statement cache small; padding uses ID 0, never a row.
                    let n = ids.count - start
                    let size = n <= 1 ? 1 : n <= 16 ? 16 : n <= 128 ? 128 : 512
                    let take = min(n, size)
                    let stmt = try store.statement(db, rowsByIDSQL(entity, size, layout))
                    for k in 0..<size {
                        stmt.bind(k < take ? ids[start + k] : 0, at: Int32(k + 1))
                    }
                    while try stmt.step(db) {
                        let rowID = stmt.int64(at: 0)
                        var lo = 0, hi = byID.count
                        while lo < hi {
                            let mid = (lo + hi) / 2
                            if ids[byID[mid]] < rowID { lo = mid + 1 } else { hi = mid }
                        }
                        if lo < byID.count, ids[byID[lo]] == rowID {
                            out[byID[lo]] = decodeRow(stmt, entity, layout)
                            loaded += 1
                        }
                    }
                    start += take
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read \(entity.name) objects", path: store.path)
        }
        statistics.rowsLoaded += loaded
        return out
    }

    private func rowsByIDSQL(_ entity: EntityDescription, _ size: Int, _ layout: RowLayout) -> String {
        let key = RowsByIDKey(entity: entity.index, size: size, missing: layout.missing)
        if let sql = store.rowsByIDSQL[key] { return sql }
        let sql = "SELECT \(layout.columns) FROM \"\(entity.name)\" WHERE id IN ("
            + Array(repeating: "?", count: size).joined(separator: ",") + ")"
        store.rowsByIDSQL[key] = sql
        return sql
    }

    /// The values of the current row of a `SELECT <layout.columns>` statement; slots the layout does not
    /// read hold their defaults.
    func decodeRow(_ stmt: RawStatement, _ entity: EntityDescription, _ layout: RowLayout) -> [Value] {
        let columnOfSlot = layout.columnOfSlot
        let n = columnOfSlot.count
        // reserveCapacity + append is specialized for `Value`; `Array(unsafeUninitializedCapacity:)` goes
        // through the generic stdlib allocator, which looks the array's metadata up on every call.
        var row: [Value] = []
        row.reserveCapacity(n)
        for slot in 0..<n {
            let column = columnOfSlot[slot]
            row.append(column > 0 ? stmt.value(at: column, as: entity.typeOfSlot[slot]) : entity.defaults[slot])
        }
        return row
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
            try store.read { db in
                let stmt = try store.statement(db, "SELECT \(columns) FROM \"\(dest.name)\" WHERE \"\(fk)\" = ?")
                stmt.bind(object.objectID.rowID, at: 1)
                while try stmt.step(db) {
                    let rowID = stmt.int64(at: 0)
                    ids.insert(rowID)
                    let id = ObjectID(entity: dest.index, rowID: rowID)
                    if prefetch, registered[id].map({ $0.isFault }) ?? true {
                        rowCache[id] = decodeRow(stmt, dest, dest.wholeRow)
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
