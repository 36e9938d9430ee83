/// One thing wrong with a store, found by ``Store/check()``, in words a user can act on.
///
/// ```swift
/// for problem in try store.check() where !problem.isDerived { print(problem) }
/// ```
public struct StoreProblem: Sendable, Equatable, CustomStringConvertible {
    /// What sort of problem; ``isDerived`` tells whether ``Store/repairDerived()`` fixes it.
    ///
    /// ```swift
    /// let staleCounts = try store.check().filter { $0.kind == .count }
    /// ```
    public enum Kind: Sendable, Equatable {
        /// SQLite's own `integrity_check` failed: the file is damaged below the rows.
        case integrity
        /// A row refers to a row that does not exist.
        case danglingReference
        /// The ID allocator is missing or behind the IDs stored.
        case idAllocator
        /// A count the store maintains differs from its members.
        case count
        /// A required attribute is NULL (written by another tool): its default is derivable.
        case missingValue
        /// A full-text index is missing, stale or holds other rows than its entity: it is built again.
        case fullTextIndex
        /// The undo history's bookkeeping (positions, running totals, states) is wrong: it is numbered again.
        case history
    }

    /// What sort of problem it is.
    public let kind: Kind
    /// What is wrong, in words a user can act on.
    public let message: String
    /// The object it is about, when there is one.
    public let object: ObjectID?

    /// A problem of `kind`, said in `message`, about `object` when there is one.
    public init(_ kind: Kind, _ message: String, object: ObjectID? = nil) {
        self.kind = kind
        self.message = message
        self.object = object
    }

    public var description: String { message }

    // The problems every store type finds, worded once so that `check` says the same on each.

    /// `entity` row `id` refers through `property` to `destination` row `target`, which is not stored.
    static func dangling(_ entity: EntityDescription, _ id: Int64, _ slot: Int, _ destination: EntityDescription, _ target: Int64) -> StoreProblem {
        StoreProblem(
            .danglingReference,
            "\(entity.name) #\(id) refers to \(destination.name) #\(target), which does not exist (\(entity.properties[slot].name))",
            object: ObjectID(entity: entity.index, rowID: id))
    }

    /// A required attribute with no value.
    static func missing(_ entity: EntityDescription, _ id: Int64, _ attribute: String) -> StoreProblem {
        StoreProblem(.missingValue, "\(entity.name) #\(id) has no \(attribute), which is required", object: ObjectID(entity: entity.index, rowID: id))
    }

    /// The ID allocator, given what it would hand out next (nil: it is gone) and the smallest unused ID;
    /// nil when it is sound.
    static func allocator(next: Int64?, unused: Int64) -> StoreProblem? {
        guard let next else { return StoreProblem(.idAllocator, "the ID allocator is missing") }
        guard next < unused else { return nil }
        return StoreProblem(.idAllocator, "the ID allocator would hand out #\(next), but IDs up to #\(unused - 1) are in use")
    }

    /// A maintained count that differs from its members counted in the rows.
    static func staleCount(_ model: Model, _ id: ObjectID, _ slot: Int, stored: Int64?, actual: Int64) -> StoreProblem {
        let e = model.entities[id.entity]
        return StoreProblem(
            .count, "\(e.name) #\(id.rowID) stores \(stored.map(String.init) ?? "no") \(e.properties[slot].name) but counts \(actual)",
            object: id)
    }

    /// True when ``Store/repairDerived()`` fixes it (it is derived from the rows).
    public var isDerived: Bool { kind == .idAllocator || kind == .count || kind == .missingValue || kind == .fullTextIndex }
}
