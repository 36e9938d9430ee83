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
    /// State, priority, dates and the rest, boxed: nil for a plain item (most of them), which then costs
    /// one word.
    private var box: ExtrasBox?
    /// The children, boxed so that a tree is freed without recursion (see `Subtree`); nil for a leaf, so
    /// leaves (most nodes) cost no allocation.
    private var subtree: Subtree?

    public init(_ title: String, note: String? = nil, isDone: Bool = false, extras: Extras? = nil, children: [OutlineNode] = []) {
        self.title = title
        self.box = extras.flatMap { $0.isEmpty ? nil : ExtrasBox($0) }
        self.note = note
        self.isDone = isDone
        self.subtree = children.isEmpty ? nil : Subtree(children)
    }

    /// What an item says beyond title, note and done; nil when nothing.
    public var extras: Extras? {
        get { box?.extras }
        set { box = newValue.flatMap { $0.isEmpty ? nil : ExtrasBox($0) } }
    }

    /// A task's keyword (`TODO`, `DONE`, the file's own), nil for a plain item.
    public var state: String? {
        get { box?.extras.state }
        set { change { $0.state = newValue } }
    }

    /// The priority (`A`, `B`, …), nil for none.
    public var priority: String? {
        get { box?.extras.priority }
        set { change { $0.priority = newValue } }
    }

    /// The item's tags, in order (`work`, not `#work`).
    public var tags: [String] {
        get { box?.extras.tags ?? [] }
        set { change { $0.tags = newValue } }
    }

    private mutating func change(_ body: (inout Extras) -> Void) {
        var e = extras ?? Extras()
        body(&e)
        extras = e
    }

    /// What makes an item a task and places it in time, and what a file said that Burrow keeps as it was.
    /// Timestamps are text that sorts by time: `2026-05-01`, `2026-05-01 09:00`, with org's repeater and
    /// warning after (`2026-05-01 +1w -2d`).
    public struct Extras: Equatable, Sendable {
        public var state: String?
        public var priority: String?
        public var scheduled: String?
        public var deadline: String?
        public var closed: String?
        /// An org property drawer's lines, without `:PROPERTIES:` and `:END:` (`:ID: 42`).
        public var properties: String?
        /// The org headline's text after its stars, its planning line and drawer as the file had them, when
        /// they are not what the writer would make of the fields: written back while they still say the same.
        public var orgHead: String?
        /// Its tags, in order; not one of `values` (tags are objects of their own, linked to the item).
        public var tags: [String]

        public init(
            state: String? = nil, priority: String? = nil, scheduled: String? = nil, deadline: String? = nil, closed: String? = nil,
            properties: String? = nil, orgHead: String? = nil, tags: [String] = []
        ) {
            self.state = state
            self.priority = priority
            self.scheduled = scheduled
            self.deadline = deadline
            self.closed = closed
            self.properties = properties
            self.orgHead = orgHead
            self.tags = tags
        }

        /// In the order of `Item.Slot.extras`, and the stored tag list (`:work:home:`); nil when all are.
        init?(values: [String?], tagList: String? = nil) {
            guard tagList != nil || values.contains(where: { $0 != nil }) else { return nil }
            self.init(
                state: values[0], priority: values[1], scheduled: values[2], deadline: values[3], closed: values[4], properties: values[5],
                orgHead: values[6], tags: Item.tags(ofList: tagList))
        }

        var values: [String?] { [state, priority, scheduled, deadline, closed, properties, orgHead] }

        /// True when it says nothing.
        public var isEmpty: Bool { tags.isEmpty && values.allSatisfy { $0 == nil } }
    }

    final class ExtrasBox: Sendable {
        let extras: Extras
        init(_ extras: Extras) { self.extras = extras }
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
            guard x.title == y.title, x.note == y.note, x.isDone == y.isDone, x.extras == y.extras else { return false }
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
        Mirror(
            self, children: ["title": title, "note": note as Any, "isDone": isDone, "extras": extras as Any, "children": children],
            displayStyle: .struct)
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
