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
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>"
        out += escape(title) + "</title>\n  </head>\n  <body>\n"
        // Iterative, so a thousand levels of nesting cannot exhaust a thread's stack.
        var stack: [(node: OutlineNode, depth: Int, closing: Bool)] = nodes.reversed().map { ($0, 2, false) }
        while let (node, depth, closing) = stack.popLast() {
            let pad = String(repeating: "  ", count: depth)
            if closing {
                out += pad + "</outline>\n"
                continue
            }
            out += pad + "<outline text=\"" + escape(node.title) + "\""
            if let note = node.note { out += " _note=\"" + escape(note) + "\"" }
            if node.done { out += " _complete=\"true\"" }
            if node.children.isEmpty {
                out += "/>\n"
            } else {
                out += ">\n"
                stack.append((node, depth, true))
                stack += node.children.reversed().map { ($0, depth + 1, false) }
            }
        }
        return out + "  </body>\n</opml>\n"
    }

    /// Escapes text for an attribute: also line breaks and tabs, so they survive attribute normalisation,
    /// and characters XML 1.0 cannot hold at all as a private-use escape (see `unescapeControls`).
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF || (0xE000...0xE01F).contains(u.value) {
                    // XML 1.0 forbids C0 controls even as references: keep them as private-use scalars.
                    out.unicodeScalars.append(Unicode.Scalar(0xF0000 + u.value)!)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    static func unescapeControls(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value >= 0xF0000 && $0.value <= 0xFFFFF }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let v = u.value
            if v >= 0xF0000, let original = Unicode.Scalar(v - 0xF0000),
                original.value < 0x20 || original.value == 0xFFFE || original.value == 0xFFFF || (0xE000...0xE01F).contains(original.value)
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
