import Foundation
import ObjectGraph
import Outline
import OutlineServer

/// One local outline kept in step with an outline on a PostgreSQL server. Where it is attached (the
/// server's address without its password, the outline's UUID, this device's client ID) and how far it has
/// read (the last change number applied) are kept in the store beside the items, the position committed
/// with the changes it applied. Sending comes first: the outbox's actions in order, each operation with an
/// ID made from the device and the entry, so a resend after a lost answer is answered, not applied again;
/// an entry leaves the outbox in the rebase that takes in the server's answer. Then the server's changes
/// after the position, through a ``Rebase``: the outline becomes the server's state with the actions still
/// waiting on top (a refused action leaves no trace), and its ``OutlineDigest`` must then be the server's.
///
/// ```swift
/// let sync = Replicator(outline: outline)
/// let connection = try await ServerConnection.connect(address)
/// _ = try await sync.attach(address, through: connection)   // uploads, or downloads into an empty outline
/// let round = try await sync.syncOnce(through: connection)
/// ```
public final class Replicator {
    /// Where the outline is attached, and how far along.
    public struct Status: Equatable, Sendable {
        /// The server's address, without its password; nil when not attached.
        public var address: String?
        public var outline: UUID?
        /// Actions saved here and not yet acknowledged by the server.
        public var pending: Int
        /// The last server change applied here.
        public var seq: Int64
        /// True while an attach was cut short (run it again to finish).
        public var attaching = false
    }

    /// What one round did.
    public struct Round: Equatable, Sendable {
        /// Operations the server answered.
        public var sent = 0
        /// Actions undone here before they were sent, and their undos: neither went to the server.
        public var withdrawn = 0
        /// Server changes applied here.
        public var received = 0
        /// Actions still waiting to be sent that were applied again on top of the server's changes.
        public var rebased = 0
        /// One line for each operation the server refused or put under "Recovered".
        public var notes: [String] = []
        /// Why the server's whole outline replaced this one, which had gone its own way (its digest differed, or
        /// a change could not be applied as the server did); nil when it did not. Never, when all works.
        public var repaired: String?
    }

    public let outline: Outline
    var store: Store { outline.context.store }
    /// The last local digest found equal to the server's: at which server change, and at which of the store's
    /// commits (``Store/latestChange()``). While neither has moved, a round compares that instead of reading
    /// the whole outline again: an idle shared outliner costs a query every few seconds, not a read of
    /// every item.
    private var agreed: (digest: OutlineDigest, seq: Int64, change: Int64)?

    public init(outline: Outline) { self.outline = outline }

    public func status() throws -> Status {
        let state = try SyncState.load(store)
        return Status(
            address: state?.address, outline: state?.outline, pending: try store.outboxCount(), seq: state?.seq ?? 0,
            attaching: state?.attaching != nil)
    }

