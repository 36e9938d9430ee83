extension ObjectPredicate {
    /// Evaluates the predicate against an object's current (unsaved included) values, as SQL would.
    public func evaluate(_ object: ManagedObject) -> Bool {
        evaluate(object.entity, rowID: object.objectID.rowID) { object.value(slot: $0) }
    }

    /// Evaluates the predicate against a row's values (as read from the store) and its ID.
    func evaluate(_ entity: EntityDescription, rowID: Int64, values: [Value]) -> Bool {
        evaluate(entity, rowID: rowID) { values[$0] }
    }

    private func evaluate(_ entity: EntityDescription, rowID: Int64, _ value: (Int) -> Value) -> Bool {
        func read(_ key: String) -> Value {
            // `id` (a name no property may take) is the row's own ID.
            if key == "id" { return .integer(rowID) }
            guard let p = entity.property(key), p.isStored else {
                preconditionFailure("\(entity.name).\(key) is not a stored attribute or to-one relationship")
            }
            return value(p.slot)
        }
        switch self {
        case .true: return true
        case .false: return false
        case .compare(let k, let op, let v):
            let x = read(k)
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
            let x = read(k)
            return !x.isNull && vs.contains { ObjectPredicate.sqlEqual(x, $0) }
        case .text(let k, .containsFolded, let s, _):
            guard case .string(let str) = read(k) else { return false }
            let needle = Array(TextFolding.fold(s).utf8)
            return needle.isEmpty || ObjectPredicate.find(needle, in: Array(TextFolding.fold(str).utf8))
        case .text(let k, let test, let s, let ci):
            guard case .string(let str) = read(k) else { return false }
            let hay = ci ? ObjectPredicate.asciiLower(str) : Array(str.utf8)
            let needle = ci ? ObjectPredicate.asciiLower(s) : Array(s.utf8)
            switch test {
            case .contains: return needle.isEmpty || ObjectPredicate.find(needle, in: hay)
            case .beginsWith: return hay.starts(with: needle)
            case .endsWith: return hay.reversed().starts(with: needle.reversed())
            case .containsFolded: return false  // above
            }
        case .and(let ps): return ps.allSatisfy { $0.evaluate(entity, rowID: rowID, value) }
        case .or(let ps): return ps.contains { $0.evaluate(entity, rowID: rowID, value) }
        case .not(let p): return !p.evaluate(entity, rowID: rowID, value)
        }
    }

    /// The keys the predicate reads.
    var keys: Set<String> {
        switch self {
        case .true, .false: return []
        case .compare(let k, _, _), .oneOf(let k, _), .text(let k, _, _, _): return [k]
        case .and(let ps), .or(let ps): return ps.reduce(into: []) { $0.formUnion($1.keys) }
        case .not(let p): return p.keys
        }
    }

    /// Objects the predicate names through a to-one relationship (`Property("parent") == item`): if one of
    /// them is deleted, a result that depends on it is gone.
    func anchors(in entity: EntityDescription) -> [ObjectID] {
        switch self {
        case .compare(let k, .equal, .integer(let id)):
            guard let r = entity.property(k)?.relationship else { return [] }
            return [ObjectID(entity: r.destination, rowID: id)]
        case .and(let ps): return ps.flatMap { $0.anchors(in: entity) }
        default: return []
        }
    }

    /// The properties of `entity` the predicate reads, as a mask (every property when it names one the
    /// entity lacks): a change to none of them cannot make an object match or stop matching.
    func readMask(in entity: EntityDescription) -> PropertyMask {
        func slot(_ name: String) -> PropertyMask {
            entity.property(name).map { PropertyMask(slot: $0.slot) } ?? PropertyMask(rawValue: ~0)
        }
        switch self {
        case .true, .false: return []
        case .compare(let k, _, _), .oneOf(let k, _), .text(let k, _, _, _): return slot(k)
        case .and(let ps), .or(let ps): return ps.reduce(PropertyMask()) { $0.union($1.readMask(in: entity)) }
        case .not(let p): return p.readMask(in: entity)
        }
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
