/// The snapshot's JSON written by hand, byte for byte what `JSONEncoder` writes with sorted keys, for models
/// whose strings need no escaping and that have no number bounds (the outline's): every process hashes its
/// model before it opens a store, and `JSONEncoder` was a twentieth of a quick command's process (the
/// generic machinery it instantiates the first time). `ModelSnapshotJSONTests` compares both on many models.
extension ModelSnapshot {
    /// The bytes, or nil when a string would need an escape or a bound is a `Double` (those take
    /// `JSONEncoder`'s own spelling).
    func plainJSON() -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        var plain = true
        func raw(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
        func string(_ s: String) {
            out.append(UInt8(ascii: "\""))
            for b in s.utf8 {
                // Letters, digits and a few marks are written as they are; anything else may be escaped.
                switch b {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "-"),
                    UInt8(ascii: " "):
                    out.append(b)
                default:
                    plain = false
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        func bool(_ b: Bool) { b ? raw("true") : raw("false") }
        func int(_ i: Int) { out.append(contentsOf: String(i).utf8) }
        func strings(_ xs: [String]) {
            raw("[")
            for (i, x) in xs.enumerated() {
                if i > 0 { raw(",") }
                string(x)
            }
            raw("]")
        }
        raw("{\"entities\":[")
        for (i, e) in entities.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"attributes\":[")
            for (j, a) in e.attributes.enumerated() {
                if j > 0 { raw(",") }
                if a.minimum != nil || a.maximum != nil { plain = false }
                raw("{")
                if let d = a.defaultValue {
                    raw("\"defaultValue\":")
                    string(d)
                    raw(",")
                }
                raw("\"indexed\":")
                bool(a.indexed)
                if let m = a.maintained {
                    raw(",\"maintained\":")
                    string(m)
                }
                if let m = a.maxLength {
                    raw(",\"maxLength\":")
                    int(m)
                }
                if let m = a.minLength {
                    raw(",\"minLength\":")
                    int(m)
                }
                raw(",\"name\":")
                string(a.name)
                raw(",\"optional\":")
                bool(a.optional)
                if let p = a.pattern {
                    raw(",\"pattern\":")
                    string(p)
                }
                raw(",\"transient\":")
                bool(a.transient)
                raw(",\"type\":")
                string(a.type.rawValue)
                raw(",\"unique\":")
                bool(a.unique)
                raw("}")
            }
            raw("],\"foreignKeys\":")
            strings(e.foreignKeys)
            if let f = e.fullText {
                raw(",\"fullText\":")
                strings(f)
            }
            raw(",\"indexes\":[")
            for (j, x) in e.indexes.enumerated() {
                if j > 0 { raw(",") }
                raw("{\"isSparse\":")
                bool(x.isSparse)
                raw(",\"isUnique\":")
                bool(x.isUnique)
                raw(",\"properties\":")
                strings(x.properties)
                raw("}")
            }
            raw("],\"name\":")
            string(e.name)
            raw(",\"relationships\":[")
            for (j, r) in e.relationships.enumerated() {
                if j > 0 { raw(",") }
                raw("{\"deleteRule\":")
                string(r.deleteRule.rawValue)
                raw(",\"destination\":")
                string(r.destination)
                raw(",\"inverse\":")
                string(r.inverse)
                raw(",\"isOptional\":")
                bool(r.isOptional)
                raw(",\"isToMany\":")
                bool(r.isToMany)
                raw(",\"name\":")
                string(r.name)
                raw("}")
            }
            raw("]}")
        }
        raw("],\"version\":")
        int(version)
        raw("}")
        return plain ? out : nil
    }
}
