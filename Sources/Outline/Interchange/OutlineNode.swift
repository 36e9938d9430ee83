import ObjectGraph

/// An outline as plain values, between a file format and the store: what import reads and export writes.
///
/// ```swift
/// let doc = [OutlineNode("Groceries", children: [OutlineNode("Milk"), OutlineNode("Eggs", done: true)])]
/// ```
public struct OutlineNode: Equatable, Sendable, CustomReflectable {
    public var title: String
    public var note: String?
    public var done: Bool
    /// The children, boxed so that a tree is freed without recursion (see `Subtree`); nil for a leaf, so
    /// leaves (most nodes) cost no allocation.
    private var subtree: Subtree?

    public init(_ title: String, note: String? = nil, done: Bool = false, children: [OutlineNode] = []) {
        self.title = title
        self.note = note
        self.done = done
        self.subtree = children.isEmpty ? nil : Subtree(children)
    }

    /// The sub-nodes, in order.
    public var children: [OutlineNode] {
        get { subtree?.nodes ?? [] }
        set {
            if newValue.isEmpty {
                subtree = nil
            } else if isKnownUniquelyReferenced(&subtree) {
                subtree!.nodes = newValue
            } else {
                subtree = Subtree(newValue)
            }
        }
        // Copy-on-write in place, as a stored array would be: appending a child to a node held in an array
        // must not copy its other children.
        _modify {
            if !isKnownUniquelyReferenced(&subtree) { subtree = Subtree(subtree?.nodes ?? []) }
            yield &subtree!.nodes
        }
    }

    /// Nodes in this subtree (itself included).
    public var count: Int {
        var n = 0
        var stack = [self]
        while let x = stack.popLast() {
            n += 1
            stack += x.children
        }
        return n
    }

    /// Levels in this subtree: 1 for a leaf.
    public var levels: Int {
        var deepest = 0
        var stack = [(self, 1)]
        while let (x, level) = stack.popLast() {
            deepest = max(deepest, level)
            for child in x.children { stack.append((child, level + 1)) }
        }
        return deepest
    }

    /// Compared with an explicit stack: the synthesized comparison recurses a frame per level.
    public static func == (a: OutlineNode, b: OutlineNode) -> Bool {
        var pending = [(a, b)]
        while let (x, y) = pending.popLast() {
            guard x.title == y.title, x.note == y.note, x.done == y.done else { return false }
            // Copies share their subtrees: equal without a look inside.
            if x.subtree === y.subtree { continue }
            let xs = x.children, ys = y.children
            guard xs.count == ys.count else { return false }
            pending += zip(xs, ys)
        }
        return true
    }

    /// Shown as title, note, done and children, as before the children were boxed.
    public var customMirror: Mirror {
        Mirror(self, children: ["title": title, "note": note as Any, "done": done, "children": children], displayStyle: .struct)
    }

    /// A node's children, shared by copies of the node until one of them changes (copy-on-write).
    ///
    /// Swift frees nested values recursively, a few stack frames per level: a 100,000-level tree of plain
    /// structs overflows the stack when it is freed. A subtree that dies instead takes its descendants out
    /// of their boxes into one list and lets them go one at a time, each with an empty box.
    // @unchecked Sendable, as `Array`'s buffer is: `nodes` is changed only through `children`'s setter and
    // `_modify`, each after `isKnownUniquelyReferenced` (or on a box made there), and in `deinit`, where the
    // box has no other owner. A box that two values (and so two threads) can see is never written; a
    // writer first gets a copy of its own. `DeepNestingTests.copiesChangedOnManyThreadsLeaveTheOriginal`
    // changes copies of one tree on many threads at once and checks the original and every copy.
    final class Subtree: @unchecked Sendable {
        var nodes: [OutlineNode]

        init(_ nodes: [OutlineNode]) { self.nodes = nodes }

        deinit {
            var doomed: [OutlineNode] = []
            swap(&doomed, &nodes)
            while var node = doomed.popLast() {
                // A subtree another copy still holds does not die here: it is left to that copy.
                if isKnownUniquelyReferenced(&node.subtree) {
                    doomed += node.subtree!.nodes
                    node.subtree!.nodes = []
                }
            }
        }
    }
}

/// A file that cannot be read as the format it claims to be; nothing was imported.
public struct InterchangeError: UserFacingError, Equatable, Sendable {
    public let format: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(format: String, line: Int, column: Int, message: String) {
        self.format = format
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(format) line \(line), column \(column): \(message)" }
}

/// The interchange formats.
public enum OutlineFormat: String, CaseIterable, Sendable {
    case opml, markdown, org, text, json

    /// The most levels this format holds, or nil when it holds any number. Markdown, Org and indented text
    /// indent (or star) each level, so a file grows with the square of its depth: 100,000 levels would be gigabytes.
    public var maximumLevels: Int? {
        switch self {
        case .opml, .json: nil
        case .markdown, .org, .text: OutlineBuilder.maximumLevels
        }
    }

    /// Reads `text` in this format.
    public func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        switch self {
        case .opml: return try OPML.read(text)
        case .markdown: return try MarkdownOutline.read(text)
        case .org: return try OrgOutline.read(text)
        case .text: return try IndentedText.read(text)
        case .json: return try JSONOutline.read(text)
        }
    }

    /// Writes `nodes` in this format; check ``maximumLevels`` first, or the file may be one its reader refuses.
    public func write(_ nodes: [OutlineNode], title: String = "Burrow") -> String {
        switch self {
        case .opml: return OPML.write(nodes, title: title)
        case .markdown: return MarkdownOutline.write(nodes)
        case .org: return OrgOutline.write(nodes)
        case .text: return IndentedText.write(nodes)
        case .json: return JSONOutline.write(nodes)
        }
    }
}

extension OutlineFormat {
    /// Reads `text` in this format, handing each item to `each` with its depth (0 at the top), in document
    /// order. Indented text, Org, Markdown and JSON hand items on as they are read and build no tree; OPML
    /// given as text is read whole first (`burrow import` streams it from its bytes:
    /// `OPML.read(bytes:mappedFromFile:each:)`). Throws
    /// `each`'s errors, and ``InterchangeError`` for a bad file (found after `each` saw what comes before).
    ///
    /// ```swift
    /// try OutlineFormat.org.read(text) { node, depth in try loader.add(node, depth: depth) }
    /// ```
    public func read(_ text: String, each: (OutlineNode, Int) throws -> Void) throws {
        switch self {
        case .text, .org, .markdown, .json:
            var failure: (any Error)?
            try withoutActuallyEscaping(each) { each in
                var builder = OutlineBuilder { node, depth in
                    guard failure == nil else { return }
                    do { try each(node, depth) } catch { failure = error }
                }
                if self == .text {
                    try IndentedText.read(text, into: &builder)
                } else if self == .markdown {
                    try MarkdownOutline.read(text, into: &builder)
                } else if self == .json {
                    try JSONOutline.read(text, into: &builder)
                } else {
                    var text = text
                    try text.withUTF8 { bytes in
                        try Result { () throws(InterchangeError) in try OrgReader(bytes).read(into: &builder) }.get()
                    }
                }
            }
            if let failure { throw failure }
        case .opml:
            try forEachInOrder(try read(text), each)
        }
    }
}
