extension SQLiteStore {
    /// Matches of the full-text index up to which a fetch reads only the rows the index found, by ID; past
    /// it, reading that many rows by ID costs about what testing every row in order does.
    static let defaultNarrowingLimit = 16_384

    /// `"id" IN (<the index's matches>)` and its argument, for a request whose predicate has a condition the
    /// entity's full-text index answers (see `ObjectPredicate.fullTextNeedle`); nil when it has none. When the
    /// index finds more than `narrowingLimit` rows (16,384 unless a test lowers it), `"id" >= <the first>` for
    /// a request in ID order, nil for others. Added to the predicate, not put in place of its test: a
    /// row comes back only when the whole predicate holds for it as read (a view of 111 rows among a million
    /// read every title and note, 145 ms; the index holds them in memory).
    func fullTextNarrowing(_ request: FetchRequest, _ entity: EntityDescription) throws(StoreError) -> (String, [Value])? {
        guard let needle = request.predicate.fullTextNeedle(for: entity) else { return nil }
        let folded = TextFolding.fold(needle)
        // Every text holds the empty one: nothing to narrow.
        guard !folded.isEmpty else { return nil }
        let found: [Int64]?
        do {
            // An index not current (being built, damaged, an older version's in a store opened read-only), or
            // with a chunk that cannot be read, narrows nothing: its search would test every row itself, in
            // Swift, and then the fetch again.
            let limit = narrowingLimit < Int.max ? narrowingLimit + 1 : Int.max
            found = try snapshot {
                try read { db in
                    guard try fullTextIsCurrentNow(db, entity) else { return nil }
                    do {
                        return try searchChunks(db, entity, folded, among: nil, limit: limit, scanningIfDamaged: false)
                    } catch is DamagedChunks {
                        return nil
                    }
                }
            }
        } catch {
            throw StoreError.wrap(error, "cannot search", path: path)
        }
        guard let ids = found else { return nil }
        guard ids.count <= narrowingLimit else {
            narrowingTally.tooMany += 1
            // In ID order the read may still start at the first match: many matches made together late (an
            // import) would otherwise keep a view's first screen waiting while every row before them is tested.
            guard request.sortKeys.isEmpty, let first = ids.first else { return nil }
            return ("\"id\" >= ?", [.integer(first)])
        }
        narrowingTally.narrowed += 1
        return ("\"id\" IN (SELECT value FROM json_each(?))", [.string(Self.jsonArray(ids))])
    }

    /// Runs `body` with the narrowing of `request` (nil when there is none); the index's matches and what
    /// `body` reads are on one snapshot, so a row another process changes between the two is never left out.
    func withNarrowing<T>(_ request: FetchRequest, _ entity: EntityDescription, _ body: ((String, [Value])?) throws -> T) throws -> T {
        guard request.predicate.fullTextNeedle(for: entity) != nil else { return try body(nil) }
        return try snapshot { try body(try fullTextNarrowing(request, entity)) }
    }
}
