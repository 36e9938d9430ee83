/// Orders fetched objects by an attribute or to-one relationship. Ties are always broken by object ID (in
/// the direction of the last sort key), so every fetch has one exact order.
///
/// ```swift
/// FetchRequest("Item", sortedBy: [SortKey("done"), SortKey("created", ascending: false)])
/// ```
public struct SortKey: Sendable, Hashable {
    /// The attribute or to-one relationship ordered by.
    public let key: String
    /// Smallest value first (true, the default) or largest first.
    public let ascending: Bool

    /// Orders by `key`, smallest value first unless `ascending` is false.
    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
