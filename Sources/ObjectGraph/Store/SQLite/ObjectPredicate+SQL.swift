extension ObjectPredicate {
    /// The SQL condition and its arguments. Keys must name stored attributes or foreign-key relationships;
    /// a column in `absent` (one an older store lacks, read without migrating) is NULL, as its reads are.
    func sql(for entity: EntityDescription, absent: Set<Int> = []) -> (String, [Value]) {
        var args: [Value] = []
        let s = build(entity, absent, &args)
        return (s, args)
    }

    private func build(_ e: EntityDescription, _ absent: Set<Int>, _ args: inout [Value]) -> String {
        switch self {
        case .true: return "1"
        case .false: return "0"
        case .compare(let k, let op, let v):
            args.append(v)
            // `=` and `IS` agree on a non-NULL value wherever NULL reads as false (see `.not`), and only
            // `=` lets SQLite use a partial index `WHERE x IS NOT NULL`.
            let sqlOperator = op == .equal && !v.isNull ? "=" : op.rawValue
            return "\(ObjectPredicate.column(k, e, absent)) \(sqlOperator) ?"
        case .oneOf(let k, let vs):
            if vs.isEmpty { return "0" }
            // Padded to a power of two with the last value again (which changes nothing in an IN list): a
            // statement per size up to 2^k, not one per list length, in the statement cache.
            let size = ObjectPredicate.paddedSize(vs.count)
            args.append(contentsOf: vs)
            args.append(contentsOf: repeatElement(vs[vs.count - 1], count: size - vs.count))
            return "\(ObjectPredicate.column(k, e, absent)) IN (" + Array(repeating: "?", count: size).joined(separator: ",") + ")"
        case .text(let k, .containsFolded, let s, _):
            // The needle folded once here; each row's text in `og_contains_folded` (see `FoldedContains`).
            args.append(.string(TextFolding.fold(s)))
            return "likelihood(og_contains_folded(\(ObjectPredicate.column(k, e, absent)), ?), 0.05)"
        case .text(let k, let test, let s, let ci):
            let col = ci ? "lower(\(ObjectPredicate.column(k, e, absent)))" : ObjectPredicate.column(k, e, absent)
            let arg = ci ? "lower(?)" : "?"
            switch test {
            case .contains:
                args.append(.string(s))
                // Said to match few rows (SQLite cannot know): beside a condition an index answers (a partial
                // index of the rows that have a value), the planner reads that index, not every row in ID order.
                return "likelihood(instr(\(col), \(arg)) > 0, 0.05)"
            case .beginsWith:
                args.append(contentsOf: [.string(s), .string(s)])
                return "substr(\(col), 1, length(\(arg))) = \(arg)"
            case .endsWith:
                args.append(contentsOf: [.string(s), .string(s), .string(s)])
                return "(\(col) IS NOT NULL AND (length(\(arg)) = 0 OR substr(\(col), -length(\(arg))) = \(arg)))"
            case .containsFolded: preconditionFailure("handled above")
            }
        case .and(let ps): return ps.isEmpty ? "1" : "(" + ps.map { $0.build(e, absent, &args) }.joined(separator: " AND ") + ")"
        case .or(let ps): return ps.isEmpty ? "0" : "(" + ps.map { $0.build(e, absent, &args) }.joined(separator: " OR ") + ")"
        // `IS NULL` is never NULL: its negation is `IS NOT NULL`, which lets SQLite read a partial index
        // `WHERE x IS NOT NULL` (the items that have one) instead of every row.
        case .not(.compare(let k, .equal, let v)) where v.isNull:
            return "\(ObjectPredicate.column(k, e, absent)) IS NOT NULL"
        // SQL's NULL (a comparison with a missing value) is false in memory, so it must be false under NOT
        // too: NOT NULL would be NULL and drop the row.
        case .not(let p): return "NOT ifnull(" + p.build(e, absent, &args) + ", 0)"
        }
    }

    /// The smallest power of two at least `n` (and at least 1).
    static func paddedSize(_ n: Int) -> Int {
        var size = 1
        while size < n { size <<= 1 }
        return size
    }

    static func column(_ key: String, _ e: EntityDescription, _ absent: Set<Int> = []) -> String {
        if key == "id" { return "\"id\"" }
        guard let p = e.property(key), p.isStored else {
            preconditionFailure("\(e.name).\(key) is not a stored attribute or to-one relationship")
        }
        return absent.contains(p.slot) ? "NULL" : "\"\(key)\""
    }
}