    /// Attaches the outline to the server at `address` (reached through `connection`): a server with no
    /// outline gets this one; an empty outline here gets the server's one. Anything else is refused with a
    /// message and changes nothing. Returns what it did, as a sentence. An attach killed part way (or cut off
    /// from the server) is run again with the same address and goes on where it stopped.
    public func attach(_ address: ServerAddress, through connection: any SharedOutlineServer) async throws -> String {
        if let state = try SyncState.load(store) {
            guard let phase = state.attaching else {
                // Run again after it was done (killed just before it said so): nothing more to do.
                if state.address == address.description { return "This outline is shared through \(address) already" }
                throw SyncError("this outline is already shared through \(state.address) (burrow sync detach first)")
            }
            guard state.address == address.description else {
                throw SyncError(
                    "an attach to \(state.address) was cut short: burrow sync attach \(state.address) finishes it, or burrow sync detach forgets it")
            }
            try await connection.ensureSchema()
            return phase == .uploading
                ? try await upload(state, address, connection, again: true) : try await download(state, address, connection)
        }
        try await connection.ensureSchema()
        let outlines = try await connection.outlines()
        let root = try outline.root()
        if outlines.isEmpty {
            var state = SyncState(address: address.description, outline: UUID(), client: UUID(), seq: 0, attaching: .uploading)
            // The outbox first: an action saved while the outline goes up is sent after it, not lost.
            try store.setOutbox(enabled: true)
            try ChangeApplier.unrecorded(outline.context) {
                try outline.context.transaction {
                    try store.name(root.objectID, by: state.outline)
                    try state.save(in: outline.context)
                }
            }
            return try await upload(state, address, connection, again: false)
        }
        guard try outline.subtree(under: root, depth: 1).isEmpty else {
            throw SyncError("\(address) holds an outline already and this one is not empty: attach an empty outline to download it")
        }
        guard outlines.count == 1, let id = outlines.first else {
            throw SyncError("\(address) holds \(outlines.count) outlines: Burrow shares one per server")
        }
        var state = SyncState(address: address.description, outline: id, client: UUID(), seq: 0, attaching: .downloading)
        try store.setOutbox(enabled: true)
        try ChangeApplier.unrecorded(outline.context) {
            try outline.context.transaction {
                try store.name(root.objectID, by: id)
                try state.save(in: outline.context)
            }
        }
        return try await download(state, address, connection)
    }

    /// Sends this whole outline up as `state`'s outline (made if missing) and marks the attach done. Run
    /// again after a cut it sends everything again: a restore skips what the server has, and what changed
    /// here since went into the outbox, which the rounds send.
    private func upload(_ state: SyncState, _ address: ServerAddress, _ connection: any SharedOutlineServer, again: Bool) async throws -> String {
        let id = state.outline
        try await connection.createOutline(id)
        let root = try outline.root()
        let localItems = try outline.subtree(under: root)
        let names = try store.externalIDs(for: localItems.map(\.id))
        let byRow = Dictionary(uniqueKeysWithValues: zip(localItems.map(\.id.rowID), names))
        let stored = try outline.context.storedValues(of: localItems.map(\.id), entity: Item.entityName, keys: OutboxOperations.placeKeys)
        let items = zip(zip(localItems, names), stored).map { pair, values in
            let (row, name) = pair
            let (ord, extras) = OutboxOperations.orderAndExtras(values)
            return ServerItem(
                id: name, parent: row.parent == root.objectID.rowID ? id : byRow[row.parent], ord: ord, title: row.title, note: row.note,
                isDone: row.isDone, extras: extras)
        }
        // Operation IDs of this try's own: a try after a cut sends its batches again, which may differ.
        let attempt = UUID()
        var seq: Int64 = 0
        for (k, batch) in stride(from: 0, to: items.count, by: 1000).map({ Array(items[$0..<min(items.count, $0 + 1000)]) }).enumerated() {
            let answer = try await connection.apply(
                .restore(batch), outline: id, opID: Self.opID(attempt, entry: 0, index: k), client: state.client.uuidString)
            seq = max(seq, answer.seq ?? 0)
        }
        var done = state
        done.attaching = nil
        // Past the upload's own changes; after a cut, from the start: others may have attached and acted
        // between the tries, and the first round takes in all of it.
        done.seq = again ? 0 : seq
        try done.save(in: outline.context)
        // Its extras went up with it.
        try store.setAppValue(Self.extrasSentKey, id.uuidString)
        return "Shared \(items.count) item\(items.count == 1 ? "" : "s") to \(address) as a new outline"
    }

    /// The app value that says this device's extras went up (see `sendExtrasOnce`).
    static let extrasSentKey = "sharing.extrasSent"

