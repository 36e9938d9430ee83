import Foundation

/// The binary form of an undo step in a store's history: entities by index (a step is only replayed on the
/// model that recorded it; the history row keeps that model's hash), values tagged by type, and an "after"
/// that differs from its "before" in a few slots kept as just those slots, so a rename costs one value.
extension UndoRecord {
    private static let magic: [UInt8] = Array("OU1".utf8)
    /// A step with fingerprinted rows (`Context.flushRows`): after the entries, their count and each one's
    /// entity, row ID and fingerprint. Older builds refuse it as unreadable rather than misread it.
    private static let magicFingerprinted: [UInt8] = Array("OU2".utf8)
    /// The same two with changed slots only (``Flag/changedOnly``) in some entries: builds from before
    /// 2026-11-28 refuse them. A step without such an entry keeps its older magic, readable by them.
    static let magicChangedOnly: [UInt8] = Array("OU3".utf8)
    static let magicChangedOnlyFingerprinted: [UInt8] = Array("OU4".utf8)

    private enum Tag: UInt8 {
        case null, string, integer, double, boolFalse, boolTrue, date, data, uuid
    }

    private enum Flag {
        static let before: UInt8 = 1
        static let after: UInt8 = 2
        /// The after is stored as the slots where it differs from the before.
        static let delta: UInt8 = 4
        /// Only the changed slots, before and after: the row's slot count, then each changed slot's index,
        /// value before and value after. The other slots decode as null on both sides: equal, so undo and redo
        /// leave them alone and check nothing there (the replay only ever looks at slots that differ).
        static let changedOnly: UInt8 = 8
    }

    /// The step as bytes (see ``decode(_:name:)``). `changedOnly`: an object changed (not inserted or
    /// deleted) keeps only the slots that changed, which is all that undo and redo need, and what keeps a
    /// rename of an item with a long note small in the history; a replicator reading an outbox needs the
    /// whole rows (where a moved item now is), so the outbox keeps them.
    func encoded(changedOnly: Bool) -> [UInt8] {
        var out = ByteWriter(capacity: 16 + entries.count * (changedOnly ? 24 : 48) + fingerprinted.count * 14)
        let sparse = changedOnly && entries.contains { e in e.before != nil && e.after?.count == e.before?.count }
        let head =
            switch (sparse, fingerprinted.isEmpty) {
            case (false, true): Self.magic
            case (false, false): Self.magicFingerprinted
            case (true, true): Self.magicChangedOnly
            case (true, false): Self.magicChangedOnlyFingerprinted
            }
        out.append(head)
        out.varint(UInt64(entries.count))
        for e in entries {
            out.varint(UInt64(e.id.entity))
            out.signed(e.id.rowID)
            switch (e.before, e.after) {
            case (let b?, let a?) where a.count == b.count:
                // Whole before and the changed afters, or (sparse) the width and the changed slots' both sides.
                out.byte(Flag.before | Flag.after | (sparse ? Flag.changedOnly : Flag.delta))
                if sparse { out.varint(UInt64(b.count)) } else { Self.put(b, &out) }
                var changed = 0
                for i in 0..<a.count where a[i] != b[i] { changed += 1 }
                out.varint(UInt64(changed))
                for i in 0..<a.count where a[i] != b[i] {
                    out.varint(UInt64(i))
                    if sparse { Self.put(b[i], &out) }
                    Self.put(a[i], &out)
                }
            default:
                out.byte((e.before == nil ? 0 : Flag.before) | (e.after == nil ? 0 : Flag.after))
                if let b = e.before { Self.put(b, &out) }
                if let a = e.after { Self.put(a, &out) }
            }
        }
        if !fingerprinted.isEmpty {
            out.varint(UInt64(fingerprinted.count))
            for (id, fingerprint) in fingerprinted {
                out.varint(UInt64(id.entity))
                out.signed(id.rowID)
                out.fixed(fingerprint)
            }
        }
        return out.bytes
    }

