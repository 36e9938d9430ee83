import ObjectGraph

/// Items that arrived above the first row shown (another process added them, or moved them in) since the
/// user last scrolled up to them: the rows on screen stay put, so the status line says "3 new above".
struct NewAbove {
    /// The arrivals of one list: by ID when its batch named them; `unnamed` when a list off screen was read
    /// again longer than it was (which of its rows are new is not known).
    struct Arrivals {
        let node: FoldNode
        var ids: Set<ObjectID> = []
        var unnamed = 0
    }

    /// By list (`ObjectIdentifier` of its node).
    var lists: [ObjectIdentifier: Arrivals] = [:]

    /// How many are above the screen, as last settled.
    var count: Int { lists.values.reduce(0) { $0 + $1.ids.count + $1.unnamed } }
}
