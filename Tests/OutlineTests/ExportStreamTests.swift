import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// `Outline.export` streams the store's outline through the writers: the bytes are those `OutlineFormat.write`
/// gives for the same outline read whole, whatever the shape (levels longer than a batch, order keys that
/// tie, stored counts that lie, depth past a format's limit).
@Suite struct ExportStreamTests {
    static let pieces = [
        "a", "Z", " ", "  ", "\t", "\n", "\r", "\r\n", "*", "** ", ",* ", "DONE ", "#+TODO: A | B", "#+TODO: FIN", "#+BEGIN_SRC",
        "&", "<", ">", "\"", "\\", "- ", "1. ", "[x] ", "```", "<!--", "é", "漢字", "👩‍👩‍👧", "e\u{301}", "\u{1B}[31m", "\u{0}", "\u{7}",
        "\u{7F}", "\u{85}", "\u{9B}", "\u{FEFF}", "\u{FFFE}", "\u{202E}"
    ]

    static func text(_ rng: inout SeededRandom, pieces n: Int) -> String {
        (0..<rng.below(n + 1)).map { _ in rng.pick(pieces)! }.joined()
    }

    static func tree(_ rng: inout SeededRandom, depth: Int) -> [OutlineNode] {
        (0..<rng.below(depth == 0 ? 8 : 5)).map { _ in
            OutlineNode(
                text(&rng, pieces: 5), note: rng.below(3) == 0 ? nil : text(&rng, pieces: 10), isDone: rng.below(3) == 0,
                children: depth < 5 && rng.below(2) == 0 ? tree(&rng, depth: depth + 1) : [])
        }
    }

    static func outline(_ nodes: [OutlineNode]) throws -> Outline {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.add(nodes, under: try o.root())
        try o.save()
        return Outline(context: Context(store: o.context.store))
    }

    /// The export's bytes, and the size of each chunk handed on.
    static func export(_ o: Outline, _ item: Item, _ format: OutlineFormat, title: String = "Burrow") throws -> (text: String, chunks: [Int]) {
        var bytes: [UInt8] = []
        var chunks: [Int] = []
        try o.export(
            item, as: format, title: title,
            write: {
                bytes += $0
                chunks.append($0.count)
            })
        return (String(decoding: bytes, as: UTF8.self), chunks)
    }

    /// Random outlines of hostile text, streamed from the store in every format: the same bytes as the
    /// outline written whole, for the whole outline and for one item with its sub-items.
    @Test(arguments: TestSeed.seeds([1, 2, 3, 4, 5, 6]))
    func streamingWritesWhatTheWholeOutlineWrites(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for round in 0..<30 {
            var x = Self.tree(&rng, depth: 0)
            if rng.below(3) == 0 { x.insert(OutlineNode("", note: Self.text(&rng, pieces: 10)), at: 0) }
            let o = try Self.outline(x)
            let root = try o.root()
            let stored = try o.nodes(under: root)
            #expect(stored == x, "\(rng.note) round \(round)")
            for format in OutlineFormat.allCases {
                let streamed = try Self.export(o, root, format)
                #expect(streamed.text == format.write(stored, title: "Burrow"), "\(format) \(rng.note) round \(round)")
                if let (k, node) = stored.enumerated().first(where: { !$0.element.children.isEmpty }) {
                    let item = try o.children(of: root)[k]
                    let one = try Self.export(o, item, format, title: item.title)
                    #expect(one.text == format.write([node], title: node.title), "\(format) \(rng.note) round \(round)")
                }
            }
        }
    }

    /// Levels far longer than a batch, in many chunks: each chunk about 64 KiB, together the whole file.
    @Test(arguments: [OutlineFormat.opml, .json, .markdown])
    func longLevelsInManyChunks(format: OutlineFormat) throws {
        let wide = (0..<3).map { g in
            OutlineNode("group \(g)", children: (0..<(7_000 + g)).map { OutlineNode("item \(g).\($0)", note: $0 % 7 == 0 ? "note \($0)" : nil) })
        }
        let o = try Self.outline(wide + [OutlineNode("last")])
        let streamed = try Self.export(o, try o.root(), format)
        #expect(streamed.text == format.write(try o.nodes(under: try o.root()), title: "Burrow"))
        #expect(streamed.chunks.count > 3)
        #expect(streamed.chunks.dropLast().allSatisfy { $0 >= Outline.exportChunkSize && $0 < Outline.exportChunkSize + 1024 })
    }

