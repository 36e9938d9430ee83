import GRDB
import GRDBSQLite

/// The full-text index of an entity with a ``FullTextIndex``: a table `og_text_<Entity>` of chunks (see
/// ``TextChunk``), each holding the indexed attributes of a run of rows as folded by ``TextFolding``, keyed
/// by the lowest ID it may hold: a row is in the chunk with the greatest start not above its ID. A search
/// reads every chunk and looks for the folded query in its texts (``TextChunkScanner``): substrings of any
/// length, exact, at a few thousand table rows per million indexed ones, and the index costs little more
/// than the folded text itself to write and to keep. `og_metadata` records, beside it, the folding, the
/// format and the columns it was built with: an index built otherwise is stale and built again.
extension SQLiteStore {
    static func fullTextTable(_ e: EntityDescription) -> String { Schema.quote(fullTextTableName(e)) }

    static func fullTextTableName(_ e: EntityDescription) -> String { "og_text_" + e.name }

    /// The FTS5 table earlier versions kept instead (dropped when the chunks are built).
    private static func trigramTableName(_ e: EntityDescription) -> String { "og_fts_" + e.name }

    /// The same key as the FTS5 index's: a program that keeps the other kind finds the stamp not its own,
    /// builds its kind again and stamps it, so whichever program opens a store next knows whether the index
    /// there is current.
    static func fullTextStampKey(_ e: EntityDescription) -> String { "fulltext_" + e.name }

    /// The key of a token written with each build of `e`'s index: a store that holds the index in memory
    /// (``TextIndexCache``) reads it whole again when the token is another.
    static func fullTextBuildKey(_ e: EntityDescription) -> String { "fulltext_build_" + e.name }

    /// A token no earlier build wrote.
    static func newBuildToken() -> String {
        var g = SystemRandomNumberGenerator()
        return String(g.next(), radix: 36) + String(g.next(), radix: 36)
    }

    /// What a current index of `e` records: the folding's version, the chunks' format and capacity and the
    /// indexed attributes.
    private static func fullTextStamp(_ e: EntityDescription) -> String {
        "\(TextFolding.version)|chunks \(TextChunk.format) \(TextChunk.capacity)|"
            + e.fullTextSlots.map { e.properties[$0].name }.joined(separator: ",")
    }

    /// True when `e`'s index exists and was built with this folding, format and attributes.
    static func fullTextIsCurrent(_ db: Database, _ e: EntityDescription) throws -> Bool {
        guard !e.fullTextSlots.isEmpty else { return false }
        let stamp = try String.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = ?", arguments: [fullTextStampKey(e)])
        guard stamp == fullTextStamp(e) else { return false }
        return try hasTable(db, fullTextTableName(e))
    }

    /// ``fullTextIsCurrent(_:_:)`` through one cached statement: every save and every search asks, and
    /// preparing the two queries each time cost more than the rest of a rename's index upkeep.
    func fullTextIsCurrentNow(_ db: Database, _ e: EntityDescription) throws -> Bool {
        guard !e.fullTextSlots.isEmpty else { return false }
        let s = try statement(
            db,
            "SELECT coalesce((SELECT value FROM og_metadata WHERE key = ?1) = ?2, 0) "
                + "AND EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?3)")
        s.bind(.string(SQLiteStore.fullTextStampKey(e)), at: 1)
        s.bind(.string(SQLiteStore.fullTextStamp(e)), at: 2)
        s.bind(.string(SQLiteStore.fullTextTableName(e)), at: 3)
        defer { s.reset() }
        return try s.step(db) && s.int64(at: 0) != 0
    }

    /// What the stamp of an index a save found damaged says: not current, so it is built again.
    static let damagedStamp = "damaged"

    /// Marks `e`'s index as damaged (see ``damagedStamp``).
    func markFullTextDamaged(_ db: Database, _ e: EntityDescription) throws {
        let s = try statement(db, "UPDATE og_metadata SET value = ? WHERE key = ?")
        s.bind(.string(SQLiteStore.damagedStamp), at: 1)
        s.bind(.string(SQLiteStore.fullTextStampKey(e)), at: 2)
        try s.run(db)
    }

