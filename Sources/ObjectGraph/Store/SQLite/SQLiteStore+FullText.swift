import GRDB

/// The full-text index of an entity with a ``FullTextIndex``: an FTS5 table `og_fts_<Entity>` with the
/// trigram tokenizer (substrings, not words), one column per indexed attribute holding its text folded by
/// ``TextFolding`` (so case and diacritics are folded the same way on every SQLite; the trigram tokenizer
/// of SQLite 3.40 cannot remove diacritics), the row's ID as its rowid. `og_metadata` records, beside it,
/// the folding and the columns it was built with: an index built otherwise is stale and built again.
extension SQLiteStore {
    static func fullTextTable(_ e: EntityDescription) -> String { Schema.quote("og_fts_" + e.name) }

    private static func fullTextStampKey(_ e: EntityDescription) -> String { "fulltext_" + e.name }

    /// The FTS5 options: trigrams of the text as folded (no folding of its own), and no per-row column
    /// sizes (they serve ranking, which search does not do, and cost space and time on every write).
    private static let fullTextOptions = "tokenize = 'trigram case_sensitive 1', columnsize = 0"

    /// What a current index of `e` records: the folding's version, the table's options and the indexed
    /// attributes.
    private static func fullTextStamp(_ e: EntityDescription) -> String {
        TextFolding.version + "|" + fullTextOptions + "|" + e.fullTextSlots.map { e.properties[$0].name }.joined(separator: ",")
    }

    private static func fullTextColumns(_ e: EntityDescription) -> [String] { e.fullTextSlots.indices.map { "c\($0)" } }

    /// True when `e`'s index exists and was built with this folding and these attributes.
    static func fullTextIsCurrent(_ db: Database, _ e: EntityDescription) throws -> Bool {
        guard !e.fullTextSlots.isEmpty else { return false }
        let stamp = try String.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = ?", arguments: [fullTextStampKey(e)])
        guard stamp == fullTextStamp(e) else { return false }
        return try db.tableExists("og_fts_" + e.name)
    }

