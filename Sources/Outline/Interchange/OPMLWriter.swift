/// Writes OPML an item at a time (see `OutlineWriter`): nested `outline` elements, indented two spaces a
/// level up to `OPML.maximumIndent`.
struct OPMLWriter: OutlineWriter {
    let title: String
    /// The spaces of the deepest indentation, sliced for each line.
    private let indentation = [UInt8](repeating: 0x20, count: 2 * OPML.maximumIndent)

    init(title: String) { self.title = title }

    func begin(into out: inout [UInt8]) {
        out.append(literal: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>")
        OPML.escape(title, into: &out)
        out.append(literal: "</title>\n  </head>\n  <body>\n")
    }

    func enter(_ node: OutlineNode, depth: Int, hasChildren: Bool, into out: inout [UInt8]) {
        indent(depth, into: &out)
        out.append(literal: "<outline text=\"")
        OPML.escape(node.title, html: true, into: &out)
        out.append(literal: "\"")
        if let note = node.note {
            out.append(literal: " _note=\"")
            OPML.escape(note, html: true, into: &out)
            out.append(literal: "\"")
        }
        if node.isDone { out.append(literal: " _complete=\"true\"") }
        if let extras = node.extras {
            for (name, value) in zip(OPML.extrasAttributes, extras.values) {
                guard let value else { continue }
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: Array(name.utf8))
                out.append(literal: "=\"")
                OPML.escape(value, into: &out)
                out.append(UInt8(ascii: "\""))
            }
            if !extras.tags.isEmpty {
                out.append(literal: " _tags=\"")
                OPML.escape(":" + extras.tags.joined(separator: ":") + ":", into: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
        out.append(literal: hasChildren ? ">\n" : "/>\n")
    }

    func leave(depth: Int, into out: inout [UInt8]) {
        indent(depth, into: &out)
        out.append(literal: "</outline>\n")
    }

    func end(into out: inout [UInt8]) {
        out.append(literal: "  </body>\n</opml>\n")
    }

    /// The body's items start two levels in. XML ignores indentation; past a screen's width it would only
    /// grow the file with the square of the depth (100,000 levels: 20 GB of spaces).
    private func indent(_ depth: Int, into out: inout [UInt8]) {
        out.append(contentsOf: indentation[..<(2 * min(depth + 2, OPML.maximumIndent))])
    }
}