    /// Builds every index that is missing or stale (all of them with `force`), and drops the index of an
    /// entity that no longer declares one, and any FTS5 index an earlier version kept. Runs in the caller's
    /// write transaction (at open, or a repair). Returns the entities whose index it built.
    @discardableResult
    static func buildFullText(_ db: Database, _ model: Model, force: Bool = false) throws -> [String] {
        var built: [String] = []
        for e in model.entities {
            if try hasTable(db, trigramTableName(e)) { try db.execute(sql: "DROP TABLE \(Schema.quote(trigramTableName(e)))") }
            if e.fullTextSlots.isEmpty {
                if try hasTable(db, fullTextTableName(e)) {
                    try db.execute(sql: "DROP TABLE \(fullTextTable(e))")
                    try db.execute(sql: "DELETE FROM og_metadata WHERE key IN (?, ?)", arguments: [fullTextStampKey(e), fullTextBuildKey(e)])
                }
                continue
            }
            if !force, try fullTextIsCurrent(db, e) { continue }
            try db.execute(sql: "DROP TABLE IF EXISTS \(fullTextTable(e))")
            try db.execute(sql: "CREATE TABLE \(fullTextTable(e)) (start INTEGER PRIMARY KEY, data BLOB NOT NULL)")
            let source = e.fullTextSlots.map { Schema.quote(e.properties[$0].name) }.joined(separator: ", ")
            let insert = RawStatement(try db.makeStatement(sql: "INSERT INTO \(fullTextTable(e)) (start, data) VALUES (?, ?)"))
            func write(_ key: Int64, _ bytes: [UInt8]) throws {
                insert.bind(key, at: 1)
                insert.bind(bytes: bytes, at: 2)
                try insert.run(db)
            }
            var writer = TextChunkWriter(columns: e.fullTextSlots.count, key: nil)
            // Read through the C API, not GRDB's `String`, which ends a text at its first NUL.
            let rows = RawStatement(try db.makeStatement(sql: "SELECT id, \(source) FROM \(Schema.quote(e.name)) ORDER BY id"))
            while try rows.step(db) {
                try writer.add(rows.int64(at: 0), text: { foldedText(rows.value(at: Int32($0 + 1), as: .string)) }, write)
            }
            try writer.finish(write)
            try db.execute(
                sql: "INSERT OR REPLACE INTO og_metadata(key, value) VALUES (?, ?), (?, ?)",
                arguments: [fullTextStampKey(e), fullTextStamp(e), fullTextBuildKey(e), Self.newBuildToken()])
            built.append(e.name)
        }
        return built
    }

    // MARK: Writing

    /// A stored text folded for the index; nil for none.
    static func foldedText(_ value: Value) -> String? {
        if case .string(let s) = value { return TextFolding.fold(s) }
        return nil
    }

    /// One row's change to an index: gone, or its texts now (a new row's, given by the unit's values, or
    /// an updated one's, read back as stored).
    private enum TextEdit {
        case remove
        case insert(run: Int, row: Int)
        case update
    }

    /// Keeps the indexes of the entities `unit` writes, after its rows are written: a deleted row leaves
    /// its index, an inserted one enters it, and an updated one whose indexed attributes changed is indexed
    /// again from its row as stored now. Each chunk the unit touches is read and written once. An index
    /// that is not current is left alone (the store's check reports it and a repair builds it).
    func writeFullText(_ db: Database, _ unit: StoreWrite) throws {
        var edits: [[(id: Int64, edit: TextEdit)]] = Array(repeating: [], count: model.entities.count)
        for d in unit.deletes where !d.entity.fullTextSlots.isEmpty { edits[d.entity.index].append((d.id, .remove)) }
        for (r, run) in unit.inserts.enumerated() where !run.entity.fullTextSlots.isEmpty {
            let index = run.entity.index
            edits[index].reserveCapacity(edits[index].count + run.ids.count)
            for k in run.ids.indices { edits[index].append((run.ids[k], .insert(run: r, row: k))) }
        }
        for u in unit.updates where u.slots.contains(where: u.entity.fullTextSlots.contains) {
            edits[u.entity.index].append((u.id, .update))
        }
        for (index, list) in edits.enumerated() where !list.isEmpty {
            let e = model.entities[index]
            guard try fullTextIsCurrentNow(db, e) else { continue }
            try applyTextEdits(db, e, list, unit)
        }
    }

