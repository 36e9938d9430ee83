/// One broken rule found when saving.
///
/// ```swift
/// do { try context.save() } catch let failure as ValidationFailure {
///     for error in failure.errors where error.rule == .required { print("\(error.property) is missing") }
/// }
/// ```
public struct ValidationError: UserFacingError, Equatable, Sendable {
    /// Which rule was broken, with the limit it sets where it has one.
    ///
    /// ```swift
    /// if case .tooLong(let most) = error.rule { print("at most \(most) characters") }
    /// ```
    public enum Rule: Equatable, Sendable {
        /// Nil where a value is required: a non-optional attribute, or a to-one relationship that is not optional.
        case required
        /// A value of another type than the attribute's, which is `expected`.
        case wrongType(expected: AttributeType)
        /// A number (or a date, as seconds since 1970) below the attribute's minimum, which it holds.
        case belowMinimum(Double)
        /// A number (or date) above the attribute's maximum, which it holds; also NaN where there are bounds.
        case aboveMaximum(Double)
        /// A string (in characters) or binary value (in bytes) shorter than the attribute's minimum length, which it holds.
        case tooShort(Int)
        /// A string (in characters) or binary value (in bytes) longer than the attribute's maximum length, which it holds.
        case tooLong(Int)
        /// A string that does not match, as a whole, the attribute's regular expression, which it holds.
        case patternMismatch(String)
        /// A deny rule: the deleted object still has this many related objects.
        case deleteDenied(count: Int)
        /// A rule of the program's (``Context/willSave``), with why.
        case refused(String)
    }

    /// The object that broke the rule.
    public let object: ObjectID
    /// The object's entity.
    public let entity: String
    /// The attribute or relationship the rule is about.
    public let property: String
    /// The rule broken.
    public let rule: Rule
    /// The value that broke it (`.null` for a missing value, and for a delete that a deny rule refuses).
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
///
/// ```swift
/// do { try context.save() } catch let failure as ValidationFailure { print(failure.userMessage) }
/// ```
public struct ValidationFailure: UserFacingError, Equatable, Sendable {
    /// Every broken rule, in the order found.
    public let errors: [ValidationError]

    /// A failure of `errors`: what a program's ``Context/willSave`` throws to refuse a save.
    public init(errors: [ValidationError]) { self.errors = errors }

    public var description: String {
        "save failed validation:\n" + errors.map { "  " + $0.description }.joined(separator: "\n")
    }
    /// Every broken rule, on one line.
    public var userMessage: String { errors.map(\.description).joined(separator: "; ") }
}
