/// Burrow's own JSON format, lossless (see docs/FORMATS.md):
/// `{"format": "burrow-outline", "version": 1, "items": [{"title": "…", "note": "…", "done": true, "children": […]}]}`.
/// Read and written without recursion, so any depth of nesting works.
public enum JSONOutline {
    /// The outline as a `burrow-outline` document.
    public static func write(_ nodes: [OutlineNode]) -> String {
        var writer = JSONWriter()
        return writer.write(nodes)
    }

    /// The members of an item an `OutlineNode.Extras` is written as (version 2), in its order.
    static let extrasMembers = ["state", "priority", "scheduled", "deadline", "closed", "properties", "orgHead"]

    /// Every member of an item but `children`; `tags` (version 3) is an array of strings.
    static let itemMembers = Set(["title", "note", "done", "tags"] + extrasMembers)

    /// The version written; the reader reads 1 to this.
    static let version = 3

    /// Sets the extra named by `member` on `node`.
    static func set(_ member: String, _ value: String?, on node: inout OutlineNode) {
        let tags = node.tags
        var values = (node.extras ?? OutlineNode.Extras()).values
        values[extrasMembers.firstIndex(of: member)!] = value
        var extras = OutlineNode.Extras(values: values) ?? OutlineNode.Extras()
        extras.tags = tags
        node.extras = extras
    }

    /// `s` as a JSON string literal (control characters escaped).
    public static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        quote(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal: quotes, backslashes, line breaks and tabs with a backslash, other
    /// C0 and C1 controls and DEL as `\u00XX`.
    static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            // Most text needs no escaping (C1 controls are 0xC2 0x80…0x9F in UTF-8): copy it whole.
            if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 }) {
                out.append(contentsOf: bytes)
                return
            }
            for u in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                switch u {
                case "\"": out.append(literal: "\\\"")
                case "\\": out.append(literal: "\\\\")
                case "\n": out.append(literal: "\\n")
                case "\r": out.append(literal: "\\r")
                case "\t": out.append(literal: "\\t")
                default:
                    if u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) {
                        let hex = String(u.value, radix: 16)
                        out.append(literal: "\\u")
                        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 4 - hex.count))
                        out.append(contentsOf: hex.utf8)
                    } else {
                        out.append(contentsOf: String(u).utf8)
                    }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The outline of a `burrow-outline` document (or a bare array of items); an error names its line and
    /// column.
    public static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var builder = OutlineBuilder()
        try read(text, into: &builder)
        return builder.finish()
    }

    /// Reads `text` into `builder`. An emitting builder gets items as they are read, after a first pass that
    /// hands nothing on, finds every fault, and keeps the items whose members go on after their `children`
    /// (``JSONReader/Late``): a bad file is refused before any item is handed on.
    static func read(_ text: String, into builder: inout OutlineBuilder) throws(InterchangeError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(InterchangeError) in
                var late = JSONReader.Late.amend
                if builder.emits {
                    var first = JSONReader(bytes, into: nil, late: .record)
                    try first.read()
                    late = .use(first.recorded)
                }
                var reader = JSONReader(bytes, into: builder, late: late)
                try reader.read()
                if let built = reader.builder { builder = built }
            }
        }
        try result.get()
    }
}
