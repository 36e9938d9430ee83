import Foundation
import ObjectGraph
import Outline
import OutlineServer

/// One local outline kept in step with an outline on a PostgreSQL server. Where it is attached (the
/// server's address without its password, the outline's UUID, this device's client ID) and how far it has
/// read (the last change number applied) are kept in the store beside the items, the position committed
/// with the changes it applied. Sending comes first: the outbox's actions in order, each operation with an
/// ID made from the device and the entry, so a resend after a lost answer is answered, not applied again;
/// an entry leaves the outbox once the server has answered all of its operations. Then the server's
/// changes after the position, applied only while nothing waits to be sent.
///
/// ```swift
/// let sync = Replicator(outline: outline)
/// let connection = try await ServerConnection.connect(address)
/// _ = try await sync.attach(address, through: connection)   // uploads, or downloads into an empty outline
/// let round = try await sync.syncOnce(through: connection)
/// ```
public final class Replicator {
    /// The keys of what it keeps in the store (``Store/appValue(_:)``).
    enum Key {
        static let address = "sync.address", outline = "sync.outline", client = "sync.client", seq = "sync.seq"
        /// The items an outbox entry's first plan named (see `plan`), until the entry is sent.
        static func fresh(_ entry: Int64) -> String { freshPrefix + String(entry) }
        static let freshPrefix = "sync.fresh."
    }

    /// Where the outline is attached, and how far along.
    public struct Status: Equatable, Sendable {
        /// The server's address, without its password; nil when not attached.
        public var address: String?
        public var outline: UUID?
        /// Actions saved here and not yet acknowledged by the server.
        public var pending: Int
        /// The last server change applied here.
        public var seq: Int64
    }

    /// What one round did.
    public struct Round: Equatable, Sendable {
        /// Operations the server answered.
        public var sent = 0
        /// Server changes applied here.
        public var received = 0
        /// One line for each operation the server refused or put under "Recovered".
        public var notes: [String] = []
        /// Why the server's whole outline replaced this one, which had gone its own way (its digest differed, or
        /// a change could not be applied as the server did); nil when it did not. Never, when all works.
        public var repaired: String?
    }

    public let outline: Outline
    var store: Store { outline.context.store }

    public init(outline: Outline) { self.outline = outline }

    public func status() throws -> Status {
        Status(
            address: try store.appValue(Key.address), outline: try store.appValue(Key.outline).flatMap(UUID.init(uuidString:)),
            pending: try store.outboxCount(),
            seq: try store.appValue(Key.seq).flatMap { Int64($0) } ?? 0)
    }