    /// Applies `edits` (in the unit's order: a later one for the same row wins) chunk by chunk, in ID
    /// order: the chunk that holds the first row left is read, every edit of a row up to the next chunk's
    /// start merged into it, and the result written back, in pieces of at most ``TextChunk/capacity``
    /// bytes (the first under the chunk's own start, the others under their first IDs), or deleted when
    /// nothing is left.
    private func applyTextEdits(_ db: Database, _ e: EntityDescription, _ edits: [(id: Int64, edit: TextEdit)], _ unit: StoreWrite) throws {
        var order = Array(edits.indices)
        let sorted = zip(edits, edits.dropFirst()).allSatisfy { $0.id < $1.id }
        if !sorted { order.sort { (edits[$0].id, $0) < (edits[$1].id, $1) } }
        let table = SQLiteStore.fullTextTable(e)
        let covering = try statement(db, "SELECT start, data FROM \(table) WHERE start <= ? ORDER BY start DESC LIMIT 1")
        let following = try statement(db, "SELECT start FROM \(table) WHERE start > ? ORDER BY start LIMIT 1")
        let slots = e.fullTextSlots
        let source = slots.map { Schema.quote(e.properties[$0].name) }.joined(separator: ", ")
        let stored = try statement(db, "SELECT \(source) FROM \(Schema.quote(e.name)) WHERE id = ?")
        let columns = slots.count
        let prepared = unit.prepared
        prepared?.wait()
        func write(_ key: Int64, _ bytes: [UInt8]) throws {
            let s = try statement(db, "INSERT OR REPLACE INTO \(table) (start, data) VALUES (?, ?)")
            s.bind(key, at: 1)
            s.bind(bytes: bytes, at: 2)
            try s.run(db)
        }
        var i = 0
        var done = 0
        while i < order.count {
            let first = edits[order[i]].id
            // The chunk that holds `first`, if any, and where the next one starts.
            covering.bind(first, at: 1)
            var key: Int64?
            var old = TextChunk(columns: columns)
            following.bind(first, at: 1)
            let next: Int64? = try following.step(db) ? following.int64(at: 0) : nil
            following.reset()
            if try covering.step(db) {
                key = covering.int64(at: 0)
                let blob = sqlite3_column_blob(covering.handle, 1)
                let count = Int(sqlite3_column_bytes(covering.handle, 1))
                let read = TextChunk(decoding: UnsafeRawBufferPointer(start: blob, count: count), start: key!, columns: columns)
                covering.reset()
                // A chunk that cannot be read, or holding rows at or past the next chunk's start (damaged by
                // something else): rewritten, it would lose its rows or overwrite its neighbour, so the
                // index is marked damaged instead. Searches then fold every row (exact), `check` says
                // why, and the next writable open or a repair builds it again.
                guard let read, read.ids.first.map({ $0 >= key! }) ?? true, next.map({ n in read.ids.last.map { $0 < n } ?? true }) ?? true
                else {
                    try markFullTextDamaged(db, e)
                    return
                }
                old = read
            }
            var writer = TextChunkWriter(columns: columns, key: key)
            var k = 0
            // The old rows below `id` go on as they are: in one copy when they fit, as a rename's do.
            func keepOld(below id: Int64?) throws {
                var j = k
                while j < old.count, id.map({ old.ids[j] < $0 }) ?? true { j += 1 }
                guard j > k else { return }
                var bytes = old.rowEnds[j - 1] - (k == 0 ? 0 : old.rowEnds[k - 1])
                var previous = writer.chunk.ids.last ?? old.ids[k]
                for r in k..<j {
                    bytes += TextChunk.varintSize(UInt64(bitPattern: old.ids[r] &- previous))
                    previous = old.ids[r]
                }
                if !writer.wouldOverflow(old.ids[k], size: bytes) {
                    writer.chunk.append(rows: k..<j, of: old)
                    k = j
                    return
                }
                while k < j {
                    if writer.wouldOverflow(old.ids[k], size: old.rowSize(k)) { try writer.flush(write) }
                    writer.chunk.append(row: k, of: old)
                    k += 1
                }
            }
            while i < order.count, next.map({ edits[order[i]].id < $0 }) ?? true {
                let id = edits[order[i]].id
                // Only the last edit of a row counts.
                if i + 1 < order.count, edits[order[i + 1]].id == id {
                    i += 1
                    continue
                }
                try keepOld(below: id)
                if k < old.count, old.ids[k] == id {
                    k += 1
                }
                switch edits[order[i]].edit {
                case .remove:
                    break
                case .insert(let run, let row):
                    if let prepared, prepared.hasFolded(run: run) {
                        try writer.add(id, text: { c in prepared.folded(run: run, row: row, column: c, of: columns) }, write)
                        break
                    }
                    let values = unit.inserts[run].rows[row]
                    try writer.add(
                        id,
                        text: { c in
                            if case .string(let s) = values[slots[c]] { return TextFolding.fold(s) }
                            return nil
                        }, write)
                case .update:
                    stored.bind(id, at: 1)
                    if try stored.step(db) {
                        let values = (0..<columns).map { stored.value(at: Int32($0), as: .string) }
                        stored.reset()
                        try writer.add(
                            id,
                            text: { c in
                                if case .string(let s) = values[c] { return TextFolding.fold(s) }
                                return nil
                            }, write)
                    }
                }
                i += 1
                done += 1
                if done % 4096 == 0 { heartbeat?() }
            }
            try keepOld(below: nil)
            try writer.finish(write)
            if let key, !writer.wroteKey {
                let s = try statement(db, "DELETE FROM \(table) WHERE start = ?")
                s.bind(key, at: 1)
                try s.run(db)
            }
        }
    }

