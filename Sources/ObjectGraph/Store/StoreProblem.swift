/// One thing wrong with a store, found by ``Store/check()``, in words a user can act on.
public struct StoreProblem: Sendable, Equatable, CustomStringConvertible {
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
    }

    public let kind: Kind
    public let message: String
    /// The object it is about, when there is one.
    public let object: ObjectID?

    public init(_ kind: Kind, _ message: String, object: ObjectID? = nil) {
        self.kind = kind
        self.message = message
        self.object = object
    }

    public var description: String { message }

    /// True when ``Store/repairDerived()`` fixes it (it is derived from the rows).
    public var isDerived: Bool { kind == .idAllocator || kind == .count || kind == .missingValue }
}