    /// Builds every index that is missing or stale (all of them with `force`), and drops the index of an
    /// entity that no longer declares one. Runs in the caller's write transaction (at open, or a repair).
    /// Returns the entities whose index it built.
    @discardableResult
    static func buildFullText(_ db: Database, _ model: Model, force: Bool = false) throws -> [String] {
        var built: [String] = []
        for e in model.entities {
            if e.fullTextSlots.isEmpty {
                if try db.tableExists("og_fts_" + e.name) {
                    try db.execute(sql: "DROP TABLE \(fullTextTable(e))")
                    try db.execute(sql: "DELETE FROM og_metadata WHERE key = ?", arguments: [fullTextStampKey(e)])
                }
                continue
            }
            if !force, try fullTextIsCurrent(db, e) {
                try tuneFullText(db, e)
                continue
            }
            try db.execute(sql: "DROP TABLE IF EXISTS \(fullTextTable(e))")
            let cols = fullTextColumns(e)
            try db.execute(
                sql: "CREATE VIRTUAL TABLE \(fullTextTable(e)) USING fts5(\(cols.joined(separator: ", ")), \(fullTextOptions))")
            try tuneFullText(db, e)
            let source = e.fullTextSlots.map { Schema.quote(e.properties[$0].name) }.joined(separator: ", ")
            let insert = try db.makeStatement(
                sql:
                    "INSERT INTO \(fullTextTable(e))(rowid, \(cols.joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: cols.count)))"
            )
            let rows = try Row.fetchCursor(db, sql: "SELECT id, \(source) FROM \(Schema.quote(e.name)) ORDER BY id")
            while let row = try rows.next() {
                var args: [(any DatabaseValueConvertible)?] = [row[0] as Int64]
                for k in cols.indices { args.append((row[k + 1] as String?).map(TextFolding.fold)) }
                try insert.execute(arguments: StatementArguments(args))
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO og_metadata(key, value) VALUES (?, ?)", arguments: [fullTextStampKey(e), fullTextStamp(e)])
            built.append(e.name)
        }
        return built
    }

    /// How much of the terms of the rows a transaction indexes FTS5 keeps in memory before it writes them out
    /// as a segment (1 MiB by default): fewer, bigger segments need less merging, so a save of 1,000,000 rows
    /// spends 40 % less in FTS5 (docs/PERFORMANCE.md, Search). Only a big save fills it; a savepoint or a
    /// query of the index writes it out sooner.
    static let fullTextPendingBytes = 8 << 20

    /// Sets FTS5's own settings on `e`'s index (kept in its config table), if they are not set already.
    private static func tuneFullText(_ db: Database, _ e: EntityDescription) throws {
        let config = Schema.quote("og_fts_" + e.name + "_config")
        let now = try Int.fetchOne(db, sql: "SELECT v FROM \(config) WHERE k = 'hashsize'")
        guard now != fullTextPendingBytes else { return }
        let table = fullTextTable(e)
        try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('hashsize', ?)", arguments: [fullTextPendingBytes])
    }

    /// Keeps the indexes of the entities `unit` writes, after its rows are written: a deleted row leaves
    /// its index, an inserted one enters it, and an updated one whose indexed attributes changed is indexed
    /// again from its row as stored now. An index that is not current is left alone (the store's check
    /// reports it and a repair builds it).
    func writeFullText(_ db: Database, _ unit: StoreWrite) throws {
        var current: [Int: Bool] = [:]
        func isCurrent(_ e: EntityDescription) throws -> Bool {
            guard !e.fullTextSlots.isEmpty else { return false }
            if let known = current[e.index] { return known }
            let now = try SQLiteStore.fullTextIsCurrent(db, e)
            current[e.index] = now
            return now
        }
        // Rows held back go in before the index is changed otherwise: an update or delete of one of them
        // must find it there.
        let changesIndex =
            unit.deletes.contains { !$0.entity.fullTextSlots.isEmpty }
            || unit.updates.contains { update in update.slots.contains(where: update.entity.fullTextSlots.contains) }
        if changesIndex { try flushDeferredFullText(db) }
        try forEachDeleteRun(unit.deletes) { e, ids in
            guard try isCurrent(e) else { return }
            try deleteStatement(db, table: SQLiteStore.fullTextTable(e), key: "rowid", ids).run(db)
        }
        // Inserts are held back (`DeferredFullText`) and handed over a few megabytes at a time.
        for run in unit.inserts where try isCurrent(run.entity) {
            let slots = run.entity.fullTextSlots
            for (id, row) in zip(run.ids, run.rows) {
                deferredFullText.append(
                    run.entity.index, id,
                    slots.map { slot in
                        if case .string(let text) = row[slot] { return TextFolding.fold(text) }
                        return nil
                    })
            }
            if deferredFullText.bytes >= DeferredFullText.limit { try flushDeferredFullText(db) }
        }
        for (e, id, slots, _) in unit.updates where try isCurrent(e) {
            guard slots.contains(where: e.fullTextSlots.contains) else { continue }
            try removeFullText(db, e, id)
            let source = e.fullTextSlots.map { Schema.quote(e.properties[$0].name) }.joined(separator: ", ")
            let read = try statement(db, "SELECT \(source) FROM \(Schema.quote(e.name)) WHERE id = ?")
            read.bind(id, at: 1)
            guard try read.step(db) else {
                read.reset()
                continue
            }
            let values = e.fullTextSlots.indices.map { read.value(at: Int32($0), as: .string) }
            read.reset()
            try insertFullText(db, e, id, values)
        }
    }

    /// Hands the rows held back to FTS5, by entity in ascending row ID: FTS5 also writes out its pending
    /// terms whenever a row ID is not above the one before, so the order of an undo's rows (a tree walked
    /// depth first) made re-indexing 100,000 rows 2–4× as slow as in ID order.
    func flushDeferredFullText(_ db: Database) throws {
        guard !deferredFullText.isEmpty else { return }
        let held = deferredFullText
        deferredFullText = DeferredFullText()
        for (entity, rows) in held.rows.sorted(by: { $0.key < $1.key }) {
            let e = model.entities[entity]
            let width = e.fullTextSlots.count
            let insert = try statement(db, insertFullTextSQL(e))
            // Where each row's texts start in `bytes`, then the rows in ID order.
            var starts: [Int] = []
            starts.reserveCapacity(rows.ids.count)
            var offset = 0
            for r in rows.ids.indices {
                starts.append(offset)
                for k in 0..<width { offset += max(0, Int(rows.lengths[r * width + k])) }
            }
            var order = Array(rows.ids.indices)
            if !zip(rows.ids, rows.ids.dropFirst()).allSatisfy({ $0 < $1 }) { order.sort { rows.ids[$0] < rows.ids[$1] } }
            for r in order {
                insert.bind(rows.ids[r], at: 1)
                var at = starts[r]
                for k in 0..<width {
                    let length = Int(rows.lengths[r * width + k])
                    if length < 0 {
                        insert.bind(.null, at: Int32(k + 2))
                    } else {
                        insert.bind(.string(String(decoding: rows.bytes[at..<(at + length)], as: UTF8.self)), at: Int32(k + 2))
                        at += length
                    }
                }
                try insert.run(db)
            }
        }
    }

    private func removeFullText(_ db: Database, _ e: EntityDescription, _ id: Int64) throws {
        let stmt = try statement(db, "DELETE FROM \(SQLiteStore.fullTextTable(e)) WHERE rowid = ?")
        stmt.bind(id, at: 1)
        try stmt.run(db)
    }

    private func insertFullTextSQL(_ e: EntityDescription) -> String {
        let cols = SQLiteStore.fullTextColumns(e)
        return
            "INSERT INTO \(SQLiteStore.fullTextTable(e))(rowid, \(cols.joined(separator: ", "))) VALUES (?\(String(repeating: ", ?", count: cols.count)))"
    }

    private func insertFullText(_ db: Database, _ e: EntityDescription, _ id: Int64, _ values: [Value]) throws {
        let stmt = try statement(db, insertFullTextSQL(e))
        stmt.bind(id, at: 1)
        for (k, v) in values.enumerated() {
            if case .string(let s) = v { stmt.bind(.string(TextFolding.fold(s)), at: Int32(k + 2)) } else { stmt.bind(.null, at: Int32(k + 2)) }
        }
        try stmt.run(db)
    }

    // MARK: Queries

    /// The rows of `e` whose index holds `folded`: an FTS5 phrase (an exact substring of one column) when
    /// it has the trigram tokenizer's three characters, else a scan of the index's folded text (`instr`,
    /// still exact). `ids`, `limit` and `count` shape the statement.
    private func fullTextQuery(_ e: EntityDescription, _ folded: String, ids: Int, limit: Int?, count: Bool) -> (sql: String, args: [Value]) {
        var table = SQLiteStore.fullTextTable(e)
        var conditions: [String] = []
        var args: [Value] = []
        var rowid = "rowid"
        if folded.unicodeScalars.count >= 3 {
            conditions.append("\(table) MATCH ?")
            args.append(.string("\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""))
        } else {
            // FTS5's own table of the text (a shadow table, `id, c0, …`), read as the plain table it is:
            // through the virtual table each row costs three times as much.
            table = Schema.quote("og_fts_" + e.name + "_content")
            rowid = "id"
            conditions.append("(" + SQLiteStore.fullTextColumns(e).map { "instr(\($0), ?) > 0" }.joined(separator: " OR ") + ")")
            args += Array(repeating: .string(folded), count: e.fullTextSlots.count)
        }
        if ids > 0 { conditions.append("\(rowid) IN (" + Array(repeating: "?", count: ids).joined(separator: ",") + ")") }
        let what = count ? "count(*)" : rowid
        var sql = "SELECT \(what) FROM \(table) WHERE " + conditions.joined(separator: " AND ")
        if !count { sql += " ORDER BY \(rowid)" }
        if let limit { sql += " LIMIT \(max(0, limit))" }
        return (sql, args)
    }

    func fullTextMatches(_ folded: String, of e: EntityDescription, among ids: [Int64]?, limit: Int?) throws(StoreError) -> [Int64] {
        guard !folded.isEmpty, !e.fullTextSlots.isEmpty, ids?.isEmpty != true else { return [] }
        do {
            return try read { db in
                try flushDeferredFullText(db)
                guard try SQLiteStore.fullTextIsCurrent(db, e) else { return try scanFullText(db, e, folded, among: ids, limit: limit) }
                guard let ids else { return try runIDs(db, fullTextQuery(e, folded, ids: 0, limit: limit, count: false)) }
                var out: [Int64] = []
                var start = 0
                let sorted = ids.sorted()
                while start < sorted.count, limit.map({ out.count < $0 }) ?? true {
                    let chunk = sorted[start..<min(sorted.count, start + 500)]
                    var q = fullTextQuery(e, folded, ids: chunk.count, limit: limit.map { $0 - out.count }, count: false)
                    q.args += chunk.map { .integer($0) }
                    out += try runIDs(db, q)
                    start += chunk.count
                }
                return out
            }
        } catch {
            throw StoreError.wrap(error, "cannot search", path: path)
        }
    }

    func fullTextCount(_ folded: String, of e: EntityDescription) throws(StoreError) -> Int {
        guard !folded.isEmpty, !e.fullTextSlots.isEmpty else { return 0 }
        do {
            return try read { db in
                try flushDeferredFullText(db)
                guard try SQLiteStore.fullTextIsCurrent(db, e) else { return try scanFullText(db, e, folded, among: nil, limit: nil).count }
                let q = fullTextQuery(e, folded, ids: 0, limit: nil, count: true)
                let stmt = try statement(db, q.sql)
                for (k, v) in q.args.enumerated() { stmt.bind(v, at: Int32(k + 1)) }
                defer { stmt.reset() }
                return try stmt.step(db) ? Int(stmt.int64(at: 0)) : 0
            }
        } catch {
            throw StoreError.wrap(error, "cannot search", path: path)
        }
    }

    private func runIDs(_ db: Database, _ q: (sql: String, args: [Value])) throws -> [Int64] {
        let stmt = try statement(db, q.sql)
        for (k, v) in q.args.enumerated() { stmt.bind(v, at: Int32(k + 1)) }
        defer { stmt.reset() }
        var out: [Int64] = []
        while try stmt.step(db) { out.append(stmt.int64(at: 0)) }
        return out
    }

    /// Without a current index (a store opened read-only before an upgrade built it, or one whose index
    /// was dropped): every row's text folded here. Slow but exact.
    private func scanFullText(_ db: Database, _ e: EntityDescription, _ folded: String, among ids: [Int64]?, limit: Int?) throws -> [Int64] {
        let wanted = ids.map(Set.init)
        let source = e.fullTextSlots.map { column($0, e) }.joined(separator: ", ")
        let rows = try Row.fetchCursor(db, sql: "SELECT id, \(source) FROM \(Schema.quote(e.name)) ORDER BY id")
        var out: [Int64] = []
        while let row = try rows.next() {
            let id: Int64 = row[0]
            if let wanted, !wanted.contains(id) { continue }
            for k in e.fullTextSlots.indices {
                if let text = row[k + 1] as String?, TextFolding.fold(text).contains(folded) {
                    out.append(id)
                    break
                }
            }
            if let limit, out.count >= limit { break }
        }
        return out
    }

    // MARK: Upkeep

    /// Problems with the full-text indexes: missing, built otherwise, or holding other rows than the
    /// entity's.
    func checkFullText(_ db: Database) throws -> [StoreProblem] {
        try flushDeferredFullText(db)
        var out: [StoreProblem] = []
        for e in model.entities where !e.fullTextSlots.isEmpty {
            guard try db.tableExists("og_fts_" + e.name) else {
                out.append(StoreProblem(.fullTextIndex, "the search index of \(e.name) is missing"))
                continue
            }
            guard try SQLiteStore.fullTextIsCurrent(db, e) else {
                out.append(StoreProblem(.fullTextIndex, "the search index of \(e.name) was built by another version"))
                continue
            }
            let table = SQLiteStore.fullTextTable(e), rows = Schema.quote(e.name)
            let missing = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(rows) WHERE id NOT IN (SELECT rowid FROM \(table))") ?? 0
            let extra = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE rowid NOT IN (SELECT id FROM \(rows))") ?? 0
            if missing + extra > 0 {
                var parts: [String] = []
                if missing > 0 { parts.append("lacks \(missing) row\(missing == 1 ? "" : "s")") }
                if extra > 0 { parts.append("holds \(extra) row\(extra == 1 ? "" : "s") that \(extra == 1 ? "is" : "are") gone") }
                out.append(StoreProblem(.fullTextIndex, "the search index of \(e.name) " + parts.joined(separator: " and ")))
                continue
            }
            // Every row's text as indexed, against its text folded now.
            let source = e.fullTextSlots.map { "e." + Schema.quote(e.properties[$0].name) }.joined(separator: ", ")
            let indexed = SQLiteStore.fullTextColumns(e).map { "f." + $0 }.joined(separator: ", ")
            let rowsRead = try Row.fetchCursor(db, sql: "SELECT e.id, \(source), \(indexed) FROM \(rows) e JOIN \(table) f ON f.rowid = e.id")
            var stale = 0
            let n = e.fullTextSlots.count
            while let row = try rowsRead.next() {
                for k in 0..<n where (row[k + 1] as String?).map(TextFolding.fold) != row[k + 1 + n] as String? {
                    stale += 1
                    break
                }
            }
            if stale > 0 {
                out.append(StoreProblem(.fullTextIndex, "the search index of \(e.name) holds old text of \(stale) row\(stale == 1 ? "" : "s")"))
            }
        }
        return out
    }
}