    /// The step of `encoded(changedOnly:)`'s bytes, or nil for bytes this version cannot read. `widths`: each
    /// entity's slot count (`Model.rowWidths`); a changed object's row is made that wide, and only that.
    static func decode(_ bytes: [UInt8], name: String, widths: [Int]) -> UndoRecord? {
        var r = ByteReader(bytes: bytes)
        guard let head = r.take(magic.count).map(Array.init),
            head == magic || head == magicFingerprinted || head == magicChangedOnly || head == magicChangedOnlyFingerprinted,
            let count = r.varint(), count <= bytes.count
        else { return nil }
        let mayBeSparse = head == magicChangedOnly || head == magicChangedOnlyFingerprinted
        var record = UndoRecord(name: name)
        record.reserve(Int(count))
        for _ in 0..<count {
            guard let entity = r.varint(), entity < 1 << 20, let row = r.signed(), let flags = r.byte() else { return nil }
            var before: [Value]?
            var after: [Value]?
            if flags & Flag.changedOnly != 0 {
                // The row must be as wide as its entity's: a few bytes of a damaged step cannot ask for rows
                // of any other size (a million slots each), only for what a real step of the model holds.
                guard mayBeSparse, flags == Flag.before | Flag.after | Flag.changedOnly, entity < widths.count, let slots = r.varint(),
                    slots == widths[Int(entity)], let n = r.varint(), n <= slots
                else { return nil }
                var b = [Value](repeating: .null, count: Int(slots)), a = b
                for _ in 0..<n {
                    guard let slot = r.varint(), slot < slots, let was = value(&r), let now = value(&r) else { return nil }
                    b[Int(slot)] = was
                    a[Int(slot)] = now
                }
                record.append(ObjectID(entity: Int(entity), rowID: row), before: b, after: a)
                continue
            }
            if flags & Flag.before != 0 {
                guard let b = rowValues(&r) else { return nil }
                before = b
            }
            if flags & Flag.delta != 0 {
                guard var a = before, let n = r.varint() else { return nil }
                for _ in 0..<n {
                    guard let slot = r.varint(), slot < a.count, let v = value(&r) else { return nil }
                    a[Int(slot)] = v
                }
                after = a
            } else if flags & Flag.after != 0 {
                guard let a = rowValues(&r) else { return nil }
                after = a
            }
            record.append(ObjectID(entity: Int(entity), rowID: row), before: before, after: after)
        }
        if head == magicFingerprinted || head == magicChangedOnlyFingerprinted {
            guard let n = r.varint(), n <= bytes.count else { return nil }
            var rows: [(id: ObjectID, fingerprint: UInt64)] = []
            rows.reserveCapacity(Int(n))
            for _ in 0..<n {
                guard let entity = r.varint(), entity < 1 << 20, let row = r.signed(), let f = r.fixed() else { return nil }
                rows.append((ObjectID(entity: Int(entity), rowID: row), f))
            }
            record.appendFingerprinted(rows)
        }
        return r.atEnd ? record : nil
    }

    /// True when every object is of an entity of `model` and every row has its slots, each of its type:
    /// bytes that decode are still checked before a step touches anything (they come from a file).
    func fits(_ model: Model) -> Bool {
        for f in fingerprinted where f.id.entity < 0 || f.id.entity >= model.entities.count { return false }
        for e in entries {
            guard e.id.entity >= 0, e.id.entity < model.entities.count else { return false }
            let entity = model.entities[e.id.entity]
            for row in [e.before, e.after] {
                guard let row else { continue }
                guard row.count == entity.defaults.count else { return false }
                for (slot, v) in row.enumerated() {
                    if let t = v.type, Self.storageClass(t) != Self.storageClass(entity.typeOfSlot[slot]) { return false }
                }
            }
        }
        return true
    }

    /// Values of one class stand for each other (a default of 0 for a double is an integer), as SQLite
    /// stores them: numbers, text, bytes.
    private static func storageClass(_ t: AttributeType) -> Int {
        switch t {
        case .integer64, .double, .bool, .date: return 0
        case .string: return 1
        case .binary, .uuid: return 2
        }
    }

    static func put(_ row: [Value], _ out: inout ByteWriter) {
        out.varint(UInt64(row.count))
        for v in row { put(v, &out) }
    }

    static func put(_ v: Value, _ out: inout ByteWriter) {
        switch v {
        case .null: out.byte(Tag.null.rawValue)
        case .string(let s):
            out.byte(Tag.string.rawValue)
            var s = s
            s.withUTF8 { u in
                out.varint(UInt64(u.count))
                out.append(u)
            }
        case .integer(let i):
            out.byte(Tag.integer.rawValue)
            out.signed(i)
        case .double(let d):
            out.byte(Tag.double.rawValue)
            out.fixed(d.bitPattern)
        case .bool(let b): out.byte(b ? Tag.boolTrue.rawValue : Tag.boolFalse.rawValue)
        case .date(let d):
            out.byte(Tag.date.rawValue)
            out.fixed(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d):
            out.byte(Tag.data.rawValue)
            out.varint(UInt64(d.count))
            d.withUnsafeBytes { out.append($0) }
        case .uuid(let u):
            out.byte(Tag.uuid.rawValue)
            withUnsafeBytes(of: u.uuid) { out.append($0) }
        }
    }

    private static func rowValues(_ r: inout ByteReader) -> [Value]? {
        guard let n = r.varint(), n <= r.remaining else { return nil }
        var row: [Value] = []
        row.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let v = value(&r) else { return nil }
            row.append(v)
        }
        return row
    }

    private static func value(_ r: inout ByteReader) -> Value? {
        guard let raw = r.byte(), let tag = Tag(rawValue: raw) else { return nil }
        switch tag {
        case .null: return .null
        case .string:
            guard let n = r.varint(), let u = r.take(Int(clamping: n)) else { return nil }
            return .string(String(decoding: u, as: UTF8.self))
        case .integer: return r.signed().map { .integer($0) }
        case .double: return r.fixed().map { .double(Double(bitPattern: $0)) }
        case .boolFalse: return .bool(false)
        case .boolTrue: return .bool(true)
        case .date: return r.fixed().map { .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0))) }
        case .data:
            guard let n = r.varint(), let u = r.take(Int(clamping: n)) else { return nil }
            return .data(Data(u))
        case .uuid:
            guard let u = r.take(16) else { return nil }
            let t = Array(u)
            return .uuid(
                UUID(
                    uuid: (
                        t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15]
                    )))
        }
    }
}
