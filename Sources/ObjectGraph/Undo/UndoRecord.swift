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

    /// Adds another save to this step: an object's first "before" is kept, its "after" is the latest.
    mutating func compose(_ later: UndoRecord) {
        if index == nil {
            index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.id, $0) })
        }
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

    var isEmpty: Bool { entries.isEmpty }
}
