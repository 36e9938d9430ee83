import Foundation
import TestSupport
import Testing

@testable import Outline

/// Random byte mutations of valid Markdown and JSON documents (issue 17) through both public ways of reading
/// them: the tree (`OutlineFormat.read(_:)`) and the items handed on one by one (`read(_:each:)`, what an
/// import takes, after its first pass). Never a crash; the same items in the same order, or the same error,
/// and nothing handed on before an error; the reader as it was (read whole) agrees too.
@Suite struct StreamingFuzzTests {
    private static func describe(_ node: OutlineNode, _ depth: Int) -> String {
        "\(depth) \(node.isDone) \(node.title.debugDescription) \(String(describing: node.note?.debugDescription))"
    }

    private static func flat(_ nodes: [OutlineNode]) -> [String] {
        var out: [String] = []
        forEachInOrder(nodes) { node, depth in out.append(describe(node, depth)) }
        return out
    }

    /// A random outline whose titles and notes hold what Markdown and JSON must escape or may misread.
    static func outline(_ random: inout SeededRandom, depth: Int) -> [OutlineNode] {
        func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        let pieces = [
            "a", "b c", "- x", "1. y", "# h", "> q", "```", "~~~", "    code", "[ ]", "[x] ", "\\", "\"", "<div>", "---", "*", "é",
            "漢字", "😀", "\t", " ", "\n", "\r\n", "[r]: /u", "\\- e", "{", "}", "[", "]", ",", ":", "\u{7F}", "\u{85}", "\u{FEFF}"
        ]
        func text(_ n: Int) -> String { (0..<n).map { _ in pieces[pick(pieces.count)] }.joined() }
        return (0..<pick(4)).map { _ in
            var node = OutlineNode(text(pick(4)).replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " "))
            if pick(2) == 0 { node.note = text(pick(8) + 1) }
            node.isDone = pick(3) == 0
            if depth > 0 { node.children = outline(&random, depth: depth - 1) }
            return node
        }
    }

    /// Changes a few bytes: replaced by one that means something to the format, inserted, removed, a run
    /// repeated or cut out, the end cut off.
    static func mutate(_ bytes: [UInt8], _ random: inout SeededRandom, json: Bool) -> [UInt8] {
        func pick(_ n: Int) -> Int { Int.random(in: 0..<max(1, n), using: &random) }
        let meaningful = Array((json ? "{}[],:\"\\ntu0-1e.\n \t" : "-*+1.)#>`~[]x \n\r\t\\<!").utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xE2, 0x80]
        var out = bytes
        for _ in 0...pick(4) {
            let at = pick(out.count + 1)
            switch pick(6) {
            case 0 where at < out.count: out[at] = meaningful[pick(meaningful.count)]
            case 1: out.insert(meaningful[pick(meaningful.count)], at: at)
            case 2 where at < out.count: out.remove(at: at)
            case 3 where at < out.count:
                let end = min(out.count, at + pick(40) + 1)
                out.insert(contentsOf: out[at..<end], at: pick(out.count + 1))
            case 4 where at < out.count: out.removeSubrange(at..<min(out.count, at + pick(40) + 1))
            case 5: out.removeLast(out.count - at)
            default: break
            }
        }
        return out
    }

    /// Reads `text` both ways (and, for Markdown, in small pieces) and holds them against each other and the
    /// reader as it was.
    static func agree(_ text: String, _ format: OutlineFormat, _ context: @autoclosure () -> String) {
        let tree = Result { () throws(InterchangeError) in try format.read(text) }
        let judged = Result { () throws(InterchangeError) in
            try format == .markdown ? WholeMarkdownReader.read(text) : WholeJSON.read(text)
        }
        #expect(tree == judged, "tree against the whole reader: \(context())\n\(text.debugDescription)")
        var handed: [String] = []
        let each = Result { () throws(any Error) in try format.read(text) { node, depth in handed.append(describe(node, depth)) } }
        switch (each, tree) {
        case (.success, .success(let nodes)):
            #expect(handed == flat(nodes), "one by one: \(context())\n\(text.debugDescription)")
        case (.failure(let error), .failure(let expected)):
            #expect(error as? InterchangeError == expected, "\(context())\n\(text.debugDescription)")
            #expect(handed.isEmpty, "handed on \(handed.count) items before refusing: \(context())\n\(text.debugDescription)")
        default:
            Issue.record("one by one \(each), tree \(tree): \(context())\n\(text.debugDescription)")
        }
        if format == .markdown, case .success(let nodes) = tree {
            for size in [1, 5, 13] {
                var pieces: [String] = []
                var builder = OutlineBuilder { node, depth in pieces.append(describe(node, depth)) }
                var failure: InterchangeError?
                do throws(InterchangeError) { try MarkdownOutline.read(text, into: &builder, feedSize: size) } catch { failure = error }
                #expect(failure == nil && pieces == flat(nodes), "pieces of \(size): \(context())\n\(text.debugDescription)")
            }
        }
    }

    @Test(arguments: TestSeed.seeds([51, 52, 53]))
    func mutatedMarkdown(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for round in 0..<120 {
            let nodes = Self.outline(&random, depth: 3)
            let written = Array(MarkdownOutline.write(nodes).utf8)
            // The writer's file reads back whole both ways, then mutated.
            Self.agree(String(decoding: written, as: UTF8.self), .markdown, "written, round \(round), \(TestSeed.note(seed))")
            for k in 0..<4 {
                let bytes = Self.mutate(written, &random, json: false)
                Self.agree(String(decoding: bytes, as: UTF8.self), .markdown, "round \(round).\(k), \(TestSeed.note(seed))")
            }
        }
    }

    @Test(arguments: TestSeed.seeds([54, 55, 56]))
    func mutatedJSON(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var refused = 0
        for round in 0..<120 {
            let nodes = Self.outline(&random, depth: 3)
            var written = Array(JSONOutline.write(nodes).utf8)
            if round % 2 == 1 {
                // Members after children: the writer's order turned around in every item.
                written = Array(
                    String(decoding: written, as: UTF8.self).replacingOccurrences(of: "\"title\"", with: "\"x-title\"").utf8)
                let late = String(decoding: written, as: UTF8.self).replacingOccurrences(of: "}", with: ", \"title\": \"late\"}")
                written = Array(late.utf8)
            }
            Self.agree(String(decoding: written, as: UTF8.self), .json, "written, round \(round), \(TestSeed.note(seed))")
            for k in 0..<6 {
                let bytes = Self.mutate(written, &random, json: true)
                let text = String(decoding: bytes, as: UTF8.self)
                if (try? JSONOutline.read(text)) == nil { refused += 1 }
                Self.agree(text, .json, "round \(round).\(k), \(TestSeed.note(seed))")
            }
        }
        #expect(refused > 100, "mutations that break the file: \(refused)")
    }

    /// An `each` that throws part way: its error comes out, and nothing more is handed to it.
    @Test(arguments: [OutlineFormat.markdown, .json])
    func eachThatThrowsStopsTheItems(format: OutlineFormat) throws {
        struct Stop: Error, Equatable {}
        var random = SeededRandom(seed: TestSeed.seed(57))
        var nodes = Self.outline(&random, depth: 3)
        nodes.append(OutlineNode("last", children: [OutlineNode("child")]))
        let text = format.write(nodes)
        let total = Self.flat(try format.read(text)).count
        for stop in [0, 1, total / 2, total - 1] {
            var given = 0
            #expect(throws: Stop()) {
                try format.read(text) { _, _ in
                    given += 1
                    if given == stop + 1 { throw Stop() }
                }
            }
            #expect(given == stop + 1, "handed on after \(format)'s each threw at item \(stop + 1)")
        }
    }
}