    /// Attaches the outline to the server at `address` (reached through `connection`): a server with no
    /// outline gets this one; an empty outline here gets the server's one. Anything else is refused with a
    /// message and changes nothing. Returns what it did, as a sentence.
    public func attach(_ address: ServerAddress, through connection: any SharedOutlineServer) async throws -> String {
        if let at = try store.appValue(Key.address) {
            throw SyncError("this outline is already shared through \(at) (burrow sync detach first)")
        }
        try await connection.ensureSchema()
        let outlines = try await connection.outlines()
        let root = try outline.root()
        let localItems = try outline.subtree(under: root)
        let client = UUID()
        if outlines.isEmpty {
            let id = UUID()
            try await connection.createOutline(id)
            try store.name(root.objectID, by: id)
            // The outbox first: an action saved while the outline goes up is sent after it, not lost.
            try store.setOutbox(enabled: true)
            let names = try store.externalIDs(for: localItems.map(\.id))
            let byRow = Dictionary(uniqueKeysWithValues: zip(localItems.map(\.id.rowID), names))
            let orders = try outline.context.storedValues(of: localItems.map(\.id), entity: "Item", keys: ["order"])
            let items = zip(zip(localItems, names), orders).map { pair, order in
                let (row, name) = pair
                let ord: String
                if case .string(let s)? = order?.first { ord = s } else { ord = "" }
                return ServerItem(
                    id: name, parent: row.parent == root.objectID.rowID ? id : byRow[row.parent], ord: ord, title: row.title,
                    note: row.note, done: row.isDone)
            }
            var seq: Int64 = 0
            for (k, batch) in stride(from: 0, to: items.count, by: 1000).map({ Array(items[$0..<min(items.count, $0 + 1000)]) }).enumerated() {
                let answer = try await connection.apply(
                    .restore(batch), outline: id, opID: Self.opID(client, entry: 0, index: k), client: client.uuidString)
                seq = max(seq, answer.seq ?? 0)
            }
            try remember(address, id, client, seq: seq)
            return "Shared \(items.count) item\(items.count == 1 ? "" : "s") to \(address) as a new outline"
        }
        guard localItems.isEmpty else {
            throw SyncError("\(address) holds an outline already and this one is not empty: attach an empty outline to download it")
        }
        guard outlines.count == 1, let id = outlines.first else {
            throw SyncError("\(address) holds \(outlines.count) outlines: Burrow shares one per server")
        }
        let (items, seq) = try await connection.items(outline: id)
        try store.name(root.objectID, by: id)
        let download = ServerChange(seq: seq, opID: UUID(), client: "", body: .upsert(items.filter { $0.parent != nil }))
        try ChangeApplier.apply([download], to: outline, checkpoint: Key.seq)
        try store.setOutbox(enabled: true)
        try remember(address, id, client, seq: seq)
        return "Downloaded \(items.count - 1) item\(items.count == 2 ? "" : "s") from \(address)"
    }

