import ObjectGraph

/// What a move or copy of several items did, for the message that names it.
///
/// For example: copying “Groceries” (with Milk and Eggs) and an item deleted meanwhile gives
/// `TransferResult(sources: [groceries], items: [copy], subItems: 2, missing: [gone])`.
public struct TransferResult: Sendable, Equatable {
    /// The items acted on, in the order given: the outermost of those asked for, as stored now.
    public var sources: [ObjectID] = []
    /// What is at the destination now, in the same order: the copies, or the moved items themselves.
    public var items: [ObjectID] = []
    /// The items below `sources`, at every depth, that came with them (counted for copies only).
    public var subItems = 0
    /// Items asked for that are no longer stored (deleted elsewhere): left out, the rest went.
    public var missing: [ObjectID] = []

    /// A result from its parts (the outline makes them; tests compare with them).
    public init(sources: [ObjectID] = [], items: [ObjectID] = [], subItems: Int = 0, missing: [ObjectID] = []) {
        self.sources = sources
        self.items = items
        self.subItems = subItems
        self.missing = missing
    }
}
