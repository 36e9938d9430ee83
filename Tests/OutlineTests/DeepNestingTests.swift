import ObjectGraph
import Testing

@testable import Outline

/// Outlines 100,000 levels deep, one item a level: read, added to a store, exported and written back whole, or
/// refused whole where a format says it holds fewer levels. Results are compared outside `#expect`, which
/// would print both trees on a failure.
@Suite struct DeepNestingTests {
    static let depth = 100_000

    /// One item a level: "level 1" holds "level 2", and so on down to `depth`.
    static func chain(depth: Int) -> [OutlineNode] {
        var node = OutlineNode("level \(depth)")
        for d in stride(from: depth - 1, through: 1, by: -1) { node = OutlineNode("level \(d)", children: [node]) }
        return [node]
    }

    /// Whether `nodes` is `chain(depth:)`, walked without recursion.
    static func isChain(_ nodes: [OutlineNode], depth: Int) -> Bool {
        var level = nodes
        for d in 1...depth {
            guard level.count == 1, level[0].title == "level \(d)", level[0].note == nil, !level[0].isDone else { return false }
            level = level[0].children
        }
        return level.isEmpty
    }

    /// The first `lines` lines of `chain(depth:)` as `format` writes it, made here rather than by the writer
    /// under test; for OPML and JSON the whole file.
    static func file(_ format: OutlineFormat, depth: Int, lines: Int? = nil) -> String {
        var out = ""
        switch format {
        case .opml:
            out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>deep</title></head><body>\n"
            for d in 1...depth { out += "<outline text=\"level \(d)\">\n" }
            for _ in 1...depth { out += "</outline>\n" }
            out += "</body></opml>\n"
        case .json:
            out += "{\"format\": \"burrow-outline\", \"version\": 1, \"items\": [\n"
            for d in 1..<depth { out += "{\"title\": \"level \(d)\", \"children\": [\n" }
            out += "{\"title\": \"level \(depth)\"}"
            out += String(repeating: "]}", count: depth - 1) + "]}\n"
        case .markdown:
            for d in 1...(lines ?? depth) { out += String(repeating: "  ", count: d - 1) + "- [ ] level \(d)\n" }
        case .text:
            for d in 1...(lines ?? depth) { out += String(repeating: "\t", count: d - 1) + "level \(d)\n" }
        case .org:
            for d in 1...(lines ?? depth) { out += String(repeating: "*", count: d) + " level \(d)\n" }
        }
        return out
    }

    /// Copies share their subtrees; comparing, counting and freeing them takes no stack per level.
    @Test func nodesOfAnyDepth() {
        let a = Self.chain(depth: Self.depth)
        var b = a
        #expect(a[0].count == Self.depth)
        #expect(a[0].levels == Self.depth)
        let equal = a == b
        #expect(equal)
        // Changing the bottom of a copy copies the path to it, and leaves `a` as it was.
        var path: [OutlineNode] = [b[0]]
        while let below = path.last?.children.first { path.append(below) }
        path[path.count - 1].title = "changed"
        while path.count > 1 {
            let child = path.removeLast()
            path[path.count - 1].children = [child]
        }
        b = path
        let differ = a != b
        #expect(differ)
        #expect(Self.isChain(a, depth: Self.depth))
    }

    /// Boxes are shared across threads (`OutlineNode` is Sendable): copies changed on many threads at once
    /// each get their own box, and the tree they were copied from stays as it was.
    @Test func copiesChangedOnManyThreadsLeaveTheOriginal() async {
        let original = OutlineNode("top", children: (0..<64).map { OutlineNode("child \($0)", children: [OutlineNode("leaf")]) })
        let changed = await withTaskGroup(of: (Int, OutlineNode).self) { group in
            for k in 0..<16 {
                group.addTask {
                    var copy = original
                    for _ in 0..<200 {
                        copy.children[k].children.append(OutlineNode("added by \(k)"))
                        copy.children[k].children.removeLast()
                    }
                    copy.children[k].children.append(OutlineNode("added by \(k)"))
                    copy.children.append(OutlineNode("last of \(k)"))
                    return (k, copy)
                }
            }
            var out: [(Int, OutlineNode)] = []
            for await result in group { out.append(result) }
            return out
        }
        #expect(original.count == 1 + 64 * 2)
        #expect(original.children.allSatisfy { $0.children.map(\.title) == ["leaf"] })
        for (k, copy) in changed {
            #expect(copy.count == 1 + 64 * 2 + 2)
            #expect(copy.children[k].children.map(\.title) == ["leaf", "added by \(k)"])
            #expect(copy.children.last?.title == "last of \(k)")
            #expect(copy.children.enumerated().allSatisfy { $0.offset == k || $0.offset == 64 || $0.element.children.count == 1 })
        }
    }

    @Test(arguments: OutlineFormat.allCases)
    func hundredThousandLevels(format: OutlineFormat) throws {
        let depth = Self.depth
        if let limit = format.maximumLevels {
            // A 100,000-level file passes the limit on line limit + 1 and is refused there, so the test
            // holds the file up to that line: the whole of it would be gigabytes of indentation.
            #expect(limit < depth)
            do {
                _ = try format.read(Self.file(format, depth: depth, lines: limit + 1))
                Issue.record("\(format) read more than \(limit) levels")
            } catch {
                #expect(error.line == limit + 1)
                #expect(error.message.contains("at most \(limit) levels"), "\(error)")
            }
            // The limit itself is held: read, and written back.
            let atLimit = try format.read(Self.file(format, depth: depth, lines: limit))
            #expect(Self.isChain(atLimit, depth: limit))
            let again = try format.read(format.write(atLimit)) == atLimit
            #expect(again)
            return
        }
        let nodes = try format.read(Self.file(format, depth: depth))
        #expect(Self.isChain(nodes, depth: depth))
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.add(nodes, under: try o.root())
        try o.save()
        let fresh = Outline(context: Context(store: o.context.store))
        let exported = try fresh.nodes(under: try fresh.root())
        let same = exported == nodes
        #expect(same)
        let written = format.write(exported)
        // Indentation stops deepening, so the file grows with the outline, not with the square of its depth.
        #expect(written.utf8.count < 1_000 * depth)
        let again = try format.read(written) == nodes
        #expect(again)
    }

    /// Search, check and the way down to a match at 100,000 levels: no recursion, and matches in outline
    /// order (the old search built every match's whole path, recursively).
    @Test func searchAndCheckAHundredThousandLevels() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        try o.add(Self.chain(depth: Self.depth), under: root)
        try o.save()  // rows added by `add` are seen by fetches once saved
        try o.append("level 0 beside", to: root)
        try o.save()
        let found = try o.search("level 99", limit: 200_000)
        #expect(found.count == 1 + 10 + 100 + 1000)
        #expect(found.first?.title == "level 99" && found.last?.title == "level 99999")
        let all = try o.search("level", limit: 200_000)
        #expect(all.count == Self.depth + 1)
        #expect(all.prefix(3).map(\.title) == ["level 1", "level 2", "level 3"], "\(all.prefix(3).map(\.title))")
        #expect(all.last?.title == "level 0 beside")
        let problems = try o.check()
        #expect(problems == [], "\(problems.prefix(3))")
        #expect(o.path(of: all[Self.depth - 1]).split(separator: "/").count == Self.depth)
    }
}
