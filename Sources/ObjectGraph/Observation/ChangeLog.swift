import Foundation

/// The binary form of a change set in a store's change log, so other processes can learn what each commit
/// touched. Entities are named (models may differ by an additive migration); property masks are the
/// writer's and count as "everything" for a reader whose model hash differs.
enum ChangeLog {
    /// How long entries are kept for readers that poll late.
    static let retention: TimeInterval = 600

    /// The author of a commit travels as one more entity name, with no records: no entity is named so
    /// (a name cannot hold NUL), so a reader that knows nothing of authors skips it as an entity its model
    /// lacks, and entries keep the format every version reads.
    static let authorPrefix: [UInt8] = Array("\u{0}author\u{0}".utf8)

    static func encode(_ changes: ChangeSet, model: Model, author: String? = nil) -> [UInt8] {
        let entities = changes.entities.keys.sorted()
        var out: [UInt8] = Array("OG1".utf8) + Array(model.versionHash.utf8)
        let singles = entities.reduce(0) { $0 + changes[$1].updated.single.count }
        out.reserveCapacity(64 + 2 * (changes.insertedCount + changes.deletedCount) + 19 * singles)
        put16(&out, entities.count + (author == nil ? 0 : 1))
        for e in entities {
            let name = Array(model.entities[e].name.utf8)
            put16(&out, name.count)
            out += name
        }
        if let author {
            // Listed after the entities, so record references stay the entities' indexes.
            let name = authorPrefix + Array(author.utf8.prefix(1024))
            put16(&out, name.count)
            out += name
        }
        var usedRuns = false
        for (ref, e) in entities.enumerated() {
            let c = changes[e]
            usedRuns = ids(&out, 0, ref, c.inserted) || usedRuns
            for (id, mask) in c.updated.single { record(&out, 1, ref, id.rowID, mask.rawValue) }
            for run in c.updated.runs { runRecord(&out, ref, run) }
            usedRuns = usedRuns || !c.updated.runs.isEmpty
            usedRuns = ids(&out, 2, ref, c.deleted) || usedRuns
        }
        // Runs need records older readers do not know: such entries say "OG2", which those readers cannot
        // read and take as missed changes (they re-read everything), rather than misread.
        if usedRuns { out[2] = UInt8(ascii: "2") }
        return out
    }

    /// The change set, or nil for bytes this version cannot read.
    static func decode(_ bytes: [UInt8], model: Model) -> ChangeSet? { decodeEntry(bytes, model: model)?.changes }

