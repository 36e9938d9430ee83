/// Orders fetched objects by an attribute or to-one relationship. Ties are always broken by object ID (in
/// the direction of the last sort key), so every fetch has one exact order.
public struct SortKey: Sendable, Hashable {
    public let key: String
    public let ascending: Bool

    public init(_ key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
