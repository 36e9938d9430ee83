/// The outbox: while a store keeps one, every action, undo and redo saved by a context that records actions
/// (any process's) is appended to it in the transaction that saves it, so what a replicator has not sent yet
/// is never lost and never sent twice out of order. Saves without undo (set-up, or changes arriving from a
/// sync, with `UndoHistory.recordsActions` false) and view state are not.
///
/// ```swift
/// try store.setOutbox(enabled: true)
/// for entry in try store.outbox(after: 0) { send(entry) }
/// try store.removeOutbox(through: sentUpTo)
/// ```
extension Store {
    /// Starts keeping an outbox (from the next save on), or stops and forgets what it holds.
    public func setOutbox(enabled: Bool) throws(StoreError) { try backend.setOutbox(enabled: enabled) }

    /// True while the store keeps an outbox.
    public func outboxIsEnabled() throws(StoreError) -> Bool { try backend.outboxIsEnabled() }

    /// The entries numbered after `seq`, oldest first, at most `limit`. An entry this model cannot read (a
    /// damaged step, or one recorded by another model version) throws rather than being passed over.
    public func outbox(after seq: Int64, limit: Int = 256) throws(StoreError) -> [OutboxEntry] {
        try backend.outbox(after: seq, limit: limit).map { row throws(StoreError) in
            guard row.modelHash == model.versionHash,
                let record = UndoRecord.decode(row.step, name: row.name, widths: model.entities.map(\.defaults.count)), record.fits(model)
            else {
                throw StoreError(.storage, "the outbox's entry \(row.seq) cannot be read (damaged, or written by another version)", path: path)
            }
            return OutboxEntry(
                seq: row.seq, kind: OutboxEntry.Kind(rawValue: row.kind) ?? .action, history: row.history, record: record, model: model)
        }
    }

    /// How many entries wait in the outbox, without reading them (0 when the store keeps none).
    ///
    /// ```swift
    /// let pending = try store.outboxCount()   // "3 pending" on a status line
    /// ```
    public func outboxCount() throws(StoreError) -> Int { try backend.outboxCount() }

    /// Forgets the entries numbered up to `seq` (sent and acknowledged).
    public func removeOutbox(through seq: Int64) throws(StoreError) { try backend.removeOutbox(through: seq) }
}
