import TestSupport
import Testing

@testable import Outline

/// Code, quotes and HTML outside any item are no item of their own (an empty title no Markdown reader
/// shows): right after a list they are more of its last item's note, as blocks after any item are; at the top
/// of the file they are the outline's own text (an Obsidian note's callout, a README's badges), which an
/// import keeps as the note of the item it goes under and an export of the whole outline writes back there.
@Suite struct MarkdownPreambleTests {
    @Test func blocksAfterAListAreItsLastItemsNote() throws {
        let text = """
            - a
            - b

              Its note.

            > a quote after the list
            <br/>

            ---

            ```
            code
            ```
            - c

            """
        let nodes = try MarkdownOutline.read(text)
        #expect(nodes.map(\.title) == ["a", "b", "c"])
        #expect(nodes[1].note == "Its note.\n\n> a quote after the list\n<br/>\n\n---\n\n```\ncode\n```")
        // Taken one by one (an import, after a first pass), the note is the same, in pieces of any size.
        for size in [1, 5, 1 << 16] {
            var taken: [OutlineNode] = []
            var builder = OutlineBuilder { node, _ in taken.append(node) }
            try MarkdownOutline.read(text, into: &builder, feedSize: size)
            #expect(taken.map(\.note) == nodes.map(\.note), "pieces of \(size)")
        }
        // A paragraph ends that: the blocks after it are its own item's note.
        let after = try MarkdownOutline.read("- a\n\nText.\n\n> quote\n")
        #expect(after.map(\.title) == ["a", "Text."] && after[0].note == nil && after[1].note == "> quote")
    }

    @Test func blocksAtTheTopAreThePreamble() throws {
        let text = """
            > [!summary]
            > What the page is about.

            <img src="badge.svg">

            - a

            """
        var preamble: [String] = []
        var titles: [String] = []
        try OutlineFormat.markdown.read(text, preamble: { preamble.append($0) }, each: { node, _ in titles.append(node.title) })
        #expect(preamble == ["> [!summary]\n> What the page is about.\n\n<img src=\"badge.svg\">"])
        #expect(titles == ["a"])
        // Without a place for it, as before: an item with an empty title holds it.
        let nodes = try MarkdownOutline.read(text)
        #expect(nodes.map(\.title) == ["", "a"] && nodes[0].note == preamble.first)
    }

    /// A Logseq page's own properties (`key:: value` lines above its first block) are its preamble too, and
    /// are written back there; such a paragraph after an item is an item, as any paragraph there.
    @Test func aLogseqPagesPropertiesAreThePreamble() throws {
        let text = "title:: Reading list\ntags:: books, later\n\n- first block\n\nkey:: after\n"
        var preamble: [String] = []
        var titles: [String] = []
        try OutlineFormat.markdown.read(text, preamble: { preamble.append($0) }, each: { node, _ in titles.append(node.title) })
        #expect(preamble == ["title:: Reading list\ntags:: books, later"])
        #expect(titles == ["first block", "key:: after"])

        let dir = TemporaryDirectory("burrow-md-page")
        let o = try Outline(path: dir.path())
        try o.perform {
            _ = try o.append(titles: ["first block"], to: try o.root().objectID)
            try o.root().note = "title:: Reading list\ntags:: books, later"
        }
        var bytes: [UInt8] = []
        try o.export(try o.root(), as: .markdown, title: "t", write: { bytes += $0 })
        #expect(String(decoding: bytes, as: UTF8.self) == "title:: Reading list\ntags:: books, later\n\n- first block\n")
    }

    /// The top item's note is written above the first item; text that would read back as items goes as an
    /// untitled first item's note, so nothing of it is lost.
    @Test func anExportOfTheWholeOutlineWritesThePreamble() throws {
        let dir = TemporaryDirectory("burrow-md-preamble")
        let o = try Outline(path: dir.path())
        try o.perform {
            _ = try o.append(titles: ["a"], to: try o.root().objectID)
            try o.root().note = "> [!summary]\n> About."
        }
        func markdown() throws -> String {
            var bytes: [UInt8] = []
            try o.export(try o.root(), as: .markdown, title: "t", write: { bytes += $0 })
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(try markdown() == "> [!summary]\n> About.\n\n- a\n")
        var preamble: String?
        var titles: [String] = []
        try OutlineFormat.markdown.read(try markdown(), preamble: { preamble = $0 }, each: { node, _ in titles.append(node.title) })
        #expect(preamble == "> [!summary]\n> About." && titles == ["a"])

        // A break first or last: kept too (as a first item's note; a preamble would lose it).
        for note in ["> quote\n\n---", "---\n\n> quote", "---"] {
            try o.perform { try o.root().note = note }
            let nodes = try MarkdownOutline.read(try markdown())
            #expect(nodes.first?.note == note && nodes.first?.title == "", "\(note)")
        }
        try o.perform { try o.root().note = "An introduction.\n\n```\nnot closed" }
        let written = try markdown()
        let nodes = try MarkdownOutline.read(written)
        #expect(nodes.map(\.title) == ["", "a"], "\(written)")
        #expect(nodes[0].note == "An introduction.\n\n```\nnot closed")
    }
}
