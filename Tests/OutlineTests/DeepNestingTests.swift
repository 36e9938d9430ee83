import ObjectGraph
import Testing

@testable import Outline

/// Outlines 100,000 levels deep, one item a level. Results are compared outside `#expect`, which would print
/// both trees on a failure.
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
            guard level.count == 1, level[0].title == "level \(d)", level[0].note == nil, !level[0].done else { return false }
            level = level[0].children
        }
        return level.isEmpty
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
}
