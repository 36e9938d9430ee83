import ObjectGraph

/// An outline as plain values, between a file format and the store: what import reads and export writes.
///
/// ```swift
/// let doc = [OutlineNode("Groceries", children: [OutlineNode("Milk"), OutlineNode("Eggs", isDone: true)])]
/// ```
public struct OutlineNode: Equatable, Sendable, CustomReflectable {
    public var title: String
    public var note: String?
    public var isDone: Bool
    /// The children, boxed so that a tree is freed without recursion (see `Subtree`); nil for a leaf, so
    /// leaves (most nodes) cost no allocation.
    private var subtree: Subtree?

    public init(_ title: String, note: String? = nil, isDone: Bool = false, children: [OutlineNode] = []) {
        self.title = title
        self.note = note
        self.isDone = isDone
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
            guard x.title == y.title, x.note == y.note, x.isDone == y.isDone else { return false }
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
        Mirror(self, children: ["title": title, "note": note as Any, "isDone": isDone, "children": children], displayStyle: .struct)
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