    /// The change set and the author the commit named (``Context/transactionAuthor``), or nil for bytes
    /// this version cannot read.
    static func decodeEntry(_ bytes: [UInt8], model: Model) -> (changes: ChangeSet, author: String?)? {
        guard bytes.count >= 21, bytes[0..<2].elementsEqual("OG".utf8), bytes[2] == UInt8(ascii: "1") || bytes[2] == UInt8(ascii: "2")
        else { return nil }
        var author: String?
        let sameModel = bytes[3..<19].elementsEqual(model.versionHash.utf8)
        var i = 19
        func get(_ n: Int) -> UInt64? {
            guard i + n <= bytes.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<n { v |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
            i += n
            return v
        }
        guard let count = get(2) else { return nil }
        var entityOf: [Int?] = []
        for _ in 0..<count {
            guard let n = get(2), i + Int(n) <= bytes.count else { return nil }
            let raw = bytes[i..<(i + Int(n))]
            i += Int(n)
            if raw.starts(with: authorPrefix) {
                author = String(decoding: raw.dropFirst(authorPrefix.count), as: UTF8.self)
                entityOf.append(nil)
                continue
            }
            entityOf.append(model.entity(String(decoding: raw, as: UTF8.self))?.index)
        }
        // The same 7-bit groups as a text chunk's numbers.
        func varint() -> UInt64? { bytes.withUnsafeBytes { TextChunk.readVarint($0, &i) } }
        /// Row IDs as `ascending` wrote them; nil when cut short or not ascending.
        func ascendingIDs() -> [Int64]? {
            guard let count = get(4), let first = get(8), count > 0, count - 1 <= UInt64(bytes.count - i) else { return nil }
            var ids: [Int64] = []
            ids.reserveCapacity(Int(count))
            var id = Int64(bitPattern: first)
            ids.append(id)
            for _ in 1..<count {
                guard let delta = varint(), delta > 0, id &+ Int64(bitPattern: delta) > id else { return nil }
                id = id &+ Int64(bitPattern: delta)
                ids.append(id)
            }
            return ids
        }
        var changes = ChangeSet()
        while i < bytes.count {
            if bytes[i] == 3 {
                i += 1
                guard let ref = get(2), Int(ref) < entityOf.count, let mask = get(8), let ids = ascendingIDs() else { return nil }
                guard let entity = entityOf[Int(ref)] else { continue }  // an entity this model does not know
                changes.formUnion(ChangeSet(entity: entity, updated: ids, mask: PropertyMask(rawValue: sameModel ? mask : ~0)))
                continue
            }
            if bytes[i] == 4 {
                i += 1
                guard let kind = get(1), kind == 0 || kind == 2, let ref = get(2), Int(ref) < entityOf.count, let ids = ascendingIDs()
                else { return nil }
                guard let entity = entityOf[Int(ref)] else { continue }
                let objects = ids.lazy.map { ObjectID(entity: entity, rowID: $0) }
                if kind == 0 { changes.insert(contentsOf: objects) } else { changes.delete(contentsOf: objects) }
                continue
            }
            guard let kind = get(1), let ref = get(2), let raw = get(8), Int(ref) < entityOf.count else { return nil }
            let mask = kind == 1 ? get(8) : nil
            guard let entity = entityOf[Int(ref)] else { continue }  // an entity this model does not know
            let id = ObjectID(entity: entity, rowID: Int64(bitPattern: raw))
            switch kind {
            case 0: changes.insert(id)
            case 1: changes.update(id, PropertyMask(rawValue: sameModel ? (mask ?? ~0) : ~0))
            default: changes.delete(id)
            }
        }
        return (changes, author)
    }

    private static func put16(_ out: inout [UInt8], _ v: Int) {
        out.append(UInt8(v & 0xff))
        out.append(UInt8((v >> 8) & 0xff))
    }

    private static func record(_ out: inout [UInt8], _ kind: UInt8, _ ref: Int, _ rowID: Int64, _ mask: UInt64?) {
        out.append(kind)
        put16(&out, ref)
        put64(&out, UInt64(bitPattern: rowID))
        if let mask { put64(&out, mask) }
    }

    /// Rows updated alike: kind 3, the entity, the mask, the count, then the row IDs as `ascending` writes
    /// them.
    private static func runRecord(_ out: inout [UInt8], _ ref: Int, _ run: UpdatedObjects.Run) {
        out.append(3)
        put16(&out, ref)
        put64(&out, run.mask.rawValue)
        ascending(&out, run.rowIDs[...])
    }

    /// Inserted (`kind` 0) or deleted (2) objects, in their order: each stretch of at least four ascending
    /// row IDs (an import's rows, a batch delete's) as one record of kind 4, the kind, the entity, then the
    /// IDs as `ascending` writes them; the others one record each. True when it wrote a run.
    private static func ids(_ out: inout [UInt8], _ kind: UInt8, _ ref: Int, _ ids: [ObjectID]) -> Bool {
        var usedRuns = false
        var start = 0
        while start < ids.count {
            var end = start + 1
            while end < ids.count && ids[end].rowID > ids[end - 1].rowID { end += 1 }
            if end - start >= 4 {
                out.append(4)
                out.append(kind)
                put16(&out, ref)
                ascending(&out, ids[start..<end].lazy.map(\.rowID))
                usedRuns = true
            } else {
                for id in ids[start..<end] { record(&out, kind, ref, id.rowID, nil) }
            }
            start = end
        }
        return usedRuns
    }

    /// Row IDs in ascending order: their count (4 bytes), the first (8), then each next one as its distance
    /// from the last (positive, and below 2^64 even across the sign) in 7-bit groups, low first: a stretch of
    /// consecutive rows takes a byte a row instead of eleven or nineteen.
    private static func ascending<C: Collection<Int64>>(_ out: inout [UInt8], _ rowIDs: C) {
        let n = UInt32(rowIDs.count)
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: n >> (8 * UInt32(k)))) }
        var last = rowIDs.first!
        put64(&out, UInt64(bitPattern: last))
        for id in rowIDs.dropFirst() {
            TextChunk.appendVarint(UInt64(bitPattern: id &- last), to: &out)
            last = id
        }
    }

    private static func put64(_ out: inout [UInt8], _ v: UInt64) {
        for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
    }
}
