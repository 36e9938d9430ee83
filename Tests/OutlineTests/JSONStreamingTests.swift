import Foundation
import TestSupport
import Testing

@testable import Outline

/// Burrow's JSON read in one walk, handing items on as it goes (issue 17): held against the reader that read
/// the whole document first (`WholeJSON`), on random documents with members in any order, unknown members,
/// wrong types and broken bytes: the same outline, or the same error at the same line and column; an import
/// gets the same items in document order, and none when the file is refused.
@Suite struct JSONStreamingTests {
    private static func flat(_ nodes: [OutlineNode]) -> [String] {
        var out: [String] = []
        forEachInOrder(nodes) { node, depth in out.append(describe(node, depth)) }
        return out
    }

    private static func describe(_ node: OutlineNode, _ depth: Int) -> String {
        "\(depth) \(node.isDone) \(node.title.debugDescription) \(String(describing: node.note?.debugDescription))"
    }

    private static func agree(_ text: String, _ context: @autoclosure () -> String) {
        let judged = Result { () throws(InterchangeError) in try WholeJSON.read(text) }
        let built = Result { () throws(InterchangeError) in try JSONOutline.read(text) }
        #expect(built == judged, "tree: \(context())\n\(text)")
        var taken: [String] = []
        let handed = Result { () throws(InterchangeError) -> [String] in
            var builder = OutlineBuilder { node, depth in taken.append(describe(node, depth)) }
            try JSONOutline.read(text, into: &builder)
            return taken
        }
        switch (handed, judged) {
        case (.success(let items), .success(let nodes)):
            #expect(items == flat(nodes), "one by one: \(context())\n\(text)")
        case (.failure(let error), .failure(let expected)):
            #expect(error == expected, "\(context())\n\(text)")
            #expect(taken.isEmpty, "items handed on before the fault: \(context())")
        default:
            Issue.record("one by one: \(handed) but \(judged): \(context())\n\(text)")
        }
    }

    /// A random item: its members in a random order, sometimes a wrong type, an unknown member or none of
    /// its title; children to `depth`.
    private static func item(_ random: inout SeededRandom, depth: Int, faults: Bool) -> String {
        func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        let words = ["a", "b c", "é", "\\n", "\\u00e9", "\\\"q\\\"", "", "\\ud83d\\ude00", "tab\\t", "漢字"]
        var members: [String] = []
        if !faults || pick(12) > 0 { members.append("\"title\": \"\(words[pick(words.count)])\"") }
        if pick(2) == 0 { members.append(pick(4) == 0 ? "\"note\": null" : "\"note\": \"\(words[pick(words.count)])\"") }
        if pick(2) == 0 { members.append("\"done\": \(pick(2) == 0 ? "true" : "false")") }
        if pick(3) == 0 { members.append(pick(4) == 0 ? "\"state\": null" : "\"state\": \"\(["TODO", "NEXT", "DONE"][pick(3)])\"") }
        if pick(4) == 0 { members.append("\"scheduled\": \"2026-05-0\(1 + pick(9))\"") }
        if pick(3) == 0 { members.append("\"id\": \(pick(100)), \"extra\": {\"children\": [1, {\"title\": 2}]}") }
        if pick(4) == 0 { members.append("\"title\": \"again \(pick(9))\"") }  // a second title: the last counts
        if faults && pick(15) == 0 { members.append(["\"title\": 5", "\"note\": true", "\"done\": \"yes\"", "\"children\": {}"][pick(4)]) }
        if depth > 0 && pick(3) > 0 {
            let children = (0..<pick(4)).map { _ in faults && pick(25) == 0 ? "7" : item(&random, depth: depth - 1, faults: faults) }
            members.append("\"children\": [\(children.joined(separator: ",\n"))]")
        }
        members.shuffle(using: &random)
        return "{" + members.joined(separator: pick(2) == 0 ? ", " : ",\n  ") + "}"
    }

    @Test(arguments: TestSeed.seeds([21, 22, 23]))
    func randomDocuments(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        func pick(_ n: Int) -> Int { Int.random(in: 0..<n, using: &random) }
        for round in 0..<300 {
            let faults = pick(3) == 0
            let items = "[" + (0..<pick(4)).map { _ in Self.item(&random, depth: 3, faults: faults) }.joined(separator: ",\n") + "]"
            var members = ["\"items\": \(items)"]
            if pick(2) == 0 { members.append(faults && pick(4) == 0 ? "\"format\": \"other\"" : "\"format\": \"burrow-outline\"") }
            if pick(2) == 0 { members.append(faults && pick(4) == 0 ? "\"version\": 3" : "\"version\": \(1 + pick(2))") }
            if pick(4) == 0 { members.append("\"generator\": [1, 2, {\"items\": 3}]") }
            if faults && pick(6) == 0 { members.removeFirst() }  // no items
            members.shuffle(using: &random)
            var text = pick(5) == 0 ? items : "{" + members.joined(separator: ", ") + "}"
            if faults && pick(3) == 0 {
                // Broken bytes: cut short, or one byte changed.
                var bytes = Array(text.utf8)
                if pick(2) == 0 {
                    bytes.removeLast(pick(bytes.count))
                } else if !bytes.isEmpty {
                    let replacements = Array("{}[],:\"\\ x1\n".utf8)
                    bytes[pick(bytes.count)] = replacements[pick(replacements.count)]
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            if pick(6) == 0 { text += pick(2) == 0 ? "\n" : " x" }
            Self.agree(text, "round \(round), \(TestSeed.note(seed))")
        }
    }

    /// Members after `children` change an item already handed on: the title, note and done it ends with.
    @Test func membersAfterChildren() throws {
        let text = """
            {"items": [{"children": [{"title": "child", "children": [{"title": "grandchild"}], "done": true}], "title": "late",
            "note": "late note", "done": true}, {"title": "second", "children": [], "note": "n"}]}
            """
        let expected = [
            OutlineNode(
                "late", note: "late note", isDone: true,
                children: [OutlineNode("child", isDone: true, children: [OutlineNode("grandchild")])]),
            OutlineNode("second", note: "n")
        ]
        #expect(try JSONOutline.read(text) == expected)
        Self.agree(text, "late members")
    }

    /// What the whole reader took the last of is refused when it is an outline's structure: two `children`
    /// of one item, two `items` of the document (their items would already be loaded).
    @Test func twiceIsRefused() {
        #expect(throws: InterchangeError(format: "JSON", line: 1, column: 12, message: "\"children\" is there twice")) {
            try JSONOutline.read("{\"items\": [{\"title\": \"a\", \"children\": [], \"children\": []}]}")
        }
        #expect(throws: InterchangeError(format: "JSON", line: 1, column: 1, message: "\"items\" is there twice")) {
            try JSONOutline.read("{\"items\": [], \"items\": []}")
        }
    }

    /// 100,000 levels, one item in each, read without recursion either way.
    @Test func deepDocument() throws {
        let depth = 100_000
        let text =
            "[" + String(repeating: "{\"title\": \"x\", \"children\": [", count: depth - 1) + "{\"title\": \"x\"}"
            + String(repeating: "]}", count: depth - 1) + "]"
        var count = 0
        var deepest = 0
        var builder = OutlineBuilder { _, depth in
            count += 1
            deepest = max(deepest, depth)
        }
        try JSONOutline.read(text, into: &builder)
        #expect(count == depth && deepest == depth - 1)
    }
}
