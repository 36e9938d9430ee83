/// Writes a `burrow-outline` JSON document an item at a time (see `OutlineWriter`): each item an object on
/// its own line, its sub-items in its `children` array.
struct JSONWriter: OutlineWriter {
    /// No item of the list being written has been written yet (no comma before the next).
    private var first = true

    mutating func begin(into out: inout [UInt8]) {
        out.append(literal: "{\"format\": \"burrow-outline\", \"version\": 3, \"items\": [")
        first = true
    }

    mutating func enter(_ node: OutlineNode, depth: Int, hasChildren: Bool, into out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        out.append(literal: "\n{\"title\": ")
        JSONOutline.quote(node.title, into: &out)
        if let note = node.note {
            out.append(literal: ", \"note\": ")
            JSONOutline.quote(note, into: &out)
        }
        if node.isDone { out.append(literal: ", \"done\": true") }
        if let extras = node.extras {
            for (key, value) in zip(JSONOutline.extrasMembers, extras.values) {
                guard let value else { continue }
                out.append(literal: ", \"")
                out.append(contentsOf: Array(key.utf8))
                out.append(literal: "\": ")
                JSONOutline.quote(value, into: &out)
            }
            if !extras.tags.isEmpty {
                out.append(literal: ", \"tags\": [")
                for (k, tag) in extras.tags.enumerated() {
                    if k > 0 { out.append(literal: ", ") }
                    JSONOutline.quote(tag, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        if hasChildren {
            out.append(literal: ", \"children\": [")
            first = true
        } else {
            out.append(UInt8(ascii: "}"))
            first = false
        }
    }

    mutating func leave(depth: Int, into out: inout [UInt8]) {
        out.append(literal: "]}")
        first = false
    }

    func end(into out: inout [UInt8]) {
        out.append(literal: "]}\n")
    }
}
