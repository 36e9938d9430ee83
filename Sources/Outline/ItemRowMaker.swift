import ObjectGraph

/// Makes an imported item's row apart from where it goes (its ID and its parent's, which only the writing
/// thread knows): its title, note, done, extras and the order key among the siblings before it. A value on
/// its own, so a reading thread makes rows while another writes them (``OutlineLoader/handOverRows()``).
public struct ItemRowMaker: Sendable {
    /// One item's row with its depth and tags, for ``OutlineLoader/add(_:)``.
    public struct Made: Sendable {
        let depth: Int
        var row: [Value]
        let tags: [String]
    }

    private let template: [Value]
    /// For each open depth, the order key of its last item so far (nil before the first).
    private var keys: [String?]

    init(template: [Value], lastKey: String?) {
        self.template = template
        keys = [lastKey]
    }

    /// The row of `node` (its children are not looked at) at `depth`: 0 is a sub-item of the parent, and
    /// each item may be at most one deeper than the one before.
    public mutating func make(_ node: OutlineNode, depth: Int) -> Made {
        precondition(depth >= 0 && depth < keys.count, "an item is at most one level deeper than the one before it")
        keys.removeLast(keys.count - depth - 1)
        let key = OrderKey.between(keys[depth], nil)
        keys[depth] = key
        keys.append(nil)
        var row = template
        row[Item.Slot.title] = .string(node.title)
        if let note = node.note { row[Item.Slot.note] = .string(note) }
        row[Item.Slot.done] = .bool(node.isDone)
        if let extras = node.extras {
            for (slot, value) in zip(Item.Slot.extras, extras.values) where value != nil { row[slot] = .string(value!) }
            if let day = Item.agendaDay(scheduled: extras.scheduled, deadline: extras.deadline) { row[Item.Slot.agendaDay] = .string(day) }
        }
        row[Item.Slot.order] = .string(key)
        return Made(depth: depth, row: row, tags: node.tags)
    }
}
