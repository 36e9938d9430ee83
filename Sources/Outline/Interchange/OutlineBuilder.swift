/// Builds a tree from items given in document order with their depth, for the line-based formats.
struct OutlineBuilder {
    /// The most levels the line-based formats hold: each level adds to every line's indentation below it, so
    /// 1,000 levels are a megabyte of it, and 100,000 would be gigabytes.
    static let maximumLevels = 1_000

    private var roots: [OutlineNode] = []
    /// The open path: the last node at each depth, not yet attached to its parent.
    private var path: [OutlineNode] = []
    /// When set, each item goes here as it is added (with its depth) and no tree is built: for readers
    /// whose items are complete when added (Markdown's reader finds late notes in a first pass).
    private let emit: ((OutlineNode, Int) -> Void)?
    private var emittedDepth = -1

    init() { emit = nil }

    /// A builder that hands each item on instead of building the tree.
    init(emit: @escaping (OutlineNode, Int) -> Void) { self.emit = emit }

    /// Items go on as they are added: none can change afterwards.
    var emits: Bool { emit != nil }

    /// Depth of the last item, or -1 before the first.
    var depth: Int { emit == nil ? path.count - 1 : emittedDepth }

    /// Adds an item at `depth` (at most one deeper than the last item).
    mutating func add(_ node: OutlineNode, depth: Int) {
        if let emit {
            precondition(depth <= emittedDepth + 1)
            emittedDepth = depth
            emit(node, depth)
            return
        }
        precondition(depth <= path.count)
        close(to: depth)
        path.append(node)
    }

    /// Appends a line to the note of the last item.
    mutating func appendNoteLine(_ line: String) {
        precondition(emit == nil, "an emitting builder hands items on as they are added")
        guard !path.isEmpty else { return }
        let n = path.count - 1
        path[n].note = path[n].note.map { $0 + "\n" + line } ?? line
    }

    /// Changes the open item at `depth` (the last added there): for a reader that learns all of it only
    /// after the item's children.
    mutating func update(ofOpenItemAt depth: Int, _ change: (inout OutlineNode) -> Void) {
        precondition(emit == nil && depth < path.count, "only an open item of a built tree can change")
        change(&path[depth])
    }

    var hasItem: Bool { emit == nil ? !path.isEmpty : emittedDepth >= 0 }

    mutating func finish() -> [OutlineNode] {
        close(to: 0)
        return roots
    }

    private mutating func close(to depth: Int) {
        while path.count > depth {
            let node = path.removeLast()
            if path.isEmpty { roots.append(node) } else { path[path.count - 1].children.append(node) }
        }
    }
}

/// Walks a tree in document order without recursion.
func forEachInOrder(_ nodes: [OutlineNode], _ body: (OutlineNode, Int) throws -> Void) rethrows {
    var stack: [(OutlineNode, Int)] = nodes.reversed().map { ($0, 0) }
    while let (node, depth) = stack.popLast() {
        try body(node, depth)
        stack += node.children.reversed().map { ($0, depth + 1) }
    }
}
