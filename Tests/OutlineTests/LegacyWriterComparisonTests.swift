import Foundation
import TestSupport
import Testing

@testable import Outline

/// The writers as they were before streaming, to check the streaming ones write the same bytes.
enum LegacyWriters {
    static func opml(_ nodes: [OutlineNode], title: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64 * 1024)
        func put(_ s: StaticString) { out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)) }
        put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>")
        OPML.escape(title, into: &out)
        put("</title>\n  </head>\n  <body>\n")
        let indentation = [UInt8](repeating: 0x20, count: 2 * OPML.maximumIndent)
        // Iterative, so no depth of nesting can exhaust a thread's stack.
        var stack: [(node: OutlineNode, depth: Int, closing: Bool)] = nodes.reversed().map { ($0, 2, false) }
        while let (node, depth, closing) = stack.popLast() {
            // XML ignores indentation; past a screen's width it would only grow the file with the square of
            // the depth (100,000 levels: 20 GB of spaces).
            out.append(contentsOf: indentation[..<(2 * min(depth, OPML.maximumIndent))])
            if closing {
                put("</outline>\n")
                continue
            }
            put("<outline text=\"")
            OPML.escape(node.title, into: &out)
            put("\"")
            if let note = node.note {
                put(" _note=\"")
                OPML.escape(note, into: &out)
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

    static func json(_ nodes: [OutlineNode]) -> String {
        var out = "{\"format\": \"burrow-outline\", \"version\": 1, \"items\": ["
        // Each entry either opens a node or closes a list of children.
        var stack: [(OutlineNode?, Bool)] = nodes.reversed().enumerated().map { ($1, $0 == nodes.count - 1) }
        while let (node, first) = stack.popLast() {
            guard let node else {
                out += "]}"
                continue
            }
            if !first { out += "," }
            out += "\n{\"title\": " + legacyQuote(node.title)
            if let note = node.note { out += ", \"note\": " + legacyQuote(note) }
            if node.done { out += ", \"done\": true" }
            if node.children.isEmpty {
                out += "}"
            } else {
                out += ", \"children\": ["
                stack.append((nil, false))
                stack += node.children.reversed().enumerated().map { ($1, $0 == node.children.count - 1) }
            }
        }
        return out + "]}\n"
    }

    static func legacyQuote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    static func text(_ nodes: [OutlineNode]) -> String {
        var out = ""
        forEachInOrder(nodes) { node, depth in
            var title = node.title.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\r", with: " ")
            title = String(title.drop { $0 == " " || $0 == "\t" })
            out += String(repeating: "\t", count: depth) + title + "\n"
        }
        return out
    }

    static func org(_ nodes: [OutlineNode]) -> String {
        // The notes are written as they are, so their keyword lines are the file's: done items get a
        // keyword of those, and titles are escaped by those.
        var keywords = OrgKeywords()
        forEachInOrder(nodes) { node, _ in
            if let note = node.note { keywords.scan(note: note) }
        }
        let marker = keywords.marker
        var out: [UInt8] = []
        var rest = nodes[...]
        if let first = nodes.first, OrgOutline.isPreamble(first, hasChildren: !first.children.isEmpty) {
            OrgOutline.appendNote(first.note!, to: &out)
            rest = rest.dropFirst()
        }
        var title: [UInt8] = []
        forEachInOrder(Array(rest)) { node, depth in
            out.append(contentsOf: repeatElement(UInt8(ascii: "*"), count: depth + 1))
            out.append(UInt8(ascii: " "))
            OrgOutline.singleLine(node.title, into: &title)
            if node.done {
                out += marker
                // A space even before an empty title: `* DONE` alone is a headline titled "DONE".
                out.append(UInt8(ascii: " "))
            } else if OrgOutline.needsEscape(title, keywords) {
                out += OrgOutline.zeroWidthSpace
            }
            out += title
            out.append(0x0A)
            if let note = node.note { OrgOutline.appendNote(note, to: &out) }
        }
        return String(decoding: out, as: UTF8.self)
    }

}

struct LegacyMarkdownWriter {
    private var out: [UInt8] = []

    mutating func write(_ nodes: [OutlineNode]) -> String {
        // Each node is entered (its title, its note when it goes first, its children pushed) and left (its
        // note when it goes last), with a stack of our own.
        // `column` is where the item's marker goes; its content (note lines, sub-items) starts 2 further, or 5
        // when `wide`.
        enum Step {
            case enter(OutlineNode, column: Int, wide: Bool)
            case leave([UInt8], column: Int)
        }
        var steps: [Step] = nodes.reversed().map { .enter($0, column: 0, wide: false) }
        while let step = steps.popLast() {
            switch step {
            case .enter(let node, let column, let wide):
                titleLine(node, column: column, wide: wide)
                let content = column + (wide ? 5 : 2)
                var note: [UInt8]?
                if let text = node.note { note = MarkdownWriter.noteLines(text, column: content) }
                var childColumn = content
                var childrenWide = false
                if let lines = note, !node.children.isEmpty, !MarkdownWriter.noteMayGoFirst(lines, column: content) {
                    steps.append(.leave(lines, column: content))
                    // The note's first line, when indented, must not fall into the last sub-item: sub-items
                    // 3 columns in, with 4 blanks after their marker, have their content 8 columns in, past a
                    // note's first 7.
                    childColumn += 3
                    childrenWide = true
                } else if let lines = note {
                    noteBlock(lines, column: content)
                    // A blank line ends what the note leaves open until one (an HTML block) before a sub-item.
                    if !node.children.isEmpty { out.append(0x0A) }
                }
                steps += node.children.reversed().map { .enter($0, column: childColumn, wide: childrenWide) }
            case .leave(let lines, let column):
                noteBlock(lines, column: column)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func titleLine(_ node: OutlineNode, column: Int, wide: Bool) {
        out += Array(repeating: MarkdownEscaping.space, count: column)
        out += Array((wide ? "-    " : "- ").utf8)
        if node.done { out += Array("[x] ".utf8) }
        // A title cannot hold a line break: each (LF, CR or CRLF) is a space.
        let raw = Array(node.title.utf8)
        var flat: [UInt8] = []
        var i = 0
        while i < raw.count {
            if raw[i] == 0x0D && i + 1 < raw.count && raw[i + 1] == 0x0A { i += 1 }
            flat.append(raw[i] == 0x0A || raw[i] == 0x0D ? MarkdownEscaping.space : raw[i])
            i += 1
        }
        out += MarkdownEscaping.source(ofTitle: flat)
        out.append(0x0A)
    }

    /// A blank line, then the note's lines indented to the item's content `column`; blank lines stay empty.
    private mutating func noteBlock(_ lines: [UInt8], column: Int) {
        out.append(0x0A)
        let indent = Array(repeating: MarkdownEscaping.space, count: column)
        for line in lines.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if !line.isEmpty { out += indent + line }
            out.append(0x0A)
        }
    }

}

@Suite struct LegacyWriterComparisonTests {
    static let extra = [
        "&", "<", ">", "\"", "\\", "- ", "1. ", "[x] ", "```", "<!--", "  ", "\u{7F}", "\u{C2}", "\u{9F}", "\u{FFFE}", "\u{1}", "\u{0B}"
    ]

    static func text(_ rng: inout SeededRandom, pieces: Int) -> String {
        var s = ""
        for _ in 0..<rng.below(pieces + 1) { s += rng.below(2) == 0 ? rng.pick(extra)! : rng.pick(OrgOutlineTests.fragments)! }
        return s
    }

    static func tree(_ rng: inout SeededRandom, depth: Int) -> [OutlineNode] {
        (0..<rng.below(depth == 0 ? 8 : 5)).map { _ in
            OutlineNode(
                text(&rng, pieces: 5), note: rng.below(3) == 0 ? nil : text(&rng, pieces: 10), done: rng.below(3) == 0,
                children: depth < 5 && rng.below(2) == 0 ? tree(&rng, depth: depth + 1) : [])
        }
    }

    @Test(arguments: TestSeed.seeds(Array(1...40)))
    func sameBytes(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for round in 0..<100 {
            var x = Self.tree(&rng, depth: 0)
            if rng.below(3) == 0 { x.insert(OutlineNode("", note: Self.text(&rng, pieces: 10)), at: 0) }
            var md = LegacyMarkdownWriter()
            #expect(OPML.write(x, title: "t \(round)") == LegacyWriters.opml(x, title: "t \(round)"), "\(seed) \(round)")
            #expect(JSONOutline.write(x) == LegacyWriters.json(x), "\(seed) \(round)")
            #expect(IndentedText.write(x) == LegacyWriters.text(x), "\(seed) \(round)")
            #expect(OrgOutline.write(x) == LegacyWriters.org(x), "\(seed) \(round)")
            #expect(MarkdownOutline.write(x) == md.write(x), "\(seed) \(round)")
            for s in [x.first?.title ?? "", x.first?.note ?? ""] { #expect(JSONOutline.quote(s) == LegacyWriters.legacyQuote(s)) }
        }
    }
}
