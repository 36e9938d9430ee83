/// One broken rule found when saving.
public struct ValidationError: UserFacingError, Equatable, Sendable {
    public enum Rule: Equatable, Sendable {
        case required
        case wrongType(expected: AttributeType)
        case belowMinimum(Double)
        case aboveMaximum(Double)
        case tooShort(Int)
        case tooLong(Int)
        case patternMismatch(String)
        /// A deny rule: the deleted object still has this many related objects.
        case deleteDenied(count: Int)
        /// A rule of the program's (``Context/willSave``), with why.
        case refused(String)
    }

    public let object: ObjectID
    public let entity: String
    public let property: String
    public let rule: Rule
    public let value: Value

    /// A broken rule (a program's own, ``Rule/refused(_:)``, from ``Context/willSave``).
    public init(object: ObjectID, entity: String, property: String, rule: Rule, value: Value) {
        (self.object, self.entity, self.property, self.rule, self.value) = (object, entity, property, rule, value)
    }

    public var description: String {
        let subject = "\(entity) \(object).\(property)"
        switch rule {
        case .required: return "\(subject) is required"
        case .wrongType(let t): return "\(subject) = \(value) is not a \(t.rawValue)"
        case .belowMinimum(let m): return "\(subject) = \(value) is below the minimum \(m)"
        case .aboveMaximum(let m): return "\(subject) = \(value) is above the maximum \(m)"
        case .tooShort(let n): return "\(subject) is shorter than \(n)"
        case .tooLong(let n): return "\(subject) is longer than \(n)"
        case .patternMismatch(let p): return "\(subject) = \(value) does not match \(p)"
        case .refused(let why): return "\(subject): \(why)"
        case .deleteDenied(let n):
            return "\(entity) \(object) cannot be deleted: its relationship \(property) still has \(n) object(s) (deny rule)"
        }
    }
}

/// Every rule a save broke; nothing was written and the context kept its changes.
public struct ValidationFailure: UserFacingError, Equatable, Sendable {
    public let errors: [ValidationError]

    public init(errors: [ValidationError]) { self.errors = errors }

    public var description: String {
        "save failed validation:\n" + errors.map { "  " + $0.description }.joined(separator: "\n")
    }
    /// Every broken rule, on one line.
    public var userMessage: String { errors.map(\.description).joined(separator: "; ") }
}