    /// Once per shared outline, on a device that shared it before the server kept items' extras (task
    /// fields, properties, tags: schema 5): each extra it has goes up, one operation each, expecting the
    /// server to have none, so what another device sent first (and later edits there) wins. Without it the
    /// first digest check would find the outlines different and replace this one's extras with none.
    func sendExtrasOnce(_ state: SyncState, through connection: any SharedOutlineServer) async throws {
        guard try store.appValue(Self.extrasSentKey) != state.outline.uuidString else { return }
        let root = try outline.root()
        let rows = try outline.subtree(under: root)
        let names = try store.knownExternalIDs(for: rows.map(\.id))
        let stored = try outline.context.storedValues(of: rows.map(\.id), entity: Item.entityName, keys: Item.syncedExtrasKeys)
        var ops: [ServerOperation] = []
        for (name, values) in zip(names, stored) {
            guard let name, let values else { continue }
            for (key, value) in zip(Item.syncedExtrasKeys, values) {
                guard case .string(let text) = value else { continue }
                let field = ServerItem.extraPrefix + key
                ops.append(.set(id: name, fields: [field: .string(text)], expect: [field: .null]))
            }
        }
        for (k, start) in stride(from: 0, to: ops.count, by: Self.batch).enumerated() {
            let batch = ops[start..<min(ops.count, start + Self.batch)].enumerated().map {
                (op: $0.element, id: Self.opID(state.client, entry: -1 - Int64(k), index: $0.offset))
            }
            _ = try await connection.apply(batch, outline: state.outline, client: state.client.uuidString)
        }
        try store.setAppValue(Self.extrasSentKey, state.outline.uuidString)
    }

    /// Brings the server's whole outline here (again, after a cut: every item upserted), then marks the
    /// attach done.
    private func download(_ state: SyncState, _ address: ServerAddress, _ connection: any SharedOutlineServer) async throws -> String {
        let (items, seq) = try await connection.items(outline: state.outline)
        guard !items.isEmpty else { throw SyncError("\(address) does not hold the outline \(state.outline) any more") }
        let download = ServerChange(seq: seq, opID: UUID(), client: "", body: .upsert(items.filter { $0.parent != nil }))
        var done = state
        done.attaching = nil
        done.seq = seq
        // Killed between the two, the attach downloads again when run again.
        try ChangeApplier.apply([download], to: outline)
        try done.save(in: outline.context)
        // Nothing here before: nothing of its own to send.
        try store.setAppValue(Self.extrasSentKey, state.outline.uuidString)
        return "Downloaded \(items.count - 1) item\(items.count == 2 ? "" : "s") from \(address)"
    }

