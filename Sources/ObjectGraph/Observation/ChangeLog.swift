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
        // Runs (a batch update's rows) need a record older readers do not know: such entries say "OG2",
        // which those readers cannot read and take as missed changes (they re-read), rather than misread.
        let hasRuns = entities.contains { !changes[$0].updated.runs.isEmpty }
        var out: [UInt8] = Array((hasRuns ? "OG2" : "OG1").utf8) + Array(model.versionHash.utf8)
        let singles = entities.reduce(0) { $0 + changes[$1].updated.single.count }
        out.reserveCapacity(64 + 11 * (changes.insertedCount + changes.deletedCount) + 19 * singles)
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
        for (ref, e) in entities.enumerated() {
            let c = changes[e]
            for id in c.inserted { record(&out, 0, ref, id.rowID, nil) }
            for (id, mask) in c.updated.single { record(&out, 1, ref, id.rowID, mask.rawValue) }
            for run in c.updated.runs { runRecord(&out, ref, run) }
            for id in c.deleted { record(&out, 2, ref, id.rowID, nil) }
        }
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
        func varint() -> UInt64? {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count && shift < 64 {
                let b = bytes[i]
                i += 1
                v |= UInt64(b & 0x7f) << shift
                if b < 0x80 { return v }
                shift += 7
            }
            return nil
        }
        var changes = ChangeSet()
        while i < bytes.count {
            if bytes[i] == 3 {
                i += 1
                guard let ref = get(2), let mask = get(8), let count = get(4), let first = get(8), Int(ref) < entityOf.count, count > 0,
                    count <= UInt64(bytes.count - i + 1)
                else { return nil }
                var ids: [Int64] = []
                ids.reserveCapacity(Int(count))
                var id = Int64(bitPattern: first)
                ids.append(id)
                for _ in 1..<count {
                    // Ascending, so the true distance fits 64 bits unsigned even across the sign.
                    guard let delta = varint(), delta > 0, id &+ Int64(bitPattern: delta) > id else { return nil }
                    id = id &+ Int64(bitPattern: delta)
                    ids.append(id)
                }
                guard let entity = entityOf[Int(ref)] else { continue }
                changes.formUnion(
                    ChangeSet(entity: entity, updated: ids, mask: PropertyMask(rawValue: sameModel ? mask : ~0)))
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

    /// Rows updated alike: kind 3, the entity, the mask, the count, the first row ID, then each next one as
    /// its distance from the last (ascending, so positive) in 7-bit groups: a run of consecutive rows takes
    /// a byte a row instead of nineteen.
    private static func runRecord(_ out: inout [UInt8], _ ref: Int, _ run: UpdatedObjects.Run) {
        out.append(3)
        put16(&out, ref)
        put64(&out, run.mask.rawValue)
        let n = UInt32(run.rowIDs.count)
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: n >> (8 * UInt32(k)))) }
        put64(&out, UInt64(bitPattern: run.rowIDs[0]))
        out.reserveCapacity(out.count + run.rowIDs.count)
        var last = run.rowIDs[0]
        for id in run.rowIDs.dropFirst() {
            var d = UInt64(bitPattern: id &- last)
            last = id
            while d >= 0x80 {
                out.append(UInt8(truncatingIfNeeded: d) | 0x80)
                d >>= 7
            }
            out.append(UInt8(d))
        }
    }

    private static func put64(_ out: inout [UInt8], _ v: UInt64) {
        for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
    }
}
