import ObjectGraph

/// The items below an item (or the item and those below it), depth first in outline order, as stored values
/// read a batch of siblings at a time: what an export streams, in memory that grows with the depth times
/// the batch, never with the number of items or the length of a level.
///
/// Each level is read on the (parent, order) index by keyset: the next batch starts at the last order key
/// read, skipping the siblings already read with that same key (ties are ordered by ID), so a level of a
/// million siblings costs a seek a batch, not a scan from its start. Whether an item has sub-items is read,
/// never taken from its stored count alone: an item with a count is entered by reading its first batch, and
/// the items of a batch whose counts say none are checked together with one query. Reads are as saved (not
/// this context's unsaved changes); run the walk inside one snapshot so that it sees one state.
struct SubtreeWalk {
    /// One event of the walk.
    enum Step {
        /// An item at `depth` with the values of the walk's keys; its sub-items follow when `hasChildren`,
        /// then `.leave` at its depth.
        case enter(id: ObjectID, values: [Value], depth: Int, hasChildren: Bool)
        /// After the last sub-item of the item at `depth`.
        case leave(depth: Int)
    }

    /// Siblings read a query.
    static let batchSize = 256

    /// The sub-items of one item being walked: the batch read, where the walk is in it, where the next
    /// batch starts.
    private struct Frame {
        let parent: ObjectID
        var rows: [(id: ObjectID, values: [Value])] = []
        /// Per row of the batch: it may have sub-items (its stored count says so, or a check found one).
        var mayHaveChildren: [Bool] = []
        var next = 0
        /// Where the next batch starts.
        var cursor = LevelCursor()
        var more = true

        init(parent: ObjectID) { self.parent = parent }
    }

    private let context: Context
    /// The item the walk started from: never entered again (a damaged store can make it its own descendant).
    private let start: ObjectID
    private let keys: [String]
    private let branchesOnly: Bool
    private var stack: [Frame] = []
    /// The start is to be entered (once, first) by a walk including it.
    private var startPending: Bool

    /// A walk of the items below `start`, each with the stored values of `keys`; with `includingStart`,
    /// `start` itself comes first (at depth 0). With `branchesOnly`, only items whose stored count says they
    /// have sub-items are read (the stored counts trusted: a quick look at the shape of the tree).
    init(context: Context, below start: ObjectID, keys: [String], includingStart: Bool, branchesOnly: Bool = false) throws {
        self.context = context
        self.start = start
        self.keys = keys + ["order", "childCount"]
        self.branchesOnly = branchesOnly
        startPending = includingStart
        if includingStart {
            // A frame of its own holding just the start: leaving it is the end, as for the sub-items' frame.
            var top = Frame(parent: start)
            if let values = try context.storedValues(of: [start], entity: Item.entityName, keys: self.keys).first ?? nil {
                top.rows = [(start, values)]
                top.mayHaveChildren = [true]
            }
            top.more = false
            stack = [top]
        } else {
            var top = Frame(parent: start)
            try load(&top)
            stack = [top]
        }
    }

    /// The next step, or nil at the end of the walk.
    mutating func next() throws -> Step? {
        while let f = stack.indices.last {
            if stack[f].next == stack[f].rows.count {
                if stack[f].more {
                    try load(&stack[f])
                    continue
                }
                stack.removeLast()
                // The frame held the sub-items of the item one level up.
                if f > 0 { return .leave(depth: f - 1) }
                return nil
            }
            let k = stack[f].next
            stack[f].next += 1
            let row = stack[f].rows[k]
            if row.id == start {
                guard startPending else { continue }
                startPending = false
            }
            var below: Frame?
            if stack[f].mayHaveChildren[k] {
                var frame = Frame(parent: row.id)
                try load(&frame)
                if !frame.rows.isEmpty { below = frame }
            }
            if let below { stack.append(below) }
            return .enter(id: row.id, values: Array(row.values.dropLast(2)), depth: f, hasChildren: below != nil)
        }
        return nil
    }

    /// Reads the next batch of `frame`'s sub-items, and which of them may have sub-items of their own.
    private func load(_ frame: inout Frame) throws {
        let request = frame.cursor.request(frame.parent, also: branchesOnly ? Property("childCount") > 0 : nil, limit: Self.batchSize)
        let rows = try context.fetchValues(request, keys: keys)
        frame.rows = rows
        frame.next = 0
        frame.more = rows.count == Self.batchSize
        guard !rows.isEmpty else {
            frame.mayHaveChildren = []
            return
        }
        frame.cursor.advance(past: rows.map { $0.values[keys.count - 2] })
        frame.mayHaveChildren = rows.map { row in
            if case .integer(let n) = row.values[keys.count - 1] { return n > 0 }
            return true
        }
        if !branchesOnly { try checkLeaves(&frame) }
    }

    /// Looks for sub-items of the rows whose stored count says they have none (a damaged count): one query
    /// for the whole batch, and one per such row only when that finds any.
    private func checkLeaves(_ frame: inout Frame) throws {
        let leaves = frame.rows.indices.filter { !frame.mayHaveChildren[$0] }
        guard !leaves.isEmpty else { return }
        var any = FetchRequest(Item.entityName, where: Property("parent").oneOf(leaves.map { frame.rows[$0].id.rowID }))
        any.limit = 1
        guard try !context.fetchValues(any, keys: []).isEmpty else { return }
        for k in leaves {
            var one = FetchRequest(Item.entityName, where: Property("parent") == frame.rows[k].id)
            one.limit = 1
            frame.mayHaveChildren[k] = try !context.fetchValues(one, keys: []).isEmpty
        }
    }
}