    /// Sends what waits in the outbox, then rebases on the server's changes and checks the digests; again
    /// while the server's outline moved on meanwhile (up to a few times).
    public func syncOnce(through connection: any SharedOutlineServer) async throws -> Round {
        guard let state = try SyncState.load(store) else { throw SyncError("this outline is not shared (burrow sync attach URL first)") }
        // Half attached, the server may lack what is here: a round's digest check would replace this outline.
        if state.attaching != nil {
            throw SyncError("the attach to \(state.address) was cut short: burrow sync attach \(state.address) finishes it")
        }
        let (id, client) = (state.outline, state.client)
        // Before anything is compared: what this device kept before the server held extras (schema 5).
        try await sendExtrasOnce(state, through: connection)
        var round = Round()
        var refusals: [Refusal] = []
        // The refusals' notes say where each item is once the round is over.
        func finished() -> Round {
            var r = round
            r.notes += refusals.map(describe)
            return r
        }
        for _ in 0..<8 {
            // What was sent stays in the outbox until the rebase that takes in the server's answer to it (its
            // changes, or nothing for what it refused) removes it, in the same transaction: a round cut anywhere
            // sends it again and is answered the same.
            let sent = try await send(id, client, &round)
            guard let from = try SyncState.load(store)?.seq else { throw SyncError("this outline is not shared any more (detached meanwhile)") }
            var changes: [ServerChange] = []
            var seq = from
            while true {
                let page = try await connection.changes(outline: id, after: seq)
                guard let last = page.last else { break }
                changes += page
                seq = last.seq
            }
            var diverged: String?
            if !sent.isEmpty || !changes.isEmpty {
                guard let settled = try rebase(sent: sent, changes: changes, from: from, to: seq, diverged: { diverged = diverged ?? $0 }) else {
                    // Another program on this outline took in the same answers meanwhile: the round starts again.
                    continue
                }
                refusals += settled.refusals
                round.received += changes.count
                round.rebased += changes.isEmpty ? 0 : settled.pending
            }
            // Convergence is checked: the server's digest as of its last change against this outline's. A
            // server without this outline (another server's URL given, the outline removed there) must not
            // replace this one with nothing.
            guard let server = try await connection.digest(outline: id) else {
                throw SyncError("\(connection.address) does not hold this outline (it is shared through \(state.address))")
            }
            // More changes there since: read them first.
            if diverged == nil && server.seq != seq { continue }
            var why: String?
            if let reason = diverged {
                why = reason
            } else {
                // Actions waiting here: the next round sends them, and checks.
                if let known = agreed, known.seq == seq, known.digest == server.digest, try store.latestChange() == known.change,
                    try store.outboxCount() == 0
                {
                    return finished()
                }
                guard let local = try localDigestAndChange(outline: id) else { return finished() }
                guard local.seq == seq else { continue }
                agreed = nil
                if local.unnamed > 0 {
                    why = "\(local.unnamed) item\(local.unnamed == 1 ? " is" : "s are") here and not on the server"
                } else if local.digest != server.digest {
                    why = "its digest at change \(seq) is \(local.digest), the server's \(server.digest)"
                } else {
                    agreed = (local.digest, seq, local.change)
                }
            }
            if let why {
                // Repaired whole: the server's outline replaces this one; what differed is said first.
                let (items, at) = try await connection.items(outline: id)
                // Only for the message: what differed, when it can be read (the repair does not depend on it).
                let differences = (try? differences(from: items, outline: id)) ?? []
                let replaced = try ChangeApplier.replace(with: items, in: outline) {
                    try SyncState.update(in: outline.context) { $0.seq = at }
                }
                guard replaced else { continue }
                round.repaired = ([why] + differences).joined(separator: "; ")
            }
            return finished()
        }
        return finished()

        // The outbox goes up in exchanges of about `Self.batch` operations (whole entries), each one
        // transaction on the server: a thousand actions queued offline take one round trip, not a thousand.
        // The entries sent, with what the server refused of each; they stay in the outbox (see `settle`).
        func send(_ id: UUID, _ client: UUID, _ round: inout Round) async throws -> [Sent] {
            var out: [Sent] = []
            var after: Int64 = 0
            while true {
                let planned = try plan(after: after)
                guard !planned.isEmpty else { return out }
                var ops: [(op: ServerOperation, id: UUID)] = [], owners: [Int] = [], batch: [Sent] = []
                for (entry, operations) in planned {
                    guard let operations else {
                        batch.append(Sent(entry: entry, withdrawn: true))
                        round.withdrawn += 1
                        continue
                    }
                    if !batch.isEmpty && ops.count + operations.count > Self.batch { break }
                    for (k, op) in operations.enumerated() {
                        ops.append((op, Self.opID(client, entry: entry.seq, index: k)))
                        owners.append(batch.count)
                    }
                    batch.append(Sent(entry: entry))
                }
                let answers = ops.isEmpty ? [] : try await connection.apply(ops, outline: id, client: client.uuidString)
                round.sent += answers.count
                for ((op, answer), k) in zip(zip(ops.map(\.op), answers), owners) {
                    switch answer.status {
                    case .applied: break
                    case .recovered: round.notes.append("\(batch[k].entry.name): \(answer.message ?? answer.status.rawValue)")
                    case .rejected: batch[k].refused.append((op, answer.message ?? answer.status.rawValue))
                    }
                }
                out += batch
                guard let last = batch.last else { return out }
                after = last.entry.seq
            }
        }
    }

