import Foundation
import Outline
import TestSupport
import Testing

@testable import BurrowCommands

/// `burrow import` of Markdown and JSON, which hand items on as they read after a first pass (issue 17), on
/// files built to catch the two passes disagreeing: notes and members that come after an item's sub-items (at
/// every depth, and after tens of thousands of them), faults far in, files cut short, odd bytes. The judge is
/// the tree-building reader of the same text (`MarkdownOutline.read`, `JSONOutline.read`): an import must
/// store exactly its outline, or refuse the file and leave the outline and its history as they were.
@Suite struct StreamingMarkdownJSONImportTests {
    /// The whole stored outline, exported as JSON (lossless) and read back.
    static func stored(_ sh: Shell) throws -> [OutlineNode] {
        try JSONOutline.read(sh.run("export", "--format", "json").1)
    }

    /// Everything a refused import must leave alone: the outline and its undo history.
    static func state(_ sh: Shell) -> String {
        sh.run("export", "--format", "json").1 + sh.run("history", "--json", "--limit", "1000").1
    }

    static func write(_ sh: Shell, _ name: String, _ bytes: some Sequence<UInt8>) throws -> String {
        let file = sh.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Items in document order with their depth, as an import hands them on.
    static func count(_ nodes: [OutlineNode]) -> Int {
        var n = 0
        var pending = nodes[...]
        var stack: [ArraySlice<OutlineNode>] = []
        while true {
            if let node = pending.popFirst() {
                n += 1
                stack.append(pending)
                pending = node.children[...]
            } else if let up = stack.popLast() {
                pending = up
            } else {
                return n
            }
        }
    }

    /// Imports `bytes` under a fresh item beside others and checks the stored outline against `expected`
    /// (what the tree-building reader gives); then that undo takes exactly the import away and redo brings
    /// it back.
    static func importAgrees(_ bytes: [UInt8], name: String, expected: [OutlineNode], _ context: String) throws {
        let sh = Shell()
        sh.run("add", "Before", "Into", "After")
        sh.run("add", "old child", "--under", "Into")
        let before = try stored(sh)
        let file = try write(sh, name, bytes)
        let r = sh.run("import", file, "--under", "Into")
        let n = count(expected)
        #expect(r.0 == 0 && r.1.hasPrefix("Imported \(n) item\(n == 1 ? "" : "s") from"), "\(r); \(context)")
        var after = before
        after[1].children += expected
        let imported = try stored(sh)
        #expect(imported == after, "\(context)")
        if imported != after, let wanted = after[1].children.dropFirst().first, let got = imported[1].children.dropFirst().first {
            Issue.record(
                "first imported item: \(got.title.debugDescription) note \(String(describing: got.note)); expected \(wanted.title.debugDescription) note \(String(describing: wanted.note))"
            )
        }
        #expect(sh.run("check").0 == 0, "\(context)")
        #expect(sh.run("undo").0 == 0)
        #expect(try stored(sh) == before, "undo: \(context)")
        #expect(sh.run("redo").0 == 0)
        #expect(try stored(sh) == after, "redo: \(context)")
    }

    // MARK: Markdown

    /// A random Markdown list item with its sub-lists, where the blocks of its note come before, between and
    /// after them (after: what the first pass must find, the item having gone on at its first sub-list).
    static func markdownItem(_ random: inout SeededRandom, depth: Int, maximum: Int, indent: String, into out: inout String) {
        func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        let marker = ["- ", "* ", "1. ", "- [ ] ", "- [x] ", "+ "][pick(6)]
        let inner = indent + String(repeating: " ", count: marker.hasPrefix("1") ? 3 : 2)
        out += indent + marker + "item \(depth).\(pick(1000))\n"
        if pick(3) == 0 { out += "\n" + inner + "before \(depth)\n" }
        guard depth < maximum else { return }
        for list in 0..<pick(3) {
            if pick(2) == 0 { out += "\n" }
            for _ in 0...pick(3) { markdownItem(&random, depth: depth + 1, maximum: maximum, indent: inner, into: &out) }
            // A late block: a paragraph, code, a quote, a setext heading, or a sub-list's lazy line followed by one.
            switch pick(6) {
            case 0: out += "\n" + inner + "late \(depth).\(list)\n"
            case 1: out += "\n" + inner + "```\n" + inner + "- code, no item\n" + inner + "```\n"
            case 2: out += "\n" + inner + "> quoted \(depth)\n"
            case 3: out += "\n" + inner + "Late heading\n" + inner + "---\n"
            case 4: out += "\n" + inner + "late \(depth)\n" + inner + "two lines\n\n" + inner + "and \(depth)\n"
            default: break
            }
        }
    }

    static func markdownDocument(_ random: inout SeededRandom) -> String {
        func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        var text = ""
        for section in 0..<pick(4) + 1 {
            switch pick(3) {
            case 0: text += "# Heading \(section)\n\nbefore its lists\n\n"
            case 1: text += String(repeating: "#", count: pick(3) + 1) + " Heading \(section)\n"
            default: break
            }
            for _ in 0...pick(3) { markdownItem(&random, depth: 0, maximum: 5, indent: "", into: &text) }
            if pick(2) == 0 { text += "\nafter the list, the heading's note \(section)\n\n" }
        }
        return text
    }

    /// Notes that grow after an item's sub-items at every depth, under headings and not, with the text's
    /// line endings LF, CRLF or CR alone.
    @Test(arguments: TestSeed.seeds([31, 32]))
    func markdownLateNotesAtEveryDepth(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var late = 0
        for round in 0..<12 {
            var text = Self.markdownDocument(&random)
            let ending = ["\n", "\r\n", "\r"][round % 3]
            if ending != "\n" { text = text.replacingOccurrences(of: "\n", with: ending) }
            let expected = try MarkdownOutline.read(text)
            var notes = 0
            var pending = expected
            while let node = pending.popLast() {
                if node.note?.contains("late") == true || node.note?.contains("Late heading") == true { notes += 1 }
                pending += node.children
            }
            late += notes
            try Self.importAgrees(Array(text.utf8), name: "late.md", expected: expected, "round \(round), \(TestSeed.note(seed))")
        }
        #expect(late > 20, "the texts hold late notes: \(late)")
    }

    /// One item with 50,000 descendants (over six of the import's batches) and a note after them all: the
    /// first item is handed on (and its batch written) long before its note is complete. The same under a
    /// heading.
    ///
    /// Why it takes over 10 s (both cases): the item must outgrow several of the import's batches for its
    /// batch to be written before its note is read, so 50,000 rows are read by the tree reader and imported by
    /// the stream, twice.
    @Test(arguments: ["- top\n", "# Top\n\n"])
    func hugeItemWithALateNoteAtTheEnd(head: String) throws {
        var text = head
        let inner = head.hasPrefix("-") ? "  " : ""
        for i in 0..<10_000 {
            text += inner + "- child \(i)\n"
            for k in 0..<4 { text += inner + "  - grandchild \(i).\(k)\n" }
        }
        text += "\n" + inner + "the late note\n\n" + inner + "```\n" + inner + "- and its code\n" + inner + "```\n"
        let expected = try MarkdownOutline.read(text)
        #expect(expected.count == 1 && expected[0].note == "the late note\n\n```\n- and its code\n```")
        try Self.importAgrees(Array(text.utf8), name: "huge.md", expected: expected, "huge \(head.debugDescription)")
    }

    /// A byte-order mark, NUL bytes, CR alone, CRLF, a final line without its ending: the same outline as the
    /// tree reader gives for the file's text.
    @Test(arguments: [
        "\u{FEFF}- a\n  - b\n\n  late\n",
        "- a\u{0}b\n  - c\u{0}\n\n  late \u{0} note\n",
        "- a\r  - b\r\r  late\r- c",
        "- a\r\n  - b\r\n\r\n  late\r\n- c",
        "# H\r\r- x\r\rafter\r## H2\r- y",
        "- \u{0}\n- \u{FEFF}x\n",
        "- é\r\n  - 漢字\r\r  mixed\n  endings\n"
    ])
    func oddBytesReadAsTheTreeReaderReadsThem(text: String) throws {
        let expected = try MarkdownOutline.read(text)
        try Self.importAgrees(Array(text.utf8), name: "odd.md", expected: expected, text.debugDescription)
    }

    /// Two byte-order marks: the import drops the file's one, and the second is text (U+FEFF, a zero-width
    /// no-break space), as it is to the tree reader of the file's text.
    @Test func aSecondByteOrderMarkIsText() throws {
        let text = "\u{FEFF}\u{FEFF}- a\n  - b\n"
        let expected = try MarkdownOutline.read(text)
        try Self.importAgrees(Array(text.utf8), name: "two-marks.md", expected: expected, "two marks")
    }

    /// Bytes that are not UTF-8 anywhere in the file (far past the first batch too): refused with the line and
    /// column of the first, the outline and its history unchanged.
    @Test func markdownThatIsNotUTF8IsRefusedWhereItIs() throws {
        let sh = Shell()
        sh.run("add", "Keep me")
        let before = Self.state(sh)
        var prefix = ""
        for i in 0..<9_000 { prefix += "- item \(i)\n  - sub\n\n  late\n" }
        let lines = prefix.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        for (bad, column) in [([UInt8]([0xFF]), 5), ([0xC0, 0xAF], 5), ([0xED, 0xA0, 0x80], 5), ([0xE2, 0x82], 5)] {
            let bytes = Array((prefix + "- é ").utf8) + bad + Array(" x\n".utf8)
            let file = try Self.write(sh, "bad.md", bytes)
            let r = sh.run("import", file)
            let byte = String(bad[0], radix: 16, uppercase: true)
            #expect(
                r == (1, "", "burrow: \(file) line \(lines + 1), column \(column): not UTF-8 (byte 0x\(byte)); convert the file to UTF-8\n"),
                "\(r)")
            #expect(Self.state(sh) == before)
        }
    }

