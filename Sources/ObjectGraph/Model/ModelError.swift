/// A mistake in a model declaration, found when the model is built.
///
/// ```swift
/// do {
///     _ = try Model { Entity("Item") { Relationship.toOne("parent", "Folder", inverse: "items") } }
/// } catch {
///     print(error)   // Item.parent points to unknown entity Folder
/// }
/// ```
public enum ModelError: UserFacingError, Equatable {
    /// Two entities have this name (or a many-to-many's join entity would take a declared one's).
    case duplicateEntity(String)
    /// An entity declares two properties with this name.
    case duplicateProperty(entity: String, property: String)
    /// A name that is empty, is `id`, begins with `og_` or `sqlite_` (in any case), or holds a quote or a NUL.
    case reservedName(String)
    /// A relationship points to an entity the model does not declare.
    case unknownDestination(entity: String, relationship: String, destination: String)
    /// A relationship whose inverse is missing or does not name it back; the reason says which.
    case badInverse(entity: String, relationship: String, reason: String)
    /// An attribute's default does not have the attribute's type.
    case badDefault(entity: String, attribute: String)
    /// An attribute's rule cannot hold (crossed bounds, a bad pattern, an indexed transient…); the reason says which.
    case badRule(entity: String, attribute: String, reason: String)
    /// An entity has more than 64 properties (the hidden ones of its many-to-manys included).
    case tooManyProperties(entity: String, count: Int)
    /// An index names something that is not a stored property of the entity (for a full-text index: a stored string attribute).
    case unknownIndexProperty(entity: String, property: String)

    public var description: String {
        switch self {
        case .duplicateEntity(let e): return "entity \(e) is declared twice"
        case .duplicateProperty(let e, let p): return "\(e).\(p) is declared twice"
        case .reservedName(let n): return "\(n) is a reserved name (id, og_*, sqlite_*)"
        case .unknownDestination(let e, let r, let d): return "\(e).\(r) points to unknown entity \(d)"
        case .badInverse(let e, let r, let why): return "\(e).\(r): \(why)"
        case .badDefault(let e, let a): return "\(e).\(a): the default value does not have the attribute's type"
        case .badRule(let e, let a, let why): return "\(e).\(a): \(why)"
        case .tooManyProperties(let e, let n): return "\(e) has \(n) properties; at most 64 are supported"
        case .unknownIndexProperty(let e, let p): return "an index of \(e) names \(p), which is not a stored property"
        }
    }
}
