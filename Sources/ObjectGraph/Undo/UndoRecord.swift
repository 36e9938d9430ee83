/// One undo step: the stored state of every object it touched, before and after (nil: the object did not
/// exist). Undo restores the befores, redo the afters; both keep object IDs.
struct UndoRecord {
    struct Entry {
        let id: ObjectID
        var before: [Value]?
        var after: [Value]?
    }

    var name: String
    /// Objects in the order they were first touched, so applying a record is deterministic.
    private(set) var entries: [Entry] = []
    /// Rows the step inserted, known by ID and a fingerprint of their values only (`Context.flushRows`: an
    /// import too big to keep twice). Undo checks each against the fingerprint, then keeps the rows it
    /// deletes in the step as ordinary entries, so redo has them.
    private(set) var fingerprinted: [(id: ObjectID, fingerprint: UInt64)] = []
    /// Entry index by object, built only when a group composes several saves.
    private var index: [ObjectID: Int]?

    init(name: String) {
        self.name = name
    }

    mutating func reserve(_ n: Int) { entries.reserveCapacity(n) }

    /// Records one object of a single save (no object appears twice in one save).
    mutating func append(_ id: ObjectID, before: [Value]?, after: [Value]?) {
        entries.append(Entry(id: id, before: before, after: after))
        index?[id] = entries.count - 1
    }

    /// Records rows inserted by their fingerprints (see `fingerprinted`).
    mutating func appendFingerprinted(_ rows: [(id: ObjectID, fingerprint: UInt64)]) {
        // Taken as it is when there are none yet: a million rows' array is shared, not copied.
        if fingerprinted.isEmpty { fingerprinted = rows } else { fingerprinted += rows }
    }

    /// Rows inserted by fingerprint that the same save also changed or deleted (items added in bulk, then
    /// renamed, moved or deleted in one unit of work): inserted, with the "after" the entry knows, as
    /// ``compose(_:)`` does across saves; one deleted too is (nil, nil), which ``compact()`` drops. Kept as
    /// both, undo found the row no longer matching its fingerprint ("changed elsewhere") and skipped the action.
    mutating func settleFingerprintedEntries() {
        guard !fingerprinted.isEmpty, !entries.isEmpty else { return }
        let touched = Set(entries.lazy.map(\.id))
        let inserted = Set(fingerprinted.lazy.map(\.id).filter { touched.contains($0) })
        guard !inserted.isEmpty else { return }
        fingerprinted.removeAll { inserted.contains($0.id) }
        for i in entries.indices where inserted.contains(entries[i].id) { entries[i].before = nil }
        index = nil
    }

    /// Adds another save to this step: an object's first "before" is kept, its "after" is the latest.
    mutating func compose(_ later: UndoRecord) {
        if index == nil {
            index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.id, $0) })
        }
        // A row this step inserted by fingerprint and the later save changed: inserted, with the later
        // "after" (which is known).
        if !fingerprinted.isEmpty && !later.entries.isEmpty {
            let touched = Set(later.entries.map(\.id))
            let moved = fingerprinted.filter { touched.contains($0.id) }
            if !moved.isEmpty {
                fingerprinted.removeAll { touched.contains($0.id) }
                for m in moved { append(m.id, before: nil, after: nil) }
            }
        }
        fingerprinted += later.fingerprinted
        for e in later.entries {
            if let i = index![e.id] {
                entries[i].after = e.after
            } else {
                append(e.id, before: e.before, after: e.after)
            }
        }
    }

    /// Drops objects whose state did not change over the whole step (inserted then deleted, edited back).
    mutating func compact() {
        let before = entries.count
        entries.removeAll { e in (e.before == nil && e.after == nil) || e.before == e.after }
        if entries.count != before { index = nil }
    }

    var isEmpty: Bool { entries.isEmpty && fingerprinted.isEmpty }

    /// How many objects the step touches.
    var objectCount: Int { entries.count + fingerprinted.count }

    /// The step with its fingerprinted rows made ordinary entries, from `current` (the rows as stored now,
    /// nil when gone): a row whose values no longer match its fingerprint was changed elsewhere since.
    /// Returns the ID of the first such row, if any, and the step otherwise.
    func resolvingFingerprints(_ current: [ObjectID: [Value]], model: Model) -> (step: UndoRecord, changed: ObjectID?) {
        var out = UndoRecord(name: name)
        out.entries = entries
        out.entries.reserveCapacity(entries.count + fingerprinted.count)
        for (id, fingerprint) in fingerprinted {
            guard let now = current[id] else { continue }  // gone already: nothing to undo
            if Self.fingerprint(now, model.entities[id.entity]) != fingerprint { return (self, id) }
            out.entries.append(Entry(id: id, before: nil, after: now))
        }
        return (out, nil)
    }

    /// A fingerprint of what a row holds that undo compares (stored slots, not the counts the store keeps
    /// or view state): 64-bit FNV-1a of the values as the step encodes them, the same in every process.
    static func fingerprint(_ row: [Value], _ entity: EntityDescription) -> UInt64 {
        var w = ByteWriter()
        return fingerprint(row, entity, scratch: &w)
    }

    /// The same, encoding into `scratch` (kept between rows: no allocation per row).
    static func fingerprint(_ row: [Value], _ entity: EntityDescription, scratch w: inout ByteWriter) -> UInt64 {
        w.removeAll()
        for slot in entity.storedSlots where !entity.isMaintained(slot) && !entity.isViewState(slot) {
            put(row[slot], &w)
        }
        return w.withBytes { bytes in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in bytes {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01b3
            }
            return h
        }
    }
}
