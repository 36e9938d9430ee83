/// A typed condition on an entity's attributes and to-one relationships. It is translated to SQL for
/// fetches and evaluated in memory against objects, with the same meaning both ways.
///
/// ```swift
/// let p = Property("red") > 0.5 && Property("name").contains("Blue")
/// let q = Property("parent") == groceries
/// ```
/// Equality is null-safe (`Property("note") == nil` matches missing notes); ordering comparisons with nil are
/// false, as in SQL. String tests compare bytes; `caseInsensitive` folds ASCII letters only. `Property("id")`
/// is the object's own row ID (`Property("id") != home.objectID.rowID`), which every index holds.
public indirect enum ObjectPredicate: Sendable, Hashable {
    /// Matches every object.
    case `true`
    /// Matches no object.
    case `false`
    /// Compares the named property with a value: what ``Property``'s operators make.
    case compare(String, Comparison, Value)
    /// Matches objects whose named property equals one of the values (never a missing value).
    case oneOf(String, [Value])
    /// Tests the named string property against a string; `caseInsensitive` folds ASCII letters only.
    case text(String, TextTest, String, caseInsensitive: Bool)
    /// Matches objects that every predicate matches (all objects when there is none).
    case and([ObjectPredicate])
    /// Matches objects that some predicate matches (none when there is none).
    case or([ObjectPredicate])
    /// Matches objects the predicate does not match (a comparison with a missing value is false, so its negation matches).
    case not(ObjectPredicate)

    /// How ``ObjectPredicate/compare(_:_:_:)`` compares; the raw value is the SQL operator.
    ///
    /// ```swift
    /// ObjectPredicate.compare("red", .greater, 0.5)   // Property("red") > 0.5
    /// ```
    public enum Comparison: String, Sendable, Hashable {
        /// Equal and not equal, null-safe (nil equals nil); the orderings, false when either side is nil.
        case equal = "IS", notEqual = "IS NOT", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// What ``ObjectPredicate/text(_:_:_:caseInsensitive:)`` looks for in a string property.
    ///
    /// ```swift
    /// ObjectPredicate.text("title", .beginsWith, "Buy", caseInsensitive: true)   // Property("title").beginsWith("Buy", caseInsensitive: true)
    /// ```
    public enum TextTest: Sendable, Hashable {
        /// The string anywhere in the property, at its start, or at its end, compared byte by byte.
        case contains, beginsWith, endsWith
        /// Contains, comparing as full-text search does (``TextFolding``: case and diacritics folded, in any
        /// script); `caseInsensitive` is then implied.
        case containsFolded
    }

    /// Matches objects that both predicates match.
    public static func && (a: ObjectPredicate, b: ObjectPredicate) -> ObjectPredicate { .and([a, b]) }
    /// Matches objects that either predicate matches.
    public static func || (a: ObjectPredicate, b: ObjectPredicate) -> ObjectPredicate { .or([a, b]) }
    /// Matches objects that `a` does not match (see ``not(_:)``).
    public static prefix func ! (a: ObjectPredicate) -> ObjectPredicate { .not(a) }
}

/// Names an attribute or to-one relationship in a predicate.
///
/// ```swift
/// let overdue = Property("due") < Date() && Property("state").oneOf(["TODO", "DOING"])
/// ```
public struct Property: Sendable {
    /// The name of the attribute or to-one relationship (`id`: the object's own row ID).
    public let name: String
    /// Names the attribute or to-one relationship `name`, or `id` for the row ID.
    public init(_ name: String) { self.name = name }

    /// Matches objects whose value equals `v`, null-safe: a nil `v` matches a missing value.
    public static func == <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .equal, v.value) }
    /// Matches objects whose value differs from `v`, null-safe: a missing value differs from any other.
    public static func != <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .notEqual, v.value) }
    /// Matches objects whose value is less than `v` (never a missing value).
    public static func < <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .less, v.value) }
    /// Matches objects whose value is less than or equal to `v` (never a missing value).
    public static func <= <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .lessOrEqual, v.value) }
    /// Matches objects whose value is greater than `v` (never a missing value).
    public static func > <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .greater, v.value) }
    /// Matches objects whose value is greater than or equal to `v` (never a missing value).
    public static func >= <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .greaterOrEqual, v.value) }

    /// Matches objects whose to-one relationship points to `object` (or to nothing when nil).
    public static func == (k: Property, object: ManagedObject?) -> ObjectPredicate {
        .compare(k.name, .equal, object.map { .integer($0.objectID.rowID) } ?? .null)
    }
    /// Matches objects whose to-one relationship points to the object with `id` (or to nothing when nil).
    public static func == (k: Property, id: ObjectID?) -> ObjectPredicate {
        .compare(k.name, .equal, id.map { .integer($0.rowID) } ?? .null)
    }
    /// Matches objects whose to-one relationship does not point to `object`: to another one or to nothing (with nil: to any).
    public static func != (k: Property, object: ManagedObject?) -> ObjectPredicate {
        .compare(k.name, .notEqual, object.map { .integer($0.objectID.rowID) } ?? .null)
    }

    /// Matches a missing value.
    public var isNil: ObjectPredicate { .compare(name, .equal, .null) }

    /// Matches objects whose value is one of `values` (never a missing value; nothing when `values` is empty).
    public func oneOf<T: AttributeValue>(_ values: [T]) -> ObjectPredicate { .oneOf(name, values.map(\.value)) }
    /// Matches objects whose string holds `s`, byte for byte (`caseInsensitive` folds ASCII letters only; see ``containsFolded(_:)``).
    public func contains(_ s: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(name, .contains, s, caseInsensitive: caseInsensitive)
    }
    /// Holds `s` as full-text search finds it: “godel” in “Gödel”, “ss” in “STRASSE” (see ``TextFolding``).
    ///
    /// ```swift
    /// let p = Property("title").containsFolded("cafe")   // matches “Café au lait”
    /// ```
    public func containsFolded(_ s: String) -> ObjectPredicate {
        .text(name, .containsFolded, s, caseInsensitive: true)
    }
    /// Matches objects whose string begins with `s`, byte for byte (`caseInsensitive` folds ASCII letters only).
    public func beginsWith(_ s: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(name, .beginsWith, s, caseInsensitive: caseInsensitive)
    }
    /// Matches objects whose string ends with `s`, byte for byte (`caseInsensitive` folds ASCII letters only).
    public func endsWith(_ s: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(name, .endsWith, s, caseInsensitive: caseInsensitive)
    }
}
