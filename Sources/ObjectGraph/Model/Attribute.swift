import Foundation

/// A typed attribute of an entity, with its validation rules.
///
/// ```swift
/// Attribute("red", .double, min: 0, max: 1)
/// Attribute("name", .string, default: "Unnamed Color", indexed: true)
/// ```
public struct Attribute: Sendable {
    /// The attribute's name, unique among its entity's properties.
    public let name: String
    /// The type of its values.
    public let type: AttributeType
    /// Nil is allowed at save.
    public var isOptional: Bool
    /// Given to every new object; `.null` means none.
    public var defaultValue: Value
    /// Inclusive numeric bounds (integer, double, date as seconds since 1970).
    public var minimum: Double?
    /// The upper bound (see ``minimum``).
    public var maximum: Double?
    /// Inclusive bounds on a string's length in characters, or a blob's length in bytes.
    public var minLength: Int?
    /// The upper bound on the length (see ``minLength``).
    public var maxLength: Int?
    /// A regular expression a string must match whole.
    public var pattern: String?
    /// The store keeps an index of it, for fetches that match or sort by it.
    public var isIndexed: Bool
    /// No two objects may have the same value (a save that would fails with `.uniqueConstraint`); nil may repeat.
    public var isUnique: Bool
    /// Not stored: kept in memory only, or computed by `derive` on every read.
    public var isTransient: Bool
    /// Computes a transient attribute from the object's other properties.
    public var derive: (@Sendable (ManagedObject) -> Value)?
    /// For a count the store maintains (see ``count(_:of:)``): the to-many relationship it counts.
    public var countedRelationship: String?
    /// How an object is shown rather than what it says (see ``viewState(_:_:optional:default:)``): outside undo.
    public var isViewState = false

    /// A stored attribute.
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: Value = .null,
        min: Double? = nil, max: Double? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, indexed: Bool = false, unique: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
        self.minimum = min
        self.maximum = max
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.isIndexed = indexed
        self.isUnique = unique
        self.isTransient = false
        self.derive = nil
        self.countedRelationship = nil
    }

    /// A stored attribute with a typed default.
    ///
    /// ```swift
    /// Attribute("name", default: "Unnamed Color")
    /// ```
    public init<T: AttributeValue & DefaultAttributeType>(
        _ name: String, default defaultValue: T, min: Double? = nil, max: Double? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil, indexed: Bool = false,
        unique: Bool = false
    ) {
        self.init(
            name, T.attributeType, optional: false, default: defaultValue.value, min: min, max: max,
            minLength: minLength, maxLength: maxLength, pattern: pattern, indexed: indexed, unique: unique)
    }

    /// A transient attribute: never stored. With `derive`, its value is computed on each read.
    ///
    /// ```swift
    /// Attribute.transient("brightness", .double) { c in .double((c["red"] + c["green"] + c["blue"]) / 3) }
    /// ```
    public static func transient(
        _ name: String, _ type: AttributeType, derive: (@Sendable (ManagedObject) -> Value)? = nil
    ) -> Attribute {
        var a = Attribute(name, type, optional: true)
        a.isTransient = true
        a.derive = derive
        return a
    }
}

extension Attribute {
    /// A stored count of the objects in one of this entity's to-many relationships, kept by the store in
    /// the transaction of every save that adds, removes or moves one of them, from what that transaction
    /// finds stored (as Core Data's derived `children.@count`). It is read-only: setting it is an error.
    /// Because the store maintains it inside the write, it stays right whatever other contexts and
    /// processes do at the same moment.
    ///
    /// ```swift
    /// Attribute.count("childCount", of: "children")
    /// ```
    public static func count(_ name: String, of relationship: String) -> Attribute {
        var a = Attribute(name, .integer64, default: .integer(0))
        a.countedRelationship = relationship
        return a
    }

    /// True for an attribute the store maintains (a ``count(_:of:)``).
    public var isMaintained: Bool { countedRelationship != nil }

    /// A stored attribute that records how an object is shown, not what it says (whether an outline item is
    /// folded open, say): it is saved, observed and merged like any other attribute, but undo leaves it
    /// alone. A unit of work that changes only such attributes makes no undo step (and keeps the redo
    /// steps), and a later change to one never makes an undo or redo of another step conflict. As in an
    /// editor, undo takes back what the user changed, not where they looked.
    ///
    /// ```swift
    /// Attribute.viewState("expanded", .bool, default: .bool(false))
    /// ```
    public static func viewState(_ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: Value = .null) -> Attribute {
        var a = Attribute(name, type, optional: optional, default: defaultValue)
        a.isViewState = true
        return a
    }
}

/// Swift types that name their attribute type, so a default can imply it.
///
/// ```swift
/// Attribute("count", default: 0)   // an Int default: an .integer64 attribute
/// ```
public protocol DefaultAttributeType {
    /// The attribute type of this Swift type's values.
    static var attributeType: AttributeType { get }
}

extension String: DefaultAttributeType { public static var attributeType: AttributeType { .string } }
extension Int64: DefaultAttributeType { public static var attributeType: AttributeType { .integer64 } }
extension Int: DefaultAttributeType { public static var attributeType: AttributeType { .integer64 } }
extension Double: DefaultAttributeType { public static var attributeType: AttributeType { .double } }
extension Bool: DefaultAttributeType { public static var attributeType: AttributeType { .bool } }
extension Date: DefaultAttributeType { public static var attributeType: AttributeType { .date } }
extension Data: DefaultAttributeType { public static var attributeType: AttributeType { .binary } }
extension UUID: DefaultAttributeType { public static var attributeType: AttributeType { .uuid } }
