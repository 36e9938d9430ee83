import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

@Suite struct InterchangeTests {
    /// A tree with Unicode, empty and very long titles, notes with blank and list-like lines, done flags.
    static func sample() -> [OutlineNode] {
        [
            OutlineNode(
                "Groceries 🛒",
                children: [
                    OutlineNode("Milk", note: "2 litres\n\n- not a sub-item\n  indented line", isDone: true),
                    OutlineNode("Eggs & <bacon> \"quoted\" 'single'"),
                    OutlineNode("<b>not bold</b> &amp; &lt;i&gt; <a href=\"u\">x</a>", note: "<i>as typed</i> &#10;"),
                    OutlineNode("", note: "an empty title")
                ]),
            OutlineNode("漢字 · naïve · e\u{301} · 👩‍👩‍👧", children: [OutlineNode("[ ] looks like a box"), OutlineNode("1. looks numbered")]),
            OutlineNode(String(repeating: "long ", count: 2000)),
            OutlineNode("  leading and trailing spaces  ", isDone: true),
            OutlineNode("escape \u{1B}[31mred\u{1B}[0m and bell \u{07} and tab\tinside")
        ]
    }

    /// What each format can hold.
    static func holdable(_ nodes: [OutlineNode], in format: OutlineFormat) -> [OutlineNode] {
        nodes.map { n in
            var m = n
            switch format {
            case .opml, .json: break
            case .markdown:
                m.title = m.title.replacingOccurrences(of: "\n", with: " ")
            case .org:
                m = OrgOutlineTests.holdable(m)
            case .text:
                m.note = nil
                m.isDone = false
                m.title = String(m.title.drop { $0 == " " || $0 == "\t" })
            }
            m.children = holdable(n.children, in: format)
            return m
        }.filter { format != .text || !$0.title.isEmpty }
    }

    @Test(arguments: OutlineFormat.allCases)
    func exactRoundTrip(format: OutlineFormat) throws {
        let x = Self.holdable(Self.sample(), in: format)
        let text = format.write(x)
        #expect(try format.read(text) == x)
    }

    @Test(arguments: OutlineFormat.allCases)
    func deepAndWide(format: OutlineFormat) throws {
        var deep = OutlineNode("level 1000")
        for d in stride(from: 999, through: 1, by: -1) { deep = OutlineNode("level \(d)", children: [deep]) }
        let width = TestScale.size(ci: 100_000, big: 100_000, small: 10_000)
        let wide = OutlineNode("wide", children: (0..<width).map { OutlineNode("item \($0)") })
        let x = [deep, wide]
        #expect(try format.read(format.write(x)) == x)
    }