    /// Sends what waits in the outbox, then applies the server's changes; again while actions arrived
    /// meanwhile (up to a few times).
    public func syncOnce(through connection: any SharedOutlineServer) async throws -> Round {
        guard let id = try store.appValue(Key.outline).flatMap(UUID.init(uuidString:)),
            let client = try store.appValue(Key.client).flatMap(UUID.init(uuidString:))
        else { throw SyncError("this outline is not shared (burrow sync attach URL first)") }
        var round = Round()
        var refusals: [Refusal] = []
        // The refusals' notes say where each item is once the round is over.
        func finished() -> Round {
            var r = round
            r.notes += refusals.map(describe)
            return r
        }
        for _ in 0..<8 {
            // What was sent stays in the outbox until the refused parts' local effects are taken back, in the
            // same transaction as its removal (before the server's changes, or in the first of their runs),
            // so a round cut anywhere sends it again and is answered the same.
            var sent = try await send(id, client, &round)
            var seq = try store.appValue(Key.seq).flatMap { Int64($0) } ?? 0
            var blocked = false
            var diverged: String?
            func settle() throws {
                guard !sent.isEmpty else { return }
                refusals += try self.settle(sent) { diverged = $0 }
                sent = []
            }
            while true {
                let changes = try await connection.changes(outline: id, after: seq)
                guard let last = changes.last else {
                    if !sent.isEmpty { try ChangeApplier.unrecorded(outline.context) { try outline.context.transaction { try settle() } } }
                    break
                }
                let applied = try ChangeApplier.apply(
                    changes, to: outline, checkpoint: Key.seq, unlessPending: true, first: { try settle() }, diverged: { diverged = $0 })
                guard applied else {
                    blocked = true
                    break
                }
                round.received += changes.count
                seq = last.seq
            }
            if blocked { continue }
            // Convergence is checked: the server's digest as of its last change against this outline's. A
            // server without this outline (another server's URL given, the outline removed there) must not
            // replace this one with nothing.
            guard let server = try await connection.digest(outline: id) else {
                let attached = try store.appValue(Key.address) ?? "another server"
                throw SyncError("\(connection.address) does not hold this outline (it is shared through \(attached))")
            }
            var why: String?
            if let reason = diverged {
                why = reason
            } else {
                // Changes made meanwhile there, or actions here: the two would be of two moments.
                guard server.seq == seq, let local = try localDigest(outline: id), local.seq == seq else { continue }
                if local.unnamed > 0 {
                    why = "\(local.unnamed) item\(local.unnamed == 1 ? " is" : "s are") here and not on the server"
                } else if local.digest != server.digest {
                    why = "its digest at change \(seq) is \(local.digest), the server's \(server.digest)"
                }
            }
            if let why {
                // Repaired whole: the server's outline replaces this one (what differs is not known).
                let (items, at) = try await connection.items(outline: id)
                guard try ChangeApplier.replace(with: items, seq: at, in: outline, checkpoint: Key.seq) else { continue }
                round.repaired = why
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
                let entries = try store.outbox(after: after, limit: Self.batch)
                guard !entries.isEmpty else { return out }
                var ops: [(op: ServerOperation, id: UUID)] = [], owners: [Int] = [], batch: [Sent] = []
                for (entry, planned) in zip(entries, try plan(entries)) {
                    if !batch.isEmpty && ops.count + planned.count > Self.batch { break }
                    for (k, op) in planned.enumerated() {
                        ops.append((op, Self.opID(client, entry: entry.seq, index: k)))
                        owners.append(batch.count)
                    }
                    batch.append(Sent(entry: entry))
                }
                let answers = try await connection.apply(ops, outline: id, client: client.uuidString)
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
        var refused: [(op: ServerOperation, message: String)] = []
    }

    /// A refused operation's item and why, for the note that tells the user where the item is now.
    struct Refusal {
        var action: String
        var message: String
        var item: ObjectID?
    }

    /// Takes back here what the server refused of `sent` (newest first: each to its values before its entry),
    /// and removes `sent` from the outbox with their plans, inside the caller's transaction. What the server
    /// accepted arrives with its changes (this device's own included), so the outline is then the server's
    /// with the actions still unsent on top: a refused move leaves its item where the server has it, never in
    /// a cycle with what others moved meanwhile. A refused part that cannot be taken back without making a
    /// cycle here calls `diverged` (the server's whole outline then replaces this one).
    func settle(_ sent: [Sent], diverged: (String) -> Void) throws -> [Refusal] {
        var refusals: [Refusal] = []
        for s in sent.reversed() {
            for (op, message) in s.refused.reversed() {
                let item = try revert(op, of: s.entry, diverged: diverged)
                refusals.append(Refusal(action: s.entry.name, message: message, item: item))
            }
        }
        if let last = sent.last { try store.removeOutbox(through: last.entry.seq) }
        for s in sent { try store.setAppValue(Key.fresh(s.entry.seq), nil) }
        return refusals.reversed()
    }

    /// Sets back what refused `op` of `entry` changed: the fields a `set` set, the parent and key of a
    /// `move`. The item, when it is still here.
    private func revert(_ op: ServerOperation, of entry: OutboxEntry, diverged: (String) -> Void) throws -> ObjectID? {
        let name: UUID, keys: [String]
        switch op {
        case .move(let id, _, _): (name, keys) = (id, ["parent", "order"])
        case .set(let id, let fields, _): (name, keys) = (id, fields.keys.sorted())
        // Never refused: inserts and restores go under "Recovered" at worst, and only the top's delete is refused,
        // which is never sent.
        case .insert, .restore, .delete: return nil
        }
        guard let id = try store.objects(named: [name]).first ?? nil else { return nil }
        let context = outline.context
        guard let item = try context.existingObject(for: id) as? Item, !item.isDeleted, !item.isRoot else { return id }
        guard let object = entry.objects.first(where: { $0.id == id }), let before = object.before, let after = object.after else { return id }
        for key in keys {
            guard let value = before[key] else { continue }
            // Only what still holds what the entry wrote: a later action's value (unsent, so on top; or sent,
            // and then arriving with the changes) stays.
            guard Self.holds(item, key, after[key]) else { continue }
            switch (key, value) {
            case ("parent", .integer(let row)):
                guard let parent = try context.existingObject(for: ObjectID(entity: id.entity, rowID: row)) as? Item, !parent.isDeleted else {
                    diverged("the place a refused move of “\(item.title)” left is gone here")
                    continue
                }
                // Bounded: a store damaged into a cycle elsewhere must not hang the round.
                var at: Item? = parent
                var steps = 0
                while let a = at, a !== item, steps <= 1_000_000 {
                    at = a.parent
                    steps += 1
                }
                if at != nil {
                    diverged("taking back a refused move of “\(item.title)” would put it inside itself here")
                    continue
                }
                if item.parent !== parent { item.setObject(parent, for: "parent") }
            case ("order", .string(let s)): if item.order != s { item.order = s }
            case ("title", .string(let s)): if item.title != s { item.title = s }
            case ("note", .string(let s)): if item.note != s { item.note = s }
            case ("note", .null): if item.note != nil { item.note = nil }
            case ("done", .bool(let b)): if item.isDone != b { item.isDone = b }
            case ("done", .integer(let n)): if item.isDone != (n != 0) { item.isDone = n != 0 }
            default: continue
            }
        }
        return id
    }

    /// Whether `item`'s `key` is `value` as an outbox entry gives it (the parent as its row ID, done as a
    /// truth value or a number).
    private static func holds(_ item: Item, _ key: String, _ value: Value?) -> Bool {
        let now: Value
        switch key {
        case "parent": now = item.parent.map { .integer($0.objectID.rowID) } ?? .null
        case "order": now = .string(item.order)
        case "title": now = .string(item.title)
        case "note": now = item.note.map(Value.string) ?? .null
        case "done": return value == .bool(item.isDone) || value == .integer(item.isDone ? 1 : 0)
        default: return false
        }
        return value == now
    }

    /// One line for a refused action: why, and where its item is now ("Move “X”: it would go inside itself;
    /// “X” stays in Projects/Y").
    private func describe(_ r: Refusal) -> String {
        let context = Context(store: store)
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

    /// The operations of each of `entries`, the same on every try: the items an entry's first plan named
    /// for the first time are kept (with the names, in one transaction for all), so a retry inserts them
    /// again rather than restoring them, and each operation keeps its index, so its ID.
    private func plan(_ entries: [OutboxEntry]) throws -> [[ServerOperation]] {
        try outline.context.transaction {
            try entries.map { entry in
                let key = Key.fresh(entry.seq)
                let recorded = try store.appValue(key)
                let entity = entry.objects.first?.id.entity ?? entry.insertedByID.first?.entity ?? 0
                let fresh = Set((recorded ?? "").split(separator: ",").compactMap { Int64($0) }.map { ObjectID(entity: entity, rowID: $0) })
                let (ops, named) = try OutboxOperations.plan(for: entry, in: outline.context, fresh: fresh)
                if recorded == nil { try store.setAppValue(key, named.map { String($0.rowID) }.joined(separator: ",")) }
                return ops
            }
        }
    }

    /// Forgets the server: nothing more is sent or received; the items stay.
    public func detach() throws {
        // With the entries' plans too (a detach between a plan and its answer leaves some).
        let fresh = try store.appValueKeys(withPrefix: Key.freshPrefix)
        for key in [Key.address, Key.outline, Key.client, Key.seq] + fresh { try store.setAppValue(key, nil) }
        try store.setOutbox(enabled: false)
    }

    private func remember(_ address: ServerAddress, _ id: UUID, _ client: UUID, seq: Int64) throws {
        try store.setAppValue(Key.address, address.description)
        try store.setAppValue(Key.outline, id.uuidString)
        try store.setAppValue(Key.client, client.uuidString)
        try store.setAppValue(Key.seq, String(seq))
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