    // MARK: Queries

    func fullTextMatches(_ folded: String, of e: EntityDescription, among ids: [Int64]?, limit: Int?) throws(StoreError) -> [Int64] {
        guard !folded.isEmpty, !e.fullTextSlots.isEmpty, ids?.isEmpty != true else { return [] }
        do {
            // On one snapshot: the held index is brought up to the log entry its reads see.
            return try snapshot {
                try read { db in
                    guard try fullTextIsCurrentNow(db, e) else { return try scanFullText(db, e, folded, among: ids, limit: limit) }
                    return try searchChunks(db, e, folded, among: ids.map { $0.sorted() }, limit: limit ?? Int.max)
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot search", path: path)
        }
    }

    func fullTextCount(_ folded: String, of e: EntityDescription) throws(StoreError) -> Int {
        try fullTextMatches(folded, of: e, among: nil, limit: nil).count
    }

    /// From the held index's filters as of its last search (an estimate needs no read of the log to bring it
    /// up to date); nil while none is held (the first searches of a store, or an index too big to hold).
    func fullTextShareToRead(_ folded: String, of e: EntityDescription) throws(StoreError) -> Double? {
        guard !folded.isEmpty, !e.fullTextSlots.isEmpty, let cache = textIndexCaches[e.index] else { return nil }
        return cache.shareToRead(Array(folded.utf8), columns: e.fullTextSlots.count)
    }

    /// The most of the file a scan of every chunk reads through a memory map.
    static let scanMappedBytes = 1 << 30

    /// Fewer IDs than this are looked for in their own chunks; more, in every chunk.
    private static let chunksReadForFewIDs = 1_024
    /// With the index held, fewer IDs than this are looked for in their own chunks (a binary search each).
    private static let chunksReadForSomeIDs = 65_536

    /// A chunk could not be read and the caller asked not to search every row instead.
    struct DamagedChunks: Error {}

    /// The rows whose folded text holds `folded`, ascending, through the chunks: every one, or those of
    /// a few `among`. Where a chunk cannot be read, every row is searched instead, or, unless
    /// `scanningIfDamaged`, ``DamagedChunks`` is thrown.
    func searchChunks(
        _ db: Database, _ e: EntityDescription, _ folded: String, among: [Int64]?, limit: Int, scanningIfDamaged: Bool = true
    ) throws -> [Int64] {
        var scanner = TextChunkScanner(needle: Array(folded.utf8), columns: e.fullTextSlots.count)
        var hits: [Int64] = []
        var damaged = false
        func scan(_ bytes: UnsafeRawBufferPointer, start: Int64) {
            // Chunks hold disjoint runs: a row found in one chunk at or past the next one's start is damage.
            if among == nil, let last = hits.last, last >= start { damaged = true }
            if !scanner.scan(bytes, start: start, among: among, limit: limit, into: &hits) { damaged = true }
        }
        func scan(_ s: RawStatement) {
            let blob = sqlite3_column_blob(s.handle, 1)
            scan(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(s.handle, 1))), start: s.int64(at: 0))
        }
        let table = SQLiteStore.fullTextTable(e)
        if let among, among.count < SQLiteStore.chunksReadForSomeIDs, let cache = try heldTextIndex(db, e, wholeScan: false) {
            if let found = cache.scan(scanner.needle, columns: e.fullTextSlots.count, onlyAmong: among) {
                hits = Array(found.prefix(limit))
            } else {
                damaged = true
            }
        } else if let among, among.count < SQLiteStore.chunksReadForFewIDs {
            let covering = try statement(db, "SELECT start, data FROM \(table) WHERE start <= ? ORDER BY start DESC LIMIT 1")
            var read: Set<Int64> = []
            for id in among where hits.count < limit {
                covering.bind(id, at: 1)
                if try covering.step(db) {
                    if read.insert(covering.int64(at: 0)).inserted { scan(covering) }
                    covering.reset()
                }
            }
            hits.sort()
            if zip(hits, hits.dropFirst()).contains(where: { $0 == $1 }) { damaged = true }
        } else if let cache = try heldTextIndex(db, e, wholeScan: among == nil) {
            if let found = cache.scan(
                scanner.needle, columns: e.fullTextSlots.count, among: among, limit: limit, parallelFrom: heldIndexParallelChunks)
            {
                hits = found
            } else {
                damaged = true
            }
        } else {
            // Every chunk is read (29 MB at a million items): through a memory map, not a read() per page,
            // which was 10 ms of system calls alone. Mapped only for the scan: the pages it touches would
            // otherwise stay in the process's resident size (171 MiB, not 42, with a million-item level open).
            try db.execute(sql: "PRAGMA mmap_size = \(SQLiteStore.scanMappedBytes)")
            defer { try? db.execute(sql: "PRAGMA mmap_size = 0") }
            let all = try statement(db, "SELECT start, data FROM \(table) ORDER BY start")
            while hits.count < limit, !damaged, try all.step(db) { scan(all) }
            all.reset()
        }
        // A chunk that cannot be read (a damaged file; `check` reports it, a repair builds the index again)
        // must not hide rows: every row is searched instead.
        if damaged {
            guard scanningIfDamaged else { throw DamagedChunks() }
            return try scanFullText(db, e, folded, among: among, limit: limit)
        }
        return hits
    }

