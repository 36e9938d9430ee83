import Foundation
import GRDB

extension SQLiteStore {
    func fetchIDs(_ request: FetchRequest, of entity: EntityDescription, prefetching rows: PrefetchedRows?) throws(StoreError) -> [Int64] {
        let columns = rows.map { self.columns($0.layout, entity) } ?? "\"id\""
        var out: [Int64] = []
        do {
            try withNarrowing(request, entity) { narrowing in
                let (sql, args) = selectSQL(request, entity, columns: columns, limit: request.limit, offset: request.offset, and: narrowing)
                try read { db in
                    let stmt = try statement(db, sql)
                    for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                    if let rows {
                        while try stmt.step(db) {
                            out.append(stmt.int64(at: 0))
                            rows.append(stmt)
                        }
                    } else {
                        while try stmt.step(db) { out.append(stmt.int64(at: 0)) }
                    }
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot fetch \(entity.name) objects", path: path)
        }
        return out
    }

    func fetchSortKeys(_ request: FetchRequest, of entity: EntityDescription, limit: Int?) throws(StoreError) -> [(id: Int64, keys: [Value])] {
        let types = request.sortKeys.map { entity.property($0.key)!.attribute?.type ?? .integer64 }
        let columns = (["\"id\""] + request.sortKeys.map { column(entity.property($0.key)!.slot, entity) }).joined(separator: ", ")
        var out: [(id: Int64, keys: [Value])] = []
        do {
            try withNarrowing(request, entity) { narrowing in
                let (sql, args) = selectSQL(request, entity, columns: columns, limit: limit, offset: 0, and: narrowing)
                try read { db in
                    let stmt = try statement(db, sql)
                    for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                    while try stmt.step(db) {
                        var keys: [Value] = []
                        if !types.isEmpty {
                            keys.reserveCapacity(types.count)
                            for (k, t) in types.enumerated() { keys.append(stmt.value(at: Int32(k + 1), as: t)) }
                        }
                        out.append((stmt.int64(at: 0), keys))
                    }
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot fetch \(entity.name) objects", path: path)
        }
        return out
    }

    func fetchValues(_ request: FetchRequest, of entity: EntityDescription, slots: [Int]) throws(StoreError) -> [(id: Int64, values: [Value])] {
        let types = slots.map { entity.properties[$0].attribute?.type ?? .integer64 }
        let columns = (["\"id\""] + slots.map { column($0, entity) }).joined(separator: ", ")
        var out: [(id: Int64, values: [Value])] = []
        do {
            try withNarrowing(request, entity) { narrowing in
                let (sql, args) = selectSQL(request, entity, columns: columns, limit: request.limit, offset: request.offset, and: narrowing)
                try read { db in
                    let stmt = try statement(db, sql)
                    for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                    while try stmt.step(db) {
                        var values: [Value] = []
                        values.reserveCapacity(types.count)
                        for (k, t) in types.enumerated() { values.append(stmt.value(at: Int32(k + 1), as: t)) }
                        out.append((stmt.int64(at: 0), values))
                    }
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot fetch \(entity.name) values", path: path)
        }
        return out
    }

    func count(_ request: FetchRequest, of entity: EntityDescription) throws(StoreError) -> Int {
        var (condition, args) = request.predicate.sql(for: entity, absent: absentSlots[entity.index] ?? [])
        do {
            return try withNarrowing(request, entity) { narrowing in
                if let narrowing {
                    condition = "(\(condition)) AND \(narrowing.0)"
                    args += narrowing.1
                }
                return try read { db in
                    let stmt = try statement(db, "SELECT count(*) FROM \(Schema.quote(entity.name)) WHERE \(condition)")
                    for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                    _ = try stmt.step(db)
                    let n = Int(stmt.int64(at: 0))
                    stmt.reset()
                    return n
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot count \(entity.name) objects", path: path)
        }
    }

    /// `SELECT <columns> FROM <entity> WHERE <predicate> [AND <extra>] ORDER BY <sort keys>, id` with the
    /// window bound last.
    func selectSQL(
        _ request: FetchRequest, _ entity: EntityDescription, columns: String, limit: Int?, offset: Int,
        and extra: (String, [Value])? = nil
    ) -> (String, [Value]) {
        var (condition, args) = request.predicate.sql(for: entity, absent: absentSlots[entity.index] ?? [])
        if let extra {
            condition = "(\(condition)) AND \(extra.0)"
            args += extra.1
        }
        let order =
            (request.sortKeys.map { "\(ObjectPredicate.column($0.key, entity, absentSlots[entity.index] ?? [])) \($0.ascending ? "ASC" : "DESC")" }
            + ["\"id\" \(request.idAscending ? "ASC" : "DESC")"]).joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \(Schema.quote(entity.name)) WHERE \(condition) ORDER BY \(order)"
        if limit != nil || offset > 0 {
            // Bound, not written into the text: one cached statement for every window of a request.
            sql += " LIMIT ? OFFSET ?"
            args += [.integer(Int64(limit ?? -1)), .integer(Int64(offset))]
        }
        return (sql, args)
    }

    /// How many IDs in a row `rows(of:ids:layout:)` reads as a range rather than in an IN list.
    static let rangeReadMinimum = 32

    func rows(of entity: EntityDescription, ids: [Int64], layout: RowLayout) throws(StoreError) -> [[Value]?] {
        guard !ids.isEmpty else { return [] }
        var out = [[Value]?](repeating: nil, count: ids.count)
        // Rows come back in whatever order SQLite likes; find each one's position by binary search.
        let byID = ids.indices.sorted { ids[$0] < ids[$1] }
        // IDs that follow one another (a slice saved in the background, an import's rows) are read as one range:
        // one seek and a scan, where an IN list costs a seek per row (1,000 new rows: 2.5–7.8 ms by IN list).
        var ranges: [Range<Int>] = []
        var scattered: [Int64] = []
        var k = 0
        while k < byID.count {
            var end = k + 1
            while end < byID.count && ids[byID[end - 1]] < Int64.max && ids[byID[end]] == ids[byID[end - 1]] + 1 { end += 1 }
            if end - k >= Self.rangeReadMinimum {
                ranges.append(k..<end)
            } else {
                for i in k..<end { scattered.append(ids[byID[i]]) }
            }
            k = end
        }
        do {
            try read { db in
                for r in ranges {
                    let first = ids[byID[r.lowerBound]]
                    let stmt = try statement(db, rowsByIDSQL(entity, 0, layout))
                    stmt.bind(first, at: 1)
                    stmt.bind(ids[byID[r.upperBound - 1]], at: 2)
                    while try stmt.step(db) {
                        let offset = stmt.int64(at: 0) - first
                        guard offset >= 0 && offset < r.count else { continue }
                        out[byID[r.lowerBound + Int(offset)]] = decodeRow(stmt, entity, layout)
                    }
                }
                var start = 0
                while start < scattered.count {
                    // A few fixed IN-list sizes keep the statement cache small; padding uses ID 0, never a row.
                    let n = scattered.count - start
                    let size = n <= 1 ? 1 : n <= 16 ? 16 : n <= 128 ? 128 : 512
                    let take = min(n, size)
                    let stmt = try statement(db, rowsByIDSQL(entity, size, layout))
                    for k in 0..<size {
                        stmt.bind(k < take ? scattered[start + k] : 0, at: Int32(k + 1))
                    }
                    while try stmt.step(db) {
                        let rowID = stmt.int64(at: 0)
                        var lo = 0, hi = byID.count
                        while lo < hi {
                            let mid = (lo + hi) / 2
                            if ids[byID[mid]] < rowID { lo = mid + 1 } else { hi = mid }
                        }
                        guard lo < byID.count, ids[byID[lo]] == rowID else { continue }
                        let row = decodeRow(stmt, entity, layout)
                        // An ID asked for twice is one row of the result: each place gets it.
                        while lo < byID.count && ids[byID[lo]] == rowID {
                            out[byID[lo]] = row
                            lo += 1
                        }
                    }
                    start += take
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read \(entity.name) objects", path: path)
        }
        return out
    }

    private func rowsByIDSQL(_ entity: EntityDescription, _ size: Int, _ layout: RowLayout) -> String {
        let key = RowsByIDKey(entity: entity.index, size: size, missing: layout.missing)
        if let sql = rowsByIDSQL[key] { return sql }
        // Size 0: the range `id BETWEEN ? AND ?`.
        let sql =
            size == 0
            ? "SELECT \(columns(layout, entity)) FROM \(Schema.quote(entity.name)) WHERE id >= ? AND id <= ?"
            : "SELECT \(columns(layout, entity)) FROM \(Schema.quote(entity.name)) WHERE id IN ("
                + Array(repeating: "?", count: size).joined(separator: ",") + ")"
        rowsByIDSQL[key] = sql
        return sql
    }

    func rows(of entity: EntityDescription, keySlot: Int, equalTo owner: Int64, withRows: Bool) throws(StoreError)
        -> [(id: Int64, row: [Value]?)]
    {
        let key = Schema.quote(entity.properties[keySlot].name)
        let columns = withRows ? self.columns(entity.wholeRow, entity) : "\"id\""
        var out: [(id: Int64, row: [Value]?)] = []
        do {
            try read { db in
                let stmt = try statement(db, "SELECT \(columns) FROM \(Schema.quote(entity.name)) WHERE \(key) = ?")
                stmt.bind(owner, at: 1)
                while try stmt.step(db) {
                    out.append((stmt.int64(at: 0), withRows ? decodeRow(stmt, entity, entity.wholeRow) : nil))
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read \(entity.name) objects", path: path)
        }
        return out
    }

    func descendants(of roots: [Int64], entity: EntityDescription, keySlot: Int) throws(StoreError) -> [(id: Int64, key: Int64)] {
        guard !roots.isEmpty else { return [] }
        var out: [(id: Int64, key: Int64)] = []
        do {
            try read { db in
                let stmt = try statement(db, descendantsSQL(entity, keySlot, roots: roots.count, then: "SELECT id, key FROM below"))
                bindRoots(roots, stmt)
                defer { finishWalk(roots, stmt) }
                while try stmt.step(db) { out.append((stmt.int64(at: 0), stmt.int64(at: 1))) }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read what is below \(entity.name) \(Self.named(roots))", path: path)
        }
        return out
    }

    func descendantRows(of roots: [Int64], entity: EntityDescription, keySlot: Int) throws(StoreError) -> [(id: Int64, row: [Value])] {
        guard !roots.isEmpty else { return [] }
        let table = Schema.quote(entity.name)
        let columns = self.columns(entity.wholeRow, entity).split(separator: ", ").map { "t." + $0 }.joined(separator: ", ")
        // The walk finds the IDs (see `descendantsSQL` for why it never loops); each row is then read once
        // by its ID.
        let sql = descendantsSQL(entity, keySlot, roots: roots.count, then: "SELECT \(columns) FROM below CROSS JOIN \(table) t ON t.id = below.id")
        var out: [(id: Int64, row: [Value])] = []
        do {
            try read { db in
                let stmt = try statement(db, sql)
                bindRoots(roots, stmt)
                defer { finishWalk(roots, stmt) }
                while try stmt.step(db) {
                    out.append((stmt.int64(at: 0), decodeRow(stmt, entity, entity.wholeRow)))
                    if out.count % 4096 == 0 { heartbeat?() }
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot read what is below \(entity.name) \(Self.named(roots))", path: path)
        }
        return out
    }

    /// `#12`, or `#12 and 3 more`, for messages.
    private static func named(_ roots: [Int64]) -> String {
        roots.count == 1 ? "#\(roots[0])" : "#\(roots[0]) and \(roots.count - 1) more"
    }

    /// Resets a walk's kept statement (SQLite does not promise that one stepped to its end has let go of its
    /// read) and lets go of a JSON array of roots (a megabyte for 100,000), which it would otherwise hold until
    /// its next use.
    private func finishWalk(_ roots: [Int64], _ stmt: RawStatement) {
        stmt.reset()
        if roots.count > 1 { stmt.bind(.null, at: 1) }
    }

    /// One root as itself, several as a JSON array (`descendantsSQL` reads them with `json_each`).
    private func bindRoots(_ roots: [Int64], _ stmt: RawStatement) {
        if roots.count == 1 {
            stmt.bind(roots[0], at: 1)
        } else {
            stmt.bind(.string(Self.jsonArray(roots)), at: 1)
        }
    }

    func rowsAside(of entity: EntityDescription, ids: [Int64]) -> PendingRows? {
        guard let db = transaction, db.totalChangesCount == changesAtTransactionStart, let reader = backgroundReader() else { return nil }
        let pending = PendingRows()
        let sql = "SELECT \(columns(entity.wholeRow, entity)) FROM \(Schema.quote(entity.name)) WHERE id IN (SELECT value FROM json_each(?))"
        let path = path
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                // A connection of its own sees the last commit, which is what the write transaction began on:
                // it holds the write lock, so nothing has been committed since, and it has written nothing.
                let rows = try reader.read { db -> [[Value]] in
                    let stmt = RawStatement(try db.makeStatement(sql: sql))
                    var byID: [Int64: [Value]] = [:]
                    byID.reserveCapacity(ids.count)
                    var start = 0
                    while start < ids.count {
                        let chunk = ids[start..<min(ids.count, start + SQLiteStore.deleteBatch)]
                        stmt.bind(.string(SQLiteStore.jsonArray(chunk)), at: 1)
                        while try stmt.step(db) { byID[stmt.int64(at: 0)] = SQLiteStore.decodeRow(stmt, entity, entity.wholeRow) }
                        start += chunk.count
                    }
                    return try ids.map { id in
                        guard let row = byID[id] else { throw StoreError(.conflict, "\(entity.name) #\(id) was not found to be deleted", path: path) }
                        return row
                    }
                }
                pending.finish(.success(rows))
            } catch {
                pending.finish(.failure(StoreError.wrap(error, "cannot read what is deleted", path: path)))
            }
        }
        return pending
    }

    func countDescendants(of root: Int64, entity: EntityDescription, keySlot: Int) throws(StoreError) -> Int {
        do {
            return try read { db in
                let stmt = try statement(db, descendantsSQL(entity, keySlot, roots: 1, then: "SELECT count(*) FROM below"))
                stmt.bind(root, at: 1)
                // Reset, not left after its one row: an unfinished statement holds its read open (a stale
                // snapshot, and a write that fails at once as locked).
                defer { finishWalk([root], stmt) }
                return try stmt.step(db) ? Int(stmt.int64(at: 0)) : 0
            }
        } catch {
            throw StoreError.wrap(error, "cannot count what is below \(entity.name) #\(root)", path: path)
        }
    }

    /// The walk down from `roots` roots (bound as `?1`: one ID, or a JSON array of several) as `below(id, key)`,
    /// then the statement `tail` that reads it.
    private func descendantsSQL(_ e: EntityDescription, _ keySlot: Int, roots: Int, then tail: String) -> String {
        let table = Schema.quote(e.name)
        let key = Schema.quote(e.properties[keySlot].name)
        // UNION ALL, with no set of the rows met (which cost a fifth of reading 100,000 rows), and still no
        // row met twice even in a damaged store: a row has one key, so the walk down meets a row again only
        // by coming back through a root, which the walk never enters (a cycle through a root, or a root
        // pointing to itself, lists the rest of the cycle once). A root below another root is met by
        // neither walk: what is below it comes once, from its own.
        if roots == 1 {
            return "WITH RECURSIVE below(id, key) AS (SELECT id, \(key) FROM \(table) WHERE \(key) = ?1 AND id <> ?1 "
                + "UNION ALL SELECT t.id, t.\(key) FROM \(table) t JOIN below ON t.\(key) = below.id WHERE t.id <> ?1) \(tail)"
        }
        return "WITH RECURSIVE roots(id) AS MATERIALIZED (SELECT DISTINCT value FROM json_each(?1)), "
            + "below(id, key) AS (SELECT t.id, t.\(key) FROM roots CROSS JOIN \(table) t ON t.\(key) = roots.id "
            + "WHERE t.id NOT IN (SELECT id FROM roots) "
            + "UNION ALL SELECT t.id, t.\(key) FROM \(table) t JOIN below ON t.\(key) = below.id WHERE t.id NOT IN (SELECT id FROM roots)) \(tail)"
    }

    func scanIDs(_ request: FetchRequest, of entity: EntityDescription) -> IDScan? {
        guard let reader = backgroundReader() else { return nil }
        // The index's matches are read here, on this connection's snapshot, and the scan's own (the same
        // or later) tests the whole predicate on them: a row that came to match in between is left out, and
        // the commit that made it match reaches the result as a change, as any commit after this one does.
        // A failure to narrow is no narrowing: the scan reads every row and reports its own failures.
        let narrowing = try? fullTextNarrowing(request, entity)
        let (sql, args) = selectSQL(request, entity, columns: "\"id\"", limit: request.limit, offset: request.offset, and: narrowing)
        let path = path
        return IDScan { scan throws(StoreError) in
            do {
                try reader.read { db in
                    let stmt = RawStatement(try db.makeStatement(sql: sql))
                    for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                    var chunk: [Int64] = []
                    chunk.reserveCapacity(4096)
                    var size = 256  // the first chunk is a screenful: hand it over at once
                    while try stmt.step(db) {
                        chunk.append(stmt.int64(at: 0))
                        if chunk.count >= size {
                            scan.publish(chunk, done: false)
                            chunk.removeAll(keepingCapacity: true)
                            size = 65536
                        }
                    }
                    scan.publish(chunk, done: true)
                }
            } catch {
                throw StoreError.wrap(error, "cannot read the result", path: path)
            }
        }
    }

    /// The values of the current row of a `SELECT <layout's columns>` statement; slots the layout does not
    /// read hold their defaults.
    func decodeRow(_ stmt: RawStatement, _ entity: EntityDescription, _ layout: RowLayout) -> [Value] {
        SQLiteStore.decodeRow(stmt, entity, layout)
    }

    /// ``decodeRow(_:_:_:)`` for a reading thread of its own.
    static func decodeRow(_ stmt: RawStatement, _ entity: EntityDescription, _ layout: RowLayout) -> [Value] {
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
}

extension PrefetchedRows {
    /// Appends the current row of a `SELECT <layout's columns>` statement.
    @inline(__always)
    func append(_ stmt: RawStatement) {
        let types = layout.columnTypes
        for k in 0..<width { values.append(stmt.value(at: Int32(k + 1), as: types[k])) }
    }
}

/// What a cached read-by-ID statement depends on.
struct RowsByIDKey: Hashable {
    let entity: Int
    let size: Int
    /// `RowLayout.missing`: which columns the statement leaves out.
    let missing: UInt64
}
