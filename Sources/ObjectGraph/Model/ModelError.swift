/// A mistake in a model declaration, found when the model is built.
public enum ModelError: UserFacingError, Equatable {
    case duplicateEntity(String)
    case duplicateProperty(entity: String, property: String)
    case reservedName(String)
    case unknownDestination(entity: String, relationship: String, destination: String)
    case badInverse(entity: String, relationship: String, reason: String)
    case badDefault(entity: String, attribute: String)
    case badRule(entity: String, attribute: String, reason: String)
    case tooManyProperties(entity: String, count: Int)
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