    /// Siblings whose order keys tie (a store written by something else), more of them than a batch: each
    /// is written once, ties in the order of their IDs, as the whole read orders them.
    @Test func tiedOrderKeysAcrossBatches() throws {
        let o = try Self.outline([OutlineNode("P", children: (0..<700).map { OutlineNode("c\($0)") }), OutlineNode("Q")])
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE Item SET \"order\" = 'm' WHERE title LIKE 'c%' AND CAST(substr(title, 2) AS INTEGER) % 3 = 0")
            try db.execute(sql: "UPDATE Item SET \"order\" = 'm' WHERE title = 'c1'")
            try db.execute(sql: "UPDATE Item SET \"order\" = 'a' WHERE title = 'c699'")
        }
        let fresh = Outline(context: Context(store: o.context.store))
        let whole = try fresh.nodes(under: try fresh.root())
        let streamed = try Self.export(fresh, try fresh.root(), .text).text
        #expect(streamed == OutlineFormat.text.write(whole))
        let lines = streamed.split(separator: "\n")
        #expect(lines.count == 702)
        #expect(Set(lines).count == 702)
        #expect(lines[1] == "\tc699")
    }

    /// Stored counts never decide what is written: a count of 0 on an item with sub-items, and one of 3 on
    /// an item without, in a batch of many.
    @Test func damagedCountsDoNotDecideWhatIsWritten() throws {
        let o = try Self.outline(
            (0..<300).map { OutlineNode("item \($0)", children: $0 == 7 || $0 == 290 ? [OutlineNode("below \($0)")] : []) })
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE Item SET childCount = 0 WHERE title IN ('item 7', 'item 290')")
            try db.execute(sql: "UPDATE Item SET childCount = 3 WHERE title = 'item 8'")
        }
        let fresh = Outline(context: Context(store: o.context.store))
        let streamed = try Self.export(fresh, try fresh.root(), .opml).text
        #expect(streamed == OPML.write(try fresh.nodes(under: try fresh.root()), title: "Burrow"))
        #expect(streamed.contains("<outline text=\"below 290\"/>"))
        #expect(streamed.contains("<outline text=\"item 8\"/>"))
    }

    /// An outline deeper than a line format holds: with the depth checked first nothing is handed on; the
    /// limit itself is fine.
    @Test(arguments: [OutlineFormat.markdown, .org, .text])
    func tooDeepIsRefusedBeforeAnythingIsWritten(format: OutlineFormat) throws {
        let limit = format.maximumLevels!
        func chain(_ levels: Int) -> [OutlineNode] {
            var node = OutlineNode("level \(levels)")
            for d in stride(from: levels - 1, through: 1, by: -1) { node = OutlineNode("level \(d)", children: [node]) }
            return [OutlineNode("first"), node]
        }
        let o = try Self.outline(chain(limit + 1))
        var written = 0
        #expect(throws: ExportTooDeep(format: format, limit: limit)) {
            try o.export(try o.root(), as: format, title: "Burrow", checkingDepthFirst: true, write: { written += $0.count })
        }
        #expect(written == 0)
        #expect(throws: ExportTooDeep(format: format, limit: limit)) {
            try o.export(try o.root(), as: format, title: "Burrow", write: { _ in })
        }
        // One level less from the item below the top: its own level and 1,000 below it is one too many still.
        let top = try o.children(of: try o.root())[1]
        #expect(throws: ExportTooDeep(format: format, limit: limit)) {
            try o.export(top, as: format, title: top.title, checkingDepthFirst: true, write: { written += $0.count })
        }
        #expect(written == 0)
        let fine = try Self.outline(chain(limit))
        let text = try Self.export(fine, try fine.root(), format).text
        #expect(try format.read(text) == chain(limit))
    }

    /// An item in a cycle of a damaged store (its sub-item made its parent): exported once, with what is
    /// below it, and the walk ends.
    @Test func anItemInACycleIsWrittenOnce() throws {
        let o = try Self.outline([OutlineNode("X", children: [OutlineNode("Y", children: [OutlineNode("Z")])])])
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE Item SET parent = (SELECT id FROM Item WHERE title = 'Y') WHERE title = 'X'")
        }
        let fresh = Outline(context: Context(store: o.context.store))
        let x = try #require(
            try fresh.context.fetch(FetchRequest("Item", where: Property("title") == "X")).first as? Item)
        #expect(try Self.export(fresh, x, .text, title: "X").text == "X\n\tY\n\t\tZ\n")
    }
}
