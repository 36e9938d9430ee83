import Foundation
import TestSupport
import Testing

@testable import Outline

/// Markdown read a piece at a time (issue 17): cmark-gfm is fed the text in pieces and the reader frees each
/// block once it is closed, so what it gives must be what the whole document gives, wherever the pieces end
/// and whoever takes the items (a tree, or an import taking them one by one after a first pass). The judge
/// is the reader as it was, on cmark's whole tree (`WholeMarkdownReader`).
@Suite struct MarkdownStreamingTests {
    /// Piece sizes: one byte (a piece ends inside every line, between every CR and LF), small primes, the
    /// import's own.
    static let feedSizes = [1, 2, 3, 7, 64, 1 << 16]

    /// Items in document order with their depth, as an import takes them.
    private static func flat(_ nodes: [OutlineNode]) -> [String] {
        var out: [String] = []
        forEachInOrder(nodes) { node, depth in
            out.append("\(depth) \(node.isDone) \(node.title.debugDescription) \(String(describing: node.note?.debugDescription))")
        }
        return out
    }

    /// Reads `text` every way and holds each against the whole-document reader (its error, too).
    private static func agree(_ text: String, _ context: @autoclosure () -> String, feedSizes: [Int] = feedSizes) {
        let judged = Result { () throws(InterchangeError) in try WholeMarkdownReader.read(text) }
        for size in feedSizes {
            let built = Result { () throws(InterchangeError) -> [OutlineNode] in
                var builder = OutlineBuilder()
                try MarkdownOutline.read(text, into: &builder, feedSize: size)
                return builder.finish()
            }
            #expect(built == judged, "tree, pieces of \(size): \(context())\n\(text.debugDescription)")
            var taken: [OutlineNode] = []
            var depths: [Int] = []
            let handed = Result { () throws(InterchangeError) -> [String] in
                var builder = OutlineBuilder { node, depth in
                    taken.append(node)
                    depths.append(depth)
                }
                try MarkdownOutline.read(text, into: &builder, feedSize: size)
                return zip(taken, depths).map { "\($1) \($0.isDone) \($0.title.debugDescription) \(String(describing: $0.note?.debugDescription))" }
            }
            switch (handed, judged) {
            case (.success(let items), .success(let nodes)):
                #expect(items == flat(nodes), "one by one, pieces of \(size): \(context())\n\(text.debugDescription)")
            case (.failure(let error), .failure(let expected)):
                #expect(error == expected)
                // The first pass refuses the file before any item is handed on.
                #expect(taken.isEmpty, "\(context())")
            default:
                Issue.record("one by one, pieces of \(size): \(handed) but \(judged): \(context())\n\(text.debugDescription)")
            }
        }
    }

    @Test(arguments: CommonMarkListExamples.all)
    func specificationExamples(number: Int, markdown: String) {
        Self.agree(markdown, "example \(number)")
    }

    /// Notes that go on after an item's sub-items or a heading's lists (what an item handed on early
    /// lacks), blocks cut by the pieces at every line, and headings, loose paragraphs and rules around lists.
    @Test(arguments: [
        "- a\n  - b\n\n  after b, a's note\n",
        "- a\n  note before\n\n  - b\n  - c\n\n  and after\n- d\n",
        "- a\n  - b\n    - c\n\n    c is b's\n\n  and a's\n",
        "- a\n  - b\n\n  [ref]: /url\n",
        "# H\n\n- x\n- y\n\npara after the list\n\n## H2\n\ntext\n\n- z\n",
        "# H\nnote\n- x\n\n```\ncode\n- not an item\n```\n\n- y\n# Next\n",
        "para\n\n```\ncode\n```\n\n---\n\n> quote\n\n- list\n\nloose\n\n<div>\nhtml\n</div>\n",
        "Setext\n======\n\n- a\n\nSub\n---\n- b\n",
        "- a\r\n  - b\r\n\r\n  late\r\n- c\r",
        "- a\r  - b\r\r  late\r",
        "\u{FEFF}- with a mark\n  - child\n\n  late\n",
        "1. one\n2. two\n   - sub\n\n   late two\n3. three\n",
        "- [x] done\n  - [ ] not\n\n  late\n",
        "-\n  foo\n-\n\n  bar\n",
        "- a\n\n\n  still a\n  - b\n",
        "> - quoted\n>   - list\n\n- real\n",
        "- a\n  ```\n  - b\n  ```\n  - c\n\n  d\n",
        "# Only a heading",
        "",
        "\n\n\n",
        "- a\n  - b\n  c lazy\nlazier\n\n  late\n",
        "\t- tab\n\t\t- tabs\n\n\t\tlate\n"
    ])
    func awkwardCases(text: String) {
        Self.agree(text, "case")
    }

