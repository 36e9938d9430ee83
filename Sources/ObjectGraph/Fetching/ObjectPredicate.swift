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
    case `true`
    case `false`
    case compare(String, Comparison, Value)
    case oneOf(String, [Value])
    case text(String, TextTest, String, caseInsensitive: Bool)
    case and([ObjectPredicate])
    case or([ObjectPredicate])
    case not(ObjectPredicate)

    public enum Comparison: String, Sendable, Hashable {
        case equal = "IS", notEqual = "IS NOT", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    public enum TextTest: Sendable, Hashable {
        case contains, beginsWith, endsWith
        /// Contains, comparing as full-text search does (``TextFolding``: case and diacritics folded, in any
        /// script); `caseInsensitive` is then implied.
        case containsFolded
    }

    public static func && (a: ObjectPredicate, b: ObjectPredicate) -> ObjectPredicate { .and([a, b]) }
    public static func || (a: ObjectPredicate, b: ObjectPredicate) -> ObjectPredicate { .or([a, b]) }
    public static prefix func ! (a: ObjectPredicate) -> ObjectPredicate { .not(a) }
}

/// Names an attribute or to-one relationship in a predicate.
public struct Property: Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }

    public static func == <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .equal, v.value) }
    public static func != <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .notEqual, v.value) }
    public static func < <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .less, v.value) }
    public static func <= <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .lessOrEqual, v.value) }
    public static func > <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .greater, v.value) }
    public static func >= <T: AttributeValue>(k: Property, v: T) -> ObjectPredicate { .compare(k.name, .greaterOrEqual, v.value) }

    /// Matches objects whose to-one relationship points to `object` (or to nothing when nil).
    public static func == (k: Property, object: ManagedObject?) -> ObjectPredicate {
        .compare(k.name, .equal, object.map { .integer($0.objectID.rowID) } ?? .null)
    }
    public static func == (k: Property, id: ObjectID?) -> ObjectPredicate {
        .compare(k.name, .equal, id.map { .integer($0.rowID) } ?? .null)
    }
    public static func != (k: Property, object: ManagedObject?) -> ObjectPredicate {
        .compare(k.name, .notEqual, object.map { .integer($0.objectID.rowID) } ?? .null)
    }

    /// Matches a missing value.
    public var isNil: ObjectPredicate { .compare(name, .equal, .null) }

    public func oneOf<T: AttributeValue>(_ values: [T]) -> ObjectPredicate { .oneOf(name, values.map(\.value)) }
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
    public func beginsWith(_ s: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(name, .beginsWith, s, caseInsensitive: caseInsensitive)
    }
    public func endsWith(_ s: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(name, .endsWith, s, caseInsensitive: caseInsensitive)
    }
}
