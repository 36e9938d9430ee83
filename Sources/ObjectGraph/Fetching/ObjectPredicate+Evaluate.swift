extension ObjectPredicate {
    /// Evaluates the predicate against an object's current (unsaved included) values, as SQL would.
    public func evaluate(_ object: ManagedObject) -> Bool {
        switch self {
        case .true: return true
        case .false: return false
        case .compare(let k, let op, let v):
            let x = ObjectPredicate.value(k, object)
            switch op {
            case .equal: return ObjectPredicate.sqlEqual(x, v)
            case .notEqual: return !ObjectPredicate.sqlEqual(x, v)
            default:
                if x.isNull || v.isNull { return false }
                let c = Value.compare(ObjectPredicate.normalized(x), ObjectPredicate.normalized(v))
                switch op {
                case .less: return c < 0
                case .lessOrEqual: return c <= 0
                case .greater: return c > 0
                default: return c >= 0
                }
            }
        case .oneOf(let k, let vs):
            let x = ObjectPredicate.value(k, object)
            return !x.isNull && vs.contains { ObjectPredicate.sqlEqual(x, $0) }
        case .text(let k, let test, let s, let ci):
            guard case .string(let str) = ObjectPredicate.value(k, object) else { return false }
            let hay = ci ? ObjectPredicate.asciiLower(str) : Array(str.utf8)
            let needle = ci ? ObjectPredicate.asciiLower(s) : Array(s.utf8)
            switch test {
            case .contains: return needle.isEmpty || ObjectPredicate.find(needle, in: hay)
            case .beginsWith: return hay.starts(with: needle)
            case .endsWith: return hay.reversed().starts(with: needle.reversed())
            }
        case .and(let ps): return ps.allSatisfy { $0.evaluate(object) }
        case .or(let ps): return ps.contains { $0.evaluate(object) }
        case .not(let p): return !p.evaluate(object)
        }
    }

    static func value(_ key: String, _ object: ManagedObject) -> Value {
        guard let p = object.entity.property(key), p.isStored else {
            preconditionFailure("\(object.entity.name).\(key) is not a stored attribute or to-one relationship")
        }
        return object.value(slot: p.slot)
    }

    /// SQL's `IS`: NULL equals NULL; numbers compare by value whatever their Swift case.
    static func sqlEqual(_ a: Value, _ b: Value) -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        return Value.compare(normalized(a), normalized(b)) == 0
    }

    /// The value as SQLite stores it, so comparisons agree with the database.
    static func normalized(_ v: Value) -> Value {
        switch v {
        case .bool(let b): return .integer(b ? 1 : 0)
        case .date(let d): return .double(d.timeIntervalSince1970)
        case .uuid(let u): return .data(.init(u.bytes))
        default: return v
        }
    }

    static func asciiLower(_ s: String) -> [UInt8] {
        s.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Bool {
        guard needle.count <= hay.count else { return false }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] {
            if hay[i..<(i + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
