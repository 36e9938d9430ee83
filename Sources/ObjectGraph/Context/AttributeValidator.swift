import Foundation

/// The attribute rules of a model (type, optionality, ranges, lengths, patterns) checked against rows of
/// values. Keeps each pattern compiled once.
final class AttributeValidator {
    private var regexCache: [Int: NSRegularExpression] = [:]

    /// Checks the stored attributes of one row.
    func validate(values: [Value], id: ObjectID, entity e: EntityDescription, into errors: inout [ValidationError]) {
        e.checks.withUnsafeBufferPointer { checks in
            values.withUnsafeBufferPointer { values in
                for i in checks.indices {
                    // Fields read through the pointer: copying a whole check retains its pattern string.
                    let slot = checks[i].slot
                    if checks[i].isSimple && Self.fits(values[slot], checks[i].type, optional: checks[i].isOptional) { continue }
                    if let rule = check(values[slot], checks[i], entity: e) {
                        errors.append(
                            ValidationError(object: id, entity: e.name, property: e.properties[slot].name, rule: rule, value: values[slot]))
                    }
                }
            }
        }
    }

    /// The type and nullability rules, which are all most attributes have.
    @inline(__always)
    private static func fits(_ v: Value, _ type: AttributeType, optional: Bool) -> Bool {
        switch v {
        case .null: return optional
        case .string: return type == .string
        case .integer: return type == .integer64 || type == .double
        case .double: return type == .double
        case .bool: return type == .bool
        case .date: return type == .date
        case .data: return type == .binary
        case .uuid: return type == .uuid
        }
    }

    private func check(_ v: Value, _ a: AttributeCheck, entity: EntityDescription) -> ValidationError.Rule? {
        if v.isNull { return a.isOptional ? nil : .required }
        guard v.type == a.type || (a.type == .double && v.type == .integer64) else { return .wrongType(expected: a.type) }
        if a.isSimple { return nil }
        if let n = v.numeric, a.type != .bool {
            if let lo = a.minimum, n < lo { return .belowMinimum(lo) }
            if let hi = a.maximum, n > hi { return .aboveMaximum(hi) }
            if n.isNaN, a.minimum != nil || a.maximum != nil { return .aboveMaximum(a.maximum ?? a.minimum!) }
        }
        let length: Int?
        switch v {
        case .string(let s): length = s.count
        case .data(let d): length = d.count
        default: length = nil
        }
        if let length {
            if let lo = a.minLength, length < lo { return .tooShort(lo) }
            if let hi = a.maxLength, length > hi { return .tooLong(hi) }
        }
        if let pattern = a.pattern, case .string(let s) = v {
            let key = entity.index << 8 | a.slot
            let regex: NSRegularExpression
            if let r = regexCache[key] {
                regex = r
            } else {
                regex = try! NSRegularExpression(pattern: pattern)  // checked when the model was built
                regexCache[key] = regex
            }
            let range = NSRange(s.startIndex..., in: s)
            guard let m = regex.firstMatch(in: s, options: [.anchored], range: range), m.range == range else {
                return .patternMismatch(pattern)
            }
        }
        return nil
    }
}