    /// An outbox entry sent in this round, and the operations of it the server refused, with its reasons.
    struct Sent {
        var entry: OutboxEntry
        /// Never sent: undone here before it went (see `plan`).
        var withdrawn = false
        var refused: [(op: ServerOperation, message: String)] = []
    }

    /// A refused operation's item and why, for the note that tells the user where the item is now.
    struct Refusal {
        var action: String
        var message: String
        var item: ObjectID?
    }

    /// The app values that keep, while actions wait to be sent, the server's state of the items they touch
    /// (see ``Rebase``).
    static let shadowPrefix = "sync.base."

    /// In one transaction: the rebase of the outline on `changes` (the server's, numbered `from` up to `to`),
    /// with `sent` taken in (removed from the outbox) and the actions still pending on top; the position
    /// set to `to`. Nil, changing nothing, when this outline's position is no longer `from` or `sent` is no
    /// longer at the head of the outbox (another program here took in the same round). The refusals among
    /// `sent`, each with its item, and how many actions still pending it applied again.
    func rebase(sent: [Sent], changes: [ServerChange], from: Int64, to: Int64, diverged: @escaping (String) -> Void) throws -> (
        refusals: [Refusal], pending: Int
    )? {
        let context = outline.context
        return try ChangeApplier.unrecorded(context) {
            try context.transaction { () throws -> (refusals: [Refusal], pending: Int)? in
                guard var state = try SyncState.load(store) else { throw SyncError("this outline is not shared any more (detached meanwhile)") }
                guard state.seq == from else { return nil }
                let last = sent.last?.entry.seq ?? 0
                let head = try store.outbox(after: 0, limit: max(1, sent.count))
                if !sent.isEmpty && head.map(\.seq) != sent.map(\.entry.seq) { return nil }
                let pending = try store.outbox(after: last, limit: Int(Int32.max))
                var shadows: [UUID: String] = [:]
                for key in try store.appValueKeys(withPrefix: Self.shadowPrefix) {
                    guard let name = UUID(uuidString: String(key.dropFirst(Self.shadowPrefix.count))), let value = try store.appValue(key) else {
                        continue
                    }
                    shadows[name] = value
                    try store.setAppValue(key, nil)
                }
                var rebase = try Rebase(outline: outline, top: state.outline, diverged: diverged)
                let kept = try rebase.run(settled: sent.map(\.entry), pending: pending, changes: changes, shadows: shadows)
                for (name, value) in kept { try store.setAppValue(Self.shadowPrefix + name.uuidString, value) }
                if last > 0 { try store.removeOutbox(through: last) }
                // Plans of entries no longer in the outbox (taken in by another program's round) go too.
                state.plans = state.plans.filter { $0.key > last }
                state.seq = to
                try state.save(in: context)
                var refusals: [Refusal] = []
                for s in sent {
                    for (op, message) in s.refused {
                        let item = try op.itemID.flatMap { try store.objects(named: [$0]).first ?? nil }
                        refusals.append(Refusal(action: s.entry.name, message: message, item: item))
                    }
                }
                return (refusals, pending.count)
            }
        }
    }

    /// One line for a refused action: why, and where its item is now ("Move “X”: it would go inside itself;
    /// “X” stays in Projects/Y").
    private func describe(_ r: Refusal) -> String {
        let context = Context(store: store)
        // Only for the message: an item gone or unreadable is named without its place.
        guard let id = r.item, let item = try? context.existingObject(for: id) as? Item, !item.isDeleted else {
            return "\(r.action): \(r.message)"
        }
        // Walked with a bound: a store damaged into a cycle must not hang the message.
        var titles: [String] = []
        var at = item.parent
        while let a = at, !a.isRoot, titles.count < 64 {
            titles.append(a.title)
            at = a.parent
        }
        if let a = at, !a.isRoot { titles.append("…") }
        let place = titles.isEmpty ? "at the top" : "in " + titles.reversed().joined(separator: "/")
        return "\(r.action): \(r.message); “\(item.title)” stays \(place)"
    }

