import GRDB
import GRDBSQLite

/// Holding a search index in memory (see ``TextIndexCache``).
extension SQLiteStore {
    /// More changed rows than this since the held index's entry: it is read whole instead.
    static let heldIndexRowsToPatch = 4_096

    /// `e`'s index in memory, current with the snapshot `db` reads (call inside one), or nil when a search
    /// reads the file: the first whole scan of a store (a command that searches once keeps nothing), inside
    /// a write transaction (its own changes are not logged yet), an index past ``heldIndexLimit``.
    ///
    /// A search of a few rows (`wholeScan` false) takes the index only if one is held already: it neither
    /// counts towards holding one nor reads the whole index (brought up to date, else nil).
    func heldTextIndex(_ db: Database, _ e: EntityDescription, wholeScan: Bool = true) throws -> TextIndexCache? {
        guard transaction == nil else { return nil }
        if wholeScan {
            let scans = wholeIndexScans[e.index, default: 0] + 1
            wholeIndexScans[e.index] = scans
            guard scans > 1 else { return nil }
        } else if textIndexCaches[e.index] == nil {
            return nil
        }
        let build = try buildToken(db, e)
        let newest: Int64
        var entries: [(seq: Int64, changes: ChangeSet?)] = []
        do {
            (entries, newest) = try changes(after: textIndexCaches[e.index]?.seq ?? Int64.max)
        } catch {
            // A file without the log (made by an early version, read-only): every search reads the file.
            textIndexCaches[e.index] = nil
            return nil
        }
        if let cache = textIndexCaches[e.index], cache.build == build, newest >= cache.seq {
            if newest == cache.seq { return cache }
            if let rows = changedRows(entries, from: cache.seq, to: newest, e), try patch(cache, db, e, rows: rows) {
                cache.seq = newest
                heldIndexTally.patches += 1
                return cache
            }
        }
        textIndexCaches[e.index] = nil
        guard wholeScan else { return nil }
        // Found too big at this entry: each search reads the file, and this read is not made again for each.
        guard heldIndexTooBigAt[e.index] != newest else { return nil }
        heldIndexTally.wholeReads += 1
        let cache = TextIndexCache(seq: newest, build: build, starts: [], chunks: [])
        guard try readChunks(db, e, from: nil, to: nil, into: cache) else {
            heldIndexTooBigAt[e.index] = newest
            return nil
        }
        textIndexCaches[e.index] = cache
        return cache
    }

    /// The token of the build `e`'s index was last made by (nil when an earlier version built it).
    private func buildToken(_ db: Database, _ e: EntityDescription) throws -> String? {
        let s = try statement(db, "SELECT value FROM og_metadata WHERE key = ?")
        s.bind(.string(SQLiteStore.fullTextBuildKey(e)), at: 1)
        defer { s.reset() }
        guard try s.step(db), case .string(let token) = s.value(at: 0, as: .string) else { return nil }
        return token
    }

    /// The rows of `e` whose indexed text the log's entries after `seq` up to `newest` may have changed
    /// (inserted, deleted, an indexed attribute updated), ascending; nil when the entries do not account for
    /// every change (one pruned or unreadable) or name too many rows to patch.
    private func changedRows(_ entries: [(seq: Int64, changes: ChangeSet?)], from seq: Int64, to newest: Int64, _ e: EntityDescription)
        -> [Int64]?
    {
        guard entries.count == newest - seq else { return nil }
        var rows: [Int64] = []
        let slots = e.fullTextSlots
        let maskable = slots.allSatisfy { $0 < 64 }
        for (k, entry) in entries.enumerated() {
            guard entry.seq == seq + Int64(k) + 1, let changes = entry.changes else { return nil }
            let c = changes[e.index]
            rows += c.inserted.map(\.rowID)
            rows += c.deleted.map(\.rowID)
            for (id, mask) in c.updated where !maskable || slots.contains(where: mask.contains(slot:)) { rows.append(id.rowID) }
            if rows.count > SQLiteStore.heldIndexRowsToPatch { return nil }
        }
        return rows.sorted()
    }

    /// Reads again, for each of `rows`, the chunks of the range around it that both the held index and the
    /// file cut at the same starts: inside it the two may cut differently (a chunk split or emptied since),
    /// but at its ends both hold exactly the rows between. Rows outside every such range are unchanged, so
    /// the held chunks for them are still right. False when the index is past ``heldIndexLimit``.
    private func patch(_ cache: TextIndexCache, _ db: Database, _ e: EntityDescription, rows: [Int64]) throws -> Bool {
        let exists = try statement(db, "SELECT 1 FROM \(SQLiteStore.fullTextTable(e)) WHERE start = ?")
        func inFile(_ start: Int64) throws -> Bool {
            exists.bind(start, at: 1)
            defer { exists.reset() }
            return try exists.step(db)
        }
        // The ranges, in ascending order, merged where they meet: (nil = unbounded).
        var ranges: [(lo: Int64?, hi: Int64?)] = []
        for id in rows {
            if let last = ranges.last, last.hi.map({ id < $0 }) ?? true { continue }
            let held = cache.segment(of: id)
            var below = held
            while below >= 0, try !inFile(cache.starts[below]) { below -= 1 }
            var above = held + 1
            while above < cache.starts.count, try !inFile(cache.starts[above]) { above += 1 }
            if below != held || above != held + 1 { heldIndexTally.widened += 1 }
            let range = (lo: below >= 0 ? cache.starts[below] : nil, hi: above < cache.starts.count ? cache.starts[above] : nil)
            if let last = ranges.last, let hi = last.hi, let lo = range.lo, lo <= hi {
                ranges[ranges.count - 1].hi = range.hi
            } else {
                ranges.append(range)
            }
        }
        heldIndexTally.ranges += ranges.count
        for range in ranges {
            guard try readChunks(db, e, from: range.lo, to: range.hi, into: cache) else { return false }
        }
        return true
    }

    /// Puts the file's chunks of `e` with starts in `lo..<hi` (nil: unbounded) in place of the held ones.
    /// False when the held index would pass ``heldIndexLimit``.
    private func readChunks(_ db: Database, _ e: EntityDescription, from lo: Int64?, to hi: Int64?, into cache: TextIndexCache) throws
        -> Bool
    {
        let table = SQLiteStore.fullTextTable(e)
        let s = try statement(db, "SELECT start, data FROM \(table) WHERE start BETWEEN ? AND ? ORDER BY start")
        s.bind(lo ?? Int64.min, at: 1)
        // `hi` is above a row's ID, so above Int64.min.
        s.bind(hi.map { $0 - 1 } ?? Int64.max, at: 2)
        defer { s.reset() }
        var fresh: [(start: Int64, bytes: [UInt8])] = []
        var total = cache.bytes
        // Not through a memory map, as a search's scan reads (see `searchChunks`): the mapped pages and the
        // copies held would both count in the resident size until the read ends (120 MiB, not 87, at a
        // million items), and this read is made once.
        while try s.step(db) {
            let count = Int(sqlite3_column_bytes(s.handle, 1))
            total += count
            guard total <= heldIndexLimit else { return false }
            let bytes = [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(s.handle, 1), count: count))
            fresh.append((s.int64(at: 0), bytes))
        }
        cache.replace(from: lo, to: hi, with: fresh)
        return cache.bytes <= heldIndexLimit
    }
}
