/// The members of one inverse-side relationship of one object (a to-many, or the keyless side of a
/// one-to-one): what the store holds, loaded only when read, plus this unit of work's additions and removals.
struct RelationState {
    /// Row IDs as last saved; nil until first needed.
    var stored: Set<Int64>?
    var added: Set<Int64> = []
    var removed: Set<Int64> = []

    var hasChanges: Bool { !added.isEmpty || !removed.isEmpty }

    mutating func add(_ id: Int64) {
        // Hashing is most of the cost of a bulk add: skip the lookup in an empty set.
        if !removed.isEmpty { removed.remove(id) }
        if stored?.contains(id) != true { added.insert(id) }
    }

    mutating func remove(_ id: Int64) {
        if !added.isEmpty { added.remove(id) }
        if stored?.contains(id) != false { removed.insert(id) }
    }

    /// Current members; `stored` must be loaded.
    var members: Set<Int64> {
        stored!.union(added).subtracting(removed)
    }

    /// After a save: what is current is now what is stored.
    mutating func commit() {
        if stored != nil { stored = members }
        added = []
        removed = []
    }

    mutating func discardChanges() {
        added = []
        removed = []
    }
}
