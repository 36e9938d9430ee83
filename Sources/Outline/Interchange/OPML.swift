import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// OPML 2.0 as Workflowy, Dynalist and OmniOutliner write it: nested `outline` elements with `text`,
/// `_note` and `_complete="true"`; entities and CDATA are understood; other attributes are ignored.
public enum OPML {
    public static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        let reader = Reader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        parser.shouldProcessNamespaces = false
        if !parser.parse() || reader.failure != nil {
            throw reader.failure
                ?? InterchangeError(
                    format: "OPML", line: parser.lineNumber, column: parser.columnNumber,
                    message: "not well-formed XML (\(parser.parserError.map { ($0 as NSError).localizedDescription } ?? "parse error"))")
        }
        if let open = reader.open.last {
            throw InterchangeError(format: "OPML", line: parser.lineNumber, column: parser.columnNumber,
                message: "<\(open.name)> opened on line \(open.line) is never closed")
        }
        guard reader.sawOPML else {
            throw InterchangeError(format: "OPML", line: 1, column: 1, message: "no <opml> element")
        }
        return reader.roots
    }

    public static func write(_ nodes: [OutlineNode], title: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64 * 1024)
        func put(_ s: StaticString) { out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)) }
        put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>")
        escape(title, into: &out)
        put("</title>\n  </head>\n  <body>\n")
        // Iterative, so a thousand levels of nesting cannot exhaust a thread's stack.
        var stack: [(node: OutlineNode, depth: Int, closing: Bool)] = nodes.reversed().map { ($0, 2, false) }
        while let (node, depth, closing) = stack.popLast() {
            for _ in 0..<depth { put("  ") }
            if closing {
                put("</outline>\n")
                continue
            }
            put("<outline text=\"")
            escape(node.title, into: &out)
            put("\"")
            if let note = node.note {
                put(" _note=\"")
                escape(note, into: &out)
                put("\"")
            }
            if node.done { put(" _complete=\"true\"") }
            if node.children.isEmpty {
                put("/>\n")
            } else {
                put(">\n")
                stack.append((node, depth, true))
                stack += node.children.reversed().map { ($0, depth + 1, false) }
            }
        }
        put("  </body>\n</opml>\n")
        return String(decoding: out, as: UTF8.self)
    }

    /// Escapes text for an attribute: also line breaks and tabs, so they survive attribute normalisation,
    /// and characters XML 1.0 cannot hold at all as a private-use scalar (see `unescapeControls`).
    static func escape(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            // Most titles need no escaping: copy them whole.
            if !bytes.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 >= 0xEE }) {
                out.append(contentsOf: bytes)
                return
            }
            for u in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                switch u {
                case "&": out += Array("&amp;".utf8)
                case "<": out += Array("&lt;".utf8)
                case ">": out += Array("&gt;".utf8)
                case "\"": out += Array("&quot;".utf8)
                case "\n": out += Array("&#10;".utf8)
                case "\r": out += Array("&#13;".utf8)
                case "\t": out += Array("&#9;".utf8)
                default:
                    if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF {
                        // XML 1.0 forbids C0 controls even as references: keep them as private-use scalars.
                        out += Array(String(Unicode.Scalar(0xF0000 + u.value)!).utf8)
                    } else {
                        out += Array(String(u).utf8)
                    }
                }
            }
        }
    }

    static func unescapeControls(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value >= 0xF0000 && $0.value <= 0xFFFFF }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let v = u.value
            if v >= 0xF0000, let original = Unicode.Scalar(v - 0xF0000),
                original.value < 0x20 || original.value == 0xFFFE || original.value == 0xFFFF
            {
                out.append(original)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var roots: [OutlineNode] = []
        var stack: [OutlineNode] = []
        var sawOPML = false
        var inBody = false
        var failure: InterchangeError?
        /// Elements open now, checked by hand: the Linux parser recovers from mismatched tags silently.
        var open: [(name: String, line: Int)] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            open.append((name, parser.lineNumber))
            switch name {
            case "opml": sawOPML = true
            case "body": inBody = true
            case "outline":
                guard inBody else {
                    fail(parser, "an <outline> outside <body>")
                    return
                }
                let title = unescapeControls(attributes["text"] ?? attributes["title"] ?? "")
                let note = attributes["_note"].map(unescapeControls)
                let done = (attributes["_complete"] ?? "").lowercased() == "true"
                stack.append(OutlineNode(title, note: note, done: done))
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let top = open.popLast(), top.name == name else {
                let expected = open.last.map { "</\($0.name)> for the <\($0.name)> of line \($0.line)" } ?? "nothing"
                fail(parser, "</\(name)> does not close what is open (expected \(expected))")
                return
            }
            switch name {
            case "body": inBody = false
            case "outline":
                guard let node = stack.popLast() else { return }
                if stack.isEmpty { roots.append(node) } else { stack[stack.count - 1].children.append(node) }
            default: break
            }
        }

        private func fail(_ parser: XMLParser, _ message: String) {
            if failure == nil {
                failure = InterchangeError(format: "OPML", line: parser.lineNumber, column: parser.columnNumber, message: message)
            }
            parser.abortParsing()
        }
    }
}