    /// Without a current index (a store opened read-only before an upgrade built it, or one whose index
    /// was dropped): every row's text folded here. Slow but exact.
    private func scanFullText(_ db: Database, _ e: EntityDescription, _ folded: String, among ids: [Int64]?, limit: Int?) throws -> [Int64] {
        let source = e.fullTextSlots.map { column($0, e) }.joined(separator: ", ")
        let needle = Array(folded.utf8)
        func holds(_ s: RawStatement) -> Bool {
            e.fullTextSlots.indices.contains { k in
                SQLiteStore.foldedText(s.value(at: Int32(k + 1), as: .string)).map { $0.utf8.firstRange(of: needle) != nil } ?? false
            }
        }
        // A few IDs (a page of the outline's walk) are read by ID, not by reading every row for each page.
        if let ids, ids.count <= SQLiteStore.chunksReadForFewIDs {
            let one = try statement(db, "SELECT id, \(source) FROM \(Schema.quote(e.name)) WHERE id = ?")
            var out: [Int64] = []
            for id in Set(ids).sorted() where out.count < limit ?? Int.max {
                one.bind(id, at: 1)
                if try one.step(db), holds(one) { out.append(id) }
                one.reset()
            }
            return out
        }
        let wanted = ids.map(Set.init)
        let rows = RawStatement(try db.makeStatement(sql: "SELECT id, \(source) FROM \(Schema.quote(e.name)) ORDER BY id"))
        var out: [Int64] = []
        while try rows.step(db) {
            let id = rows.int64(at: 0)
            if let wanted, !wanted.contains(id) { continue }
            if holds(rows) { out.append(id) }
            if let limit, out.count >= limit {
                rows.reset()
                break
            }
        }
        return out
    }

