@testable import ObjectGraph

/// The outbox kept in the state a write transaction rolls back: nil while the store keeps none.
extension MemoryStore {
    func setOutbox(enabled: Bool) throws(StoreError) {
        precondition(!isInTransaction)
        state.outbox = enabled ? (state.outbox ?? []) : nil
    }

    func outboxIsEnabled() throws(StoreError) -> Bool { state.outbox != nil }

    func appendOutbox(_ row: OutboxRow) throws(StoreError) -> Int64 {
        precondition(isInTransaction)
        var row = row
        row.seq = state.nextOutbox
        state.nextOutbox += 1
        state.outbox?.append(row)
        return row.seq
    }

    func outbox(after seq: Int64, limit: Int) throws(StoreError) -> [OutboxRow] {
        Array((state.outbox ?? []).filter { $0.seq > seq }.prefix(max(0, limit)))
    }

    func removeOutbox(through seq: Int64) throws(StoreError) {
        // Inside a transaction or on its own, as the SQLite store: rolled back with the state when inside.
        state.outbox?.removeAll { $0.seq <= seq }
    }
}
