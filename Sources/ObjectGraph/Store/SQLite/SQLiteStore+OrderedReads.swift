import GRDB

extension SQLiteStore {
    /// The rows at positions `from ..< from + count` read in order, as far as they match the expected IDs;
    /// nil when an ordered read is not possible here.
    func rowsInOrder(_ storage: FetchStorage, from: Int, count: Int) throws(StoreError) -> [[Value]?]? {
        do {
            return try loadOrdered(storage, from: from, count: count)
        } catch {
            throw StoreError.wrap(error, "cannot read \(storage.entity.name) objects", path: path)
        }
    }

    private func loadOrdered(_ storage: FetchStorage, from: Int, count: Int) throws -> [[Value]?]? {
        let request = storage.request, entity = storage.entity
        // Row-value comparison walks the index only when every key goes the same (ascending) way.
        guard request.sortKeys.allSatisfy(\.ascending) else { return nil }
        // Rows found through the full-text index are read by ID: in order, each read would test every row
        // from its anchor on until it had its count (a view of 111 rows among a million read them all).
        guard request.predicate.fullTextNeedle(for: entity) == nil else { return nil }
        guard from > 0 else { return try readOrdered(storage, from: 0, count: count, keyset: (.none, []), ties: 0) }
        guard let anchor = storage.anchor, anchor.position == from - 1, !anchor.keys.contains(where: \.isNull) else { return nil }
        let columns = request.sortKeys.map { ObjectPredicate.column($0.key, entity, absentSlots[entity.index] ?? []) }
        if let first = anchor.keys.first {
            // SQLite seeks with the first column of a row-value condition but then tests the whole condition
            // on every row, which costs about as much as reading three more columns. `first >= ?` is a plain
            // seek that costs nothing per row; the rows it adds (the anchor and its ties, which come before
            // it) are skipped by their expected IDs. Many ties fall back to the exact condition.
            let seek = (OrderedForm.seek(columns[0] + " >= ?"), [first])
            if let rows = try readOrdered(storage, from: from, count: count, keyset: seek, ties: Self.maxTies) { return rows }
        }
        let after = anchor.keys + [.integer(storage.rowIDs[from - 1])]
        let condition =
            "(" + (columns + ["\"id\""]).joined(separator: ", ") + ") > ("
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
        let cache: OrderedReadCache
        if let known = storage.storeCache as? OrderedReadCache, known.generation == readGeneration {
            cache = known
        } else {
            cache = OrderedReadCache(
                arguments: request.predicate.sql(for: entity, absent: absentSlots[entity.index] ?? []).1, generation: readGeneration)
            storage.storeCache = cache
        }
        let sql: String
        if let cached = cache.sql[key] {
            sql = cached
        } else {
            sql =
                selectSQL(
                    request, entity, columns: self.columns(storage.layout, entity), limit: count + ties, offset: from == 0 ? request.offset : 0,
                    and: keyset.form.condition.map { ($0, []) }
                ).0
            cache.sql[key] = sql
        }
        // LIMIT and OFFSET are bound last (see `selectSQL`).
        let args =
            cache.arguments + keyset.values
            + [.integer(Int64(count + ties)), .integer(Int64(from == 0 ? request.offset : 0))]
        var out: [[Value]?] = []
        out.reserveCapacity(count)
        let expected = storage.rowIDs
        var skipped = true
        try read { db in
            let stmt = try statement(db, sql)
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
        return out
    }
}

/// What a result keeps between its ordered batch reads on SQLite: the statement text by form and row limit,
/// and the predicate's arguments in SQL order.
final class OrderedReadCache {
    var sql: [Int: String] = [:]
    let arguments: [Value]
    /// The store's `readGeneration` it was built in.
    let generation: Int

    init(arguments: [Value], generation: Int) {
        self.arguments = arguments
        self.generation = generation
    }
}
