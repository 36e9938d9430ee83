import Foundation
import TestSupport
import Testing

@testable import Outline

/// An item's task box is not always known when it is handed on: cmark-gfm's task list extension sets the
/// box of the item a line is in whenever that line looks like a task item, and a lazy line of a quote in the
/// item (indented too far to be a list item of its own) still does, after the item's sub-list. The streaming
/// reader hands an item on at its first sub-list with the box as it is then, so it must learn the box the
/// whole document ends with as it learns a late note (the first pass, or the built tree).
@Suite struct MarkdownLateTaskBoxTests {
    private static func describe(_ node: OutlineNode, _ depth: Int) -> String {
        "\(depth) \(node.isDone) \(node.title.debugDescription) \(String(describing: node.note?.debugDescription))"
    }

    /// Every way of reading `text` against the whole-document reader: the tree and the items one by one, in
    /// the import's pieces and in pieces of one byte.
    private static func agree(_ text: String, _ context: String) throws {
        let whole = try WholeMarkdownReader.read(text)
        var expected: [String] = []
        forEachInOrder(whole) { node, depth in expected.append(describe(node, depth)) }
        for size in [1, 1 << 16] {
            var tree = OutlineBuilder()
            try MarkdownOutline.read(text, into: &tree, feedSize: size)
            #expect(tree.finish() == whole, "tree, pieces of \(size): \(context)")
            var handed: [String] = []
            var each = OutlineBuilder { node, depth in handed.append(describe(node, depth)) }
            try MarkdownOutline.read(text, into: &each, feedSize: size)
            #expect(handed == expected, "one by one, pieces of \(size): \(context)")
        }
    }

    @Test(arguments: [
        // Ticked by the quote's lazy line: done, as the whole document says.
        "- a\n  - b\n\n  > q\n      - [x] c\n",
        "- a\n  - b\n  > q\n      * [X] c\n",
        "- a\n  - b\n\n  > q\n      1. [X] c\n",
        // Unticked by it: not done.
        "- [x] a\n  - b\n\n  > q\n      - [ ] c\n",
        // Deeper: the sub-item's own box changed after its sub-list.
        "- top\n  - a\n    - b\n\n    > q\n        - [x] c\n"
    ])
    func aBoxSetAfterTheSubListCounts(text: String) throws {
        try Self.agree(text, text.debugDescription)
    }

    /// In a file bigger than one piece (the import's 64 KiB), the item goes on in the first piece and the
    /// line that ticks it comes in the second: `burrow import` stored it not done.
    @Test func aBoxSetInALaterPieceCounts() throws {
        var text = "- a\n"
        for i in 0..<8_000 { text += "  - sub \(i)\n" }
        text += "\n  > q\n      - [x] c\n"
        #expect(text.utf8.count > 1 << 16)
        try Self.agree(text, "8,000 sub-items, then the box")
        let whole = try WholeMarkdownReader.read(text)
        #expect(whole.first?.isDone == true)
        var first: OutlineNode?
        try OutlineFormat.markdown.read(text) { node, _ in first = first ?? node }
        #expect(first?.isDone == whole.first?.isDone, "the item as an import takes it")
    }
}