    @Test func throughTheStore() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        var deep = OutlineNode("bottom")
        for d in 0..<1000 { deep = OutlineNode("d\(d)", children: [deep]) }
        let x = Self.sample() + [deep]
        try o.add(x, under: root)
        try o.save()
        let fresh = Outline(context: Context(store: o.context.store))
        #expect(try fresh.nodes(under: try fresh.root()) == x)
        #expect(try fresh.root().childCount == x.count)
    }

    /// Export reads saved items as values and, while the context has unsaved changes, through objects:
    /// both give the same subtree, and the second includes the changes.
    @Test func exportReadsSavedRowsAndUnsavedChanges() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let wide = OutlineNode(
            "wide",
            children: (0..<40).map {
                OutlineNode("w\($0)", note: $0 % 3 == 0 ? "n\($0)" : nil, isDone: $0 % 2 == 0, children: (0..<($0 % 4)).map { OutlineNode("c\($0)") })
            })
        let x = Self.sample() + [wide]
        try o.add(x, under: root)
        try o.save()
        let fresh = Outline(context: Context(store: o.context.store))
        let item = try #require(try fresh.children(of: try fresh.root()).last)
        #expect(try fresh.nodes(under: item) == wide.children)
        item.title = "renamed"
        let first = try #require(try fresh.children(of: item).first)
        first.title = "changed, not saved"
        var expected = wide.children
        expected[0].title = "changed, not saved"
        #expect(try fresh.nodes(under: item) == expected)
        #expect(try fresh.nodes(under: try fresh.root()).last?.title == "renamed")
    }

    /// A second import goes after what the parent holds, at every level; sub-levels of all lengths keep order.
    @Test func addingAgainAppends() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let first = Self.sample()
        let second = [
            OutlineNode("wide", children: (0..<300).map { OutlineNode("w\($0)", children: (0..<($0 % 7)).map { OutlineNode("c\($0)") }) }),
            OutlineNode("last")
        ]
        try o.add(first, under: root)
        try o.save()
        let ids = try o.add(second, under: root)
        try o.save()
        let fresh = Outline(context: Context(store: o.context.store))
        #expect(try fresh.nodes(under: try fresh.root()) == first + second)
        #expect(ids.count == second.count)
        #expect(try fresh.root().childCount == first.count + second.count)
    }

    /// Bad files: a clear error with line and column.
    @Test(arguments: [
        (OutlineFormat.opml, "<?xml version=\"1.0\"?>\n<opml><body>\n<outline text=\"a\">\n</body></opml>", "OPML line 4"),
        (.opml, "<?xml version=\"1.0\"?>\n<notopml/>", "OPML line 1, column 1: no <opml> element"),
        (
            .json, "{\"format\": \"burrow-outline\", \"version\": 1, \"items\": [\n{\"title\": \"a\",}\n]}",
            "JSON line 2, column 15: expected a member name in quotes"
        ),
        (.json, "{\"items\": [{\"note\": \"no title\"}]}", "JSON line 1, column 12: an item without \"title\""),
        (.json, "{\"version\": 4, \"items\": []}", "JSON line 1, column 1: version 4 is not supported"),
        // CommonMark reads any indentation; only nesting deeper than 1,000 levels is refused.
        (.markdown, String(repeating: "- ", count: 1001) + "x\n", "Markdown line 1, column 2001: item is at level 1001"),
        (.text, "a\n\tb\n  c\n", "text line 3, column 1: spaces after indenting with tabs"),
        (.text, "a\n    b\n      c\n", "text line 3, column 7: indentation of 6 spaces is not a multiple of 4")
    ])
    func badInputIsAClearError(format: OutlineFormat, text: String, message: String) {
        do {
            _ = try format.read(text)
            Issue.record("\(format) read a bad file")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func windowsLineEndings() throws {
        #expect(
            try MarkdownOutline.read("- [x] a\r\n  - b\r\n    title\r\n\r\n    note\r\n    lines\r\n")
                == [OutlineNode("a", isDone: true, children: [OutlineNode("b title", note: "note\nlines")])])
        #expect(try IndentedText.read("a\r\n\tb\r\n") == [OutlineNode("a", children: [OutlineNode("b")])])
        // Indented text is read line by line without an array of lines: the same lines as before, whatever
        // the mix of CR and LF (a lone CR is no line ending; one more CR before the end of a line is dropped).
        #expect(try IndentedText.read("a\r\r\nb\rc\n\n\r\n  d\r") == [OutlineNode("a"), OutlineNode("b\rc", children: [OutlineNode("d")])])
        #expect(try IndentedText.read("\n\na\n\n") == [OutlineNode("a")])
        #expect(try IndentedText.read("é\r\n\t漢字\r\r\n\t\t👩‍👩‍👧") == [OutlineNode("é", children: [OutlineNode("漢字", children: [OutlineNode("👩‍👩‍👧")])])])
        #expect(throws: InterchangeError(format: "text", line: 3, column: 1, message: "tabs after indenting with spaces")) {
            try IndentedText.read("a\r\n  b\r\n\tc\r\n")
        }
    }

    @Test func formatGuessing() {
        #expect(OutlineFormat.guess(fileName: "x.OPML") == .opml)
        #expect(OutlineFormat.guess(fileName: "notes.md") == .markdown)
        #expect(OutlineFormat.guess(fileName: "plans.ORG") == .org)
        #expect(OutlineFormat.guess(fileName: "plans.org.txt") == .text)
        #expect(OutlineFormat.guess(fileName: "plans.organizer") == nil)
        #expect(OutlineFormat.guess(fileName: "org") == nil)
        #expect(OutlineFormat.names == "opml|markdown|org|text|json")
    }

    /// The first line that is not blank tells the format; plain text, and what no format starts with, is
    /// nobody's (indented text is read only when named).
    @Test(
        arguments: [
            ("  <?xml version", OutlineFormat.opml), ("\u{FEFF}<opml>", .opml), ("{\"items\": []}", .json), ("\n\n[", .json),
            ("#+TITLE: x\n- a\n", .org), ("  #+TODO: A\n", .org), ("* a\n** b\n", .org), ("\r\n* a\r\nbody\r\n", .org),
            ("\u{FEFF}* a", .org), ("* a\n  * b\n** c\n", .org), ("*** deep first\n", .org), ("* a\n  - b\n", .org),
            // A headline-looking first line in a Markdown list: a box after it, or indented `*` items under it.
            ("* a\n  * b\n", .markdown), ("* [ ] a\n", .markdown), ("* [x] a\n", .markdown),
            ("- a", .markdown), ("+ a", .markdown), ("1. a", .markdown), ("12) a", .markdown), ("  - a", .markdown), ("  * a", .markdown),
            ("-", .markdown), ("# Title\n\nText", .markdown), ("###### six", .markdown), ("#", .markdown)
        ] as [(String, OutlineFormat)])
    func formatSniffing(text: String, format: OutlineFormat) {
        #expect(OutlineFormat.sniff(text) == format)
    }

    @Test(arguments: [
        "", "  \n\t\n", "Groceries\n\tMilk\n", "**bold** text", "*bold*", "####### seven", "#hashtag", "-not a list", "1.5 litres",
        "<!-- a comment -->", ",* escaped", String(repeating: "\n", count: 70_000) + "* past the first 64 KiB"
    ])
    func formatsNotSniffed(text: String) {
        #expect(OutlineFormat.sniff(text) == nil)
    }
}