    /// Random texts built of the lines that change how Markdown reads: markers at every indentation, fences,
    /// quotes, HTML, headings both ways, rules, link definitions, tabs, blank lines, three line endings.
    @Test(arguments: TestSeed.seeds([11, 12, 13, 14]))
    func randomTexts(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let lines = [
            "- a", "* b", "+ c", "1. d", "2) e", "  - f", "    - g", "      - h", "   - i", "\t- j", "-", "- [ ] k", "- [x] l",
            "  text", "    text", "text", "lazy text", "", "", "", "  ", "# H1", "## H2", "### H3", "====", "----", "***",
            "```", "  ```", "~~~", "    code", "> quote", "> - quoted item", ">", "<div>", "</div>", "<!--", "-->",
            "[ref]: /url", "  [r2]: /u \"t\"", "\\- escaped", "- \\- escaped", "  - [ ] box", "- - nested", "10. ten"
        ]
        let endings = ["\n", "\n", "\n", "\r\n", "\r"]
        func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        for round in 0..<150 {
            var text = ""
            for _ in 0..<pick(30) { text += lines[pick(lines.count)] + endings[pick(endings.count)] }
            if pick(4) == 0, let last = text.indices.last { text.remove(at: last) }  // no final line ending
            Self.agree(text, "round \(round), \(TestSeed.note(seed))")
        }
    }

    /// Deep nesting refused by the first pass with the whole reader's error, before any item goes.
    @Test func tooDeepIsRefusedBeforeAnyItem() {
        var text = ""
        for d in 1...1001 { text += String(repeating: "  ", count: d - 1) + "- level \(d)\n" }
        // A megabyte of indentation: pieces of one byte would walk the thousand open levels a million times.
        Self.agree(text, "1,001 levels", feedSizes: [4096, 1 << 16])
    }

    /// A note of tens of thousands of blocks between sub-lists (an item's, a heading's) is read whole. Each
    /// line used to look through every sub-list for the one it is in (minutes for 100,000): that the time is
    /// linear in the lines is the benchmark's (`BurrowBenchmarks hostile`).
    @Test func notesOfManyBlocksAreReadWhole() throws {
        let n = TestScale.size(ci: 40_000, big: 40_000, small: 4_000)
        let (item, section) = Self.notesOfManyBlocks(n)
        let items = try MarkdownOutline.read(item)
        let sections = try MarkdownOutline.read(section)
        #expect(items.count == 1 && items[0].children.count == n)
        let paragraphs = items[0].note?.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.map(String.init)
        #expect(paragraphs == (0..<n).map { "para \($0)" })
        #expect(sections.count == 1 && sections[0].children.count == n)
        let expectedNote: [String] = (0..<n).map { (k: Int) -> String in "p\(k)" }
        #expect(sections[0].note?.split(separator: "\n").map(String.init) == expectedNote)
    }

    /// An item, and a heading, whose notes are `n` paragraphs between `n` one-item sub-lists.
    static func notesOfManyBlocks(_ n: Int) -> (item: String, section: String) {
        var item = "- a\n"
        var section = "# H\n\n"
        for i in 0..<n {
            item += "  - b\(i)\n\n  para \(i)\n\n"
            section += "- x\(i)\n\np\(i)\n\n"
        }
        return (item, section)
    }

    /// A 200,000-item list read in 64 KiB pieces keeps no more of cmark's tree than the open blocks: the
    /// blocks alive at the end of each piece (counted, not timed) stay a handful whatever the length.
    /// (20,000 items under the sanitizer: five pieces, the same blocks closed as they go.)
    @Test func closedBlocksAreFreedAsTheyGo() throws {
        let n = TestScale.size(ci: 200_000, big: 200_000, small: 20_000)
        var text = ""
        for i in 0..<n { text += String(repeating: "  ", count: i % 4) + "- item \(i)\n" }
        var count = 0
        var text8 = text
        let most = try text8.withUTF8 { bytes in
            var reader = MarkdownReader(bytes, into: OutlineBuilder { _, _ in count += 1 }, late: .use([:]))
            reader.countsBlocksAlive = true
            try reader.read()
            return reader.mostBlocksAlive
        }
        #expect(count == n)
        #expect(most < 64, "\(most) blocks alive at once")
    }
}
