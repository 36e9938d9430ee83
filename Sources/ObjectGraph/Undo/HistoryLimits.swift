/// How much undo history a store keeps: past either limit, the oldest actions go, in the transaction that
/// records a new one. The newest action is always kept, however large, so that it can be undone.
///
/// ```swift
/// context.undoHistory.limits = HistoryLimits(actions: 1_000, bytes: 8 << 20)
/// ```
public struct HistoryLimits: Sendable, Hashable {
    /// The most actions kept (undone ones included).
    public var actions: Int
    /// The most bytes of stored steps kept.
    public var bytes: Int

    /// 10,000 actions or 64 MiB.
    public static let standard = HistoryLimits(actions: 10_000, bytes: 64 << 20)

    /// Keeps at most `actions` actions and `bytes` bytes of stored steps.
    public init(actions: Int, bytes: Int) {
        self.actions = actions
        self.bytes = bytes
    }
}