    // MARK: Upkeep

    /// Problems with the full-text indexes: missing, built otherwise, damaged, or holding other rows or
    /// other text than the entity's, found by walking the chunks and the rows side by side in ID order.
    func checkFullText(_ db: Database) throws -> [StoreProblem] {
        var out: [StoreProblem] = []
        for e in model.entities where !e.fullTextSlots.isEmpty {
            guard try SQLiteStore.hasTable(db, SQLiteStore.fullTextTableName(e)) else {
                out.append(StoreProblem(.fullTextIndex, "the search index of \(e.name) is missing"))
                continue
            }
            guard try SQLiteStore.fullTextIsCurrent(db, e) else {
                let stamp = try String.fetchOne(db, sql: "SELECT value FROM og_metadata WHERE key = ?", arguments: [SQLiteStore.fullTextStampKey(e)])
                out.append(
                    StoreProblem(
                        .fullTextIndex,
                        stamp == SQLiteStore.damagedStamp
                            ? "the search index of \(e.name) is damaged (a save found a part it could not read)"
                            : "the search index of \(e.name) was built by another version"))
                continue
            }
            let columns = e.fullTextSlots.count
            let source = e.fullTextSlots.map { Schema.quote(e.properties[$0].name) }.joined(separator: ", ")
            let rows = RawStatement(try db.makeStatement(sql: "SELECT id, \(source) FROM \(Schema.quote(e.name)) ORDER BY id"))
            let chunks = try db.makeStatement(sql: "SELECT start, data FROM \(SQLiteStore.fullTextTable(e)) ORDER BY start")
            let raw = RawStatement(chunks)
            var damaged = 0, missing = 0, extra = 0, stale = 0
            var last: Int64?
            // The chunks' rows, one chunk at a time, as (ID, texts).
            var pending: [(id: Int64, texts: [String?])] = []
            var at = 0
            func nextIndexed() throws -> (id: Int64, texts: [String?])? {
                while at == pending.count {
                    guard try raw.step(db) else { return nil }
                    let start = raw.int64(at: 0)
                    let bytes = UnsafeRawBufferPointer(
                        start: sqlite3_column_blob(raw.handle, 1), count: Int(sqlite3_column_bytes(raw.handle, 1)))
                    // Chunks hold disjoint runs: a row above the next chunk's start would be looked for there.
                    guard last.map({ start > $0 }) ?? true, let chunk = TextChunk(decoding: bytes, start: start, columns: columns) else {
                        damaged += 1
                        continue
                    }
                    pending.removeAll(keepingCapacity: true)
                    at = 0
                    for k in 0..<chunk.count { pending.append((chunk.ids[k], chunk.texts(ofRow: k))) }
                    last = chunk.ids[chunk.count - 1]
                }
                defer { at += 1 }
                return pending[at]
            }
            var indexed = try nextIndexed()
            while try rows.step(db) {
                let id = rows.int64(at: 0)
                while let i = indexed, i.id < id {
                    extra += 1
                    indexed = try nextIndexed()
                }
                guard let i = indexed, i.id == id else {
                    missing += 1
                    continue
                }
                if (0..<columns).contains(where: { SQLiteStore.foldedText(rows.value(at: Int32($0 + 1), as: .string)) != i.texts[$0] }) {
                    stale += 1
                }
                indexed = try nextIndexed()
            }
            while indexed != nil {
                extra += 1
                indexed = try nextIndexed()
            }
            raw.reset()
            var parts: [String] = []
            func some(_ n: Int) -> String { "\(n) row\(n == 1 ? "" : "s")" }
            if damaged > 0 { parts.append("has \(damaged) damaged chunk\(damaged == 1 ? "" : "s")") }
            if missing > 0 { parts.append("lacks \(some(missing))") }
            if extra > 0 { parts.append("holds \(some(extra)) that \(extra == 1 ? "is" : "are") gone") }
            if stale > 0 { parts.append("holds old text of \(some(stale))") }
            if !parts.isEmpty {
                out.append(StoreProblem(.fullTextIndex, "the search index of \(e.name) " + parts.joined(separator: " and ")))
            }
        }
        return out
    }
}
