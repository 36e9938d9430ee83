/// One outbox entry as a store keeps it: the saved step still encoded (``Store/outbox(after:limit:)`` reads
/// it as an ``OutboxEntry``).
struct OutboxRow: Sendable {
    var seq: Int64
    /// The action's name.
    var name: String
    /// `OutboxEntry.Kind`'s raw value.
    var kind: Int
    /// The undo history's action this entry did, undid or redid (nil when the history kept none).
    var history: Int64?
    var step: [UInt8]
    var modelHash: String
}