    /// About how many operations go up in one exchange.
    static let batch = 1000

    /// The outbox's entries after `after` (about `Self.batch` of them), each with its operations, the same on
    /// every try (nil: withdrawn, never sent). Decided in one transaction with the outbox read, and kept in
    /// the ``SyncState`` until the rebase that takes the entry in: the items an entry's first plan named for
    /// the first time, so a retry inserts them again rather than restoring them (each operation keeps its
    /// index, so its ID); and the withdrawals. An undo withdraws itself and the action it undoes when that
    /// action's entry is the newest one kept before it and was never planned: neither goes to the server
    /// (the rebase takes both local effects back, so the item is what the server has). Nested pairs go too
    /// (two actions, two undos). An action planned before, possibly sent, is never withdrawn: its undo goes
    /// as the inverse.
    private func plan(after: Int64) throws -> [(entry: OutboxEntry, operations: [ServerOperation]?)] {
        let context = outline.context
        return try ChangeApplier.unrecorded(context) {
            try context.transaction {
                let entries = try store.outbox(after: after, limit: Self.batch)
                guard !entries.isEmpty else { return [] }
                return try SyncState.update(in: context) { state in
                    var kept: [OutboxEntry] = []
                    var withdrawn: Set<Int64> = []
                    for entry in entries {
                        switch state.plans[entry.seq] {
                        case .withdrawn?: continue
                        case .sent?: kept.append(entry)
                        case nil:
                            if entry.kind == .undo, let action = entry.history, let top = kept.last, top.history == action, top.kind != .undo,
                                state.plans[top.seq] == nil
                            {
                                kept.removeLast()
                                withdrawn.formUnion([top.seq, entry.seq])
                            } else {
                                kept.append(entry)
                            }
                        }
                    }
                    return try entries.map { entry -> (entry: OutboxEntry, operations: [ServerOperation]?) in
                        if withdrawn.contains(entry.seq) { state.plans[entry.seq] = .withdrawn }
                        let named: [Int64]
                        switch state.plans[entry.seq] {
                        case .withdrawn?: return (entry, nil)
                        case .sent(let rows)?: named = rows
                        case nil: named = []
                        }
                        let fresh = Set(named.map { ObjectID(entity: Item.entityIndex, rowID: $0) })
                        let (ops, first) = try OutboxOperations.plan(for: entry, in: context, fresh: fresh)
                        if state.plans[entry.seq] == nil { state.plans[entry.seq] = .sent(named: first.map(\.rowID)) }
                        return (entry, ops)
                    }
                }
            }
        }
    }

    /// Forgets the server: nothing more is sent or received; the items stay.
    public func detach() throws {
        // With the entries' plans and the rebases' records of the server's state too.
        try SyncState.forget(in: outline.context, also: try store.appValueKeys(withPrefix: Self.shadowPrefix))
        try store.setOutbox(enabled: false)
    }

    /// An operation's ID: the device's first six bytes, the outbox entry's number (six bytes), the
    /// operation's index in it (four); the same for a resend, different for every operation of every device.
    static func opID(_ client: UUID, entry: Int64, index: Int) -> UUID {
        var bytes = withUnsafeBytes(of: client.uuid) { Array($0.prefix(6)) }
        for k in (0..<6).reversed() { bytes.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: entry) >> (8 * UInt64(k)))) }
        for k in (0..<4).reversed() { bytes.append(UInt8(truncatingIfNeeded: UInt64(index) >> (8 * UInt64(k)))) }
        var t: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { $0.copyBytes(from: bytes) }
        return UUID(uuid: t)
    }
}