    /// 1,001 levels, the last item far past the first batch: refused before anything is written (the first
    /// pass), with its line and column; 1,000 levels are imported.
    @Test func markdownTooDeepIsRefusedBeforeAnyWrite() throws {
        let sh = Shell()
        sh.run("add", "Keep me")
        var text = ""
        for i in 0..<9_000 { text += "- wide \(i)\n" }
        // Headings count as levels too: six of them, then lists.
        for h in 1...6 { text += String(repeating: "#", count: h) + " heading \(h)\n" }
        for d in 0..<994 { text += String(repeating: "  ", count: d) + "- level \(d + 7)\n" }
        let lines = 9_000 + 6 + 994
        let ok = try Self.write(sh, "deep.md", Array(text.utf8))
        let expected = try MarkdownOutline.read(text)
        var r = sh.run("import", ok)
        #expect(r.0 == 0 && r.1.hasPrefix("Imported 10000 items"), "\(r)")
        #expect(try Self.stored(sh) == [OutlineNode("Keep me")] + expected)
        #expect(sh.run("undo").0 == 0)
        #expect(try Self.stored(sh) == [OutlineNode("Keep me")])
        let deeper = text + String(repeating: "  ", count: 994) + "- level 1001\n"
        let state = Self.state(sh)
        let bad = try Self.write(sh, "deeper.md", Array(deeper.utf8))
        r = sh.run("import", bad)
        #expect(
            r == (
                1, "",
                "burrow: \(bad): Markdown line \(lines + 1), column \(994 * 2 + 1): item is at level 1001; Markdown holds at most 1000 levels (use OPML or JSON)\n"
            ),
            "\(r)")
        #expect(Self.state(sh) == state)
    }

    // MARK: JSON

    /// A random JSON item whose `title`, `note` and `done` may come after its `children` (which the writer
    /// never does), children to `depth`.
    static func jsonItem(_ random: inout SeededRandom, depth: Int) -> String {
        func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        var members = ["\"title\": \"t\(depth).\(pick(1000))\""]
        if pick(2) == 0 { members.append(pick(4) == 0 ? "\"note\": null" : "\"note\": \"n\\n\(pick(10))\"") }
        if pick(2) == 0 { members.append("\"done\": \(pick(2) == 0)") }
        if pick(5) == 0 { members.append("\"title\": \"second title \(pick(9))\"") }  // the last one counts
        if pick(5) == 0 { members.append("\"children\\u0000\": [{\"title\": 1}]") }  // not `children`: ignored
        if depth > 0 && pick(4) > 0 {
            let children = (0..<pick(4)).map { _ in jsonItem(&random, depth: depth - 1) }
            members.append("\"children\": [\(children.joined(separator: ", "))]")
        }
        members.shuffle(using: &random)
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test(arguments: TestSeed.seeds([41, 42]))
    func jsonMembersAfterChildrenAtEveryDepth(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for round in 0..<12 {
            let items = (0..<Int.random(in: 1..<4, using: &random)).map { _ in Self.jsonItem(&random, depth: 5) }
            let text = "{\"items\": [\(items.joined(separator: ",\n"))], \"format\": \"burrow-outline\", \"version\": 1}"
            let expected = try JSONOutline.read(text)
            try Self.importAgrees(Array(text.utf8), name: "late.json", expected: expected, "round \(round), \(TestSeed.note(seed))")
        }
    }

    /// A JSON document of `n` items under one top item, each with a note and every third done, its top
    /// item's members written `before` and `after` its children.
    static func bigJSON(_ n: Int, before: String = "\"title\": \"top\", ", after: String = "") -> String {
        var children: [String] = []
        children.reserveCapacity(n)
        for i in 0..<n { children.append("{\"title\": \"c\(i)\", \"note\": \"n\(i)\", \"done\": \(i % 3 == 0)}") }
        return
            "{\"format\": \"burrow-outline\", \"version\": 1, \"items\": [{\(before)\"children\": [\n\(children.joined(separator: ",\n"))\n]\(after)}]}\n"
    }

    /// The top item's title, note and done after 20,000 children: it was handed on (and written in the first
    /// batch) before them, so only the first pass knows them.
    @Test func jsonMembersAfterManyChildren() throws {
        let text = Self.bigJSON(
            20_000, before: "\"title\": \"early\", \"note\": \"early note\", ", after: ", \"title\": \"late\", \"done\": true, \"note\": null")
        let expected = try JSONOutline.read(text)
        #expect(expected.count == 1 && expected[0].title == "late" && expected[0].note == nil && expected[0].isDone)
        try Self.importAgrees(Array(text.utf8), name: "late.json", expected: expected, "20,000 children")
    }

    /// `children` (or `items`) given twice, the second far past the first batch: refused, nothing imported,
    /// the outline and its history as they were.
    @Test(arguments: [
        (", \"children\": []", "\"children\" is there twice"),
        (", \"children\": [{\"title\": \"x\"}]", "\"children\" is there twice"),
        (", \"title\": 5", "\"title\" has the wrong type"),
        (", \"note\": false", "\"note\" has the wrong type"),
        (", \"done\": \"yes\"", "\"done\" has the wrong type")
    ])
    func jsonFaultAfterManyChildrenImportsNothing(after: String, message: String) throws {
        let sh = Shell()
        sh.run("add", "Keep me")
        sh.run("add", "child", "--under", "Keep me")
        let before = Self.state(sh)
        let text = Self.bigJSON(20_000, after: after)
        let file = try Self.write(sh, "twice.json", Array(text.utf8))
        let column = text.utf8.count - text.drop { $0 != "[" }.utf8.count + 2  // the item's `{`, after `[`
        let r = sh.run("import", file)
        #expect(r == (1, "", "burrow: \(file): JSON line 1, column \(column): \(message)\n"), "\(r)")
        #expect(Self.state(sh) == before)
        #expect(sh.run("check").0 == 0)
        let items = Self.bigJSON(20_000).dropLast(2) + ", \"items\": []}\n"
        let twice = try Self.write(sh, "items-twice.json", Array(items.utf8))
        #expect(sh.run("import", twice) == (1, "", "burrow: \(twice): JSON line 1, column 1: \"items\" is there twice\n"))
        #expect(Self.state(sh) == before)
    }

    /// A JSON file cut short anywhere (inside a string, a number, a multi-byte character, between members,
    /// past the first batches): refused with the place, nothing imported.
    @Test func jsonCutShortAnywhereImportsNothing() throws {
        let seed = TestSeed.seed(43)
        var random = SeededRandom(seed: seed)
        let sh = Shell()
        sh.run("add", "Keep me")
        let before = Self.state(sh)
        var bytes = Array(Self.bigJSON(18_000, before: "\"title\": \"top é 漢字 😀\", ").utf8)
        while bytes.last == 0x0A { bytes.removeLast() }
        // The first bytes, the last ones, and random cuts between.
        var cuts = [0, 1, 2, bytes.count - 1, bytes.count - 2, bytes.count - 3]
        for _ in 0..<14 { cuts.append(Int.random(in: 0..<bytes.count, using: &random)) }
        // Inside the multi-byte characters of the title.
        let emoji = bytes.firstIndex(of: 0xF0)!
        cuts += [emoji + 1, emoji + 2, emoji + 3]
        for cut in cuts {
            let file = try Self.write(sh, "cut.json", bytes[..<cut])
            let r = sh.run("import", file, "--format", "json")
            #expect(r.0 == 1 && r.1 == "", "cut at \(cut): \(r); \(TestSeed.note(seed))")
            let named = r.2.hasPrefix("burrow: \(file): JSON line ") || r.2.hasPrefix("burrow: \(file) line ")
            #expect(named && r.2.hasSuffix("\n") && r.2.filter { $0 == "\n" }.count == 1, "cut at \(cut): \(r.2)")
            #expect(Self.state(sh) == before, "cut at \(cut); \(TestSeed.note(seed))")
        }
    }

    /// A JSON file with a byte-order mark reads as the text after it.
    @Test func jsonWithAByteOrderMark() throws {
        let text = Self.bigJSON(3, after: ", \"note\": \"after\"")
        try Self.importAgrees([0xEF, 0xBB, 0xBF] + Array(text.utf8), name: "bom.json", expected: try JSONOutline.read(text), "mark")
    }
}
