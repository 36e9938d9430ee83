import ObjectGraph

/// Where the next page of a level starts when it is read by keyset on the (parent, order) index: at the last
/// order key read, skipping the siblings already read with that key (ties come in ID order). Paging by
/// offset instead read the level again from its start for every page. `SubtreeWalk` and `SearchResults`
/// read levels this way.
struct LevelCursor {
    /// The order key of the last sibling read (nil before the first page).
    private var after: Value?
    /// How many siblings read so far have the order key `after`: the next page skips them.
    private var ties = 0

    /// The next page of `parent`'s sub-items (that also match `also`), at most `limit`, in order. A null
    /// order key sorts first: while the last one read is null, the page starts from the level's start and
    /// skips the nulls read.
    func request(_ parent: ObjectID, also: ObjectPredicate? = nil, limit: Int) -> FetchRequest {
        var predicate: ObjectPredicate = Property("parent") == parent
        if let after, !after.isNull { predicate = predicate && .compare("order", .greaterOrEqual, after) }
        if let also { predicate = predicate && also }
        var request = FetchRequest(Item.entityName, where: predicate, sortedBy: [SortKey("order")])
        request.limit = limit
        request.offset = ties
        return request
    }

    /// Moves past a page read, given its rows' order keys in order.
    mutating func advance(past keys: [Value]) {
        guard let last = keys.last else { return }
        if last == after {
            ties += keys.count
        } else {
            ties = keys.reversed().prefix { $0 == last }.count
            after = last
        }
    }
}
