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
        /// True when the server's whole outline replaced this one, which had gone its own way.
        public var replaced = false
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
    public func attach(_ address: ServerAddress, through connection: ServerConnection) async throws -> String {
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
    public func syncOnce(through connection: ServerConnection) async throws -> Round {
        guard let id = try store.appValue(Key.outline).flatMap(UUID.init(uuidString:)),
            let client = try store.appValue(Key.client).flatMap(UUID.init(uuidString:))
        else { throw SyncError("this outline is not shared (burrow sync attach URL first)") }
        var round = Round()
        for _ in 0..<8 {
            try await send(id, client, &round)
            var seq = try store.appValue(Key.seq).flatMap { Int64($0) } ?? 0
            var blocked = false
            var diverged = false
            while true {
                let changes = try await connection.changes(outline: id, after: seq)
                guard let last = changes.last else { break }
                guard try ChangeApplier.apply(changes, to: outline, checkpoint: Key.seq, unlessPending: true, diverged: { _ in diverged = true })
                else {
                    blocked = true
                    break
                }
                round.received += changes.count
                seq = last.seq
            }
            if blocked { continue }
            // This outline went its own way (a change needed an item it had deleted meanwhile, or it holds
            // another number of items): the server's whole outline replaces it.
            // Every stored item, the top included, counted by the store (no rows read).
            let local = try outline.context.count(FetchRequest("Item"))
            // A server without this outline (another server's URL given, the outline removed there) would
            // look like an empty one, and replacing this outline by it would empty it.
            guard let server = try await connection.itemCount(outline: id) else {
                let attached = try store.appValue(Key.address) ?? "another server"
                throw SyncError("\(connection.address) does not hold this outline (it is shared through \(attached))")
            }
            // Changes made meanwhile: the counts would be of two moments (a drift seen where there is none).
            if !diverged && server.seq != seq { continue }
            if diverged || server.count != local {
                let (items, at) = try await connection.items(outline: id)
                guard try ChangeApplier.replace(with: items, seq: at, in: outline, checkpoint: Key.seq) else { continue }
                round.replaced = true
            }
            return round
        }
        return round

        // The outbox goes up in exchanges of about `Self.batch` operations (whole entries), each one
        // transaction on the server: a thousand actions queued offline take one round trip, not a thousand.
        func send(_ id: UUID, _ client: UUID, _ round: inout Round) async throws {
            while true {
                let entries = try store.outbox(after: 0, limit: Self.batch)
                guard !entries.isEmpty else { return }
                var ops: [(op: ServerOperation, id: UUID)] = [], names: [String] = [], sent: [OutboxEntry] = []
                for (entry, planned) in zip(entries, try plan(entries)) {
                    if !sent.isEmpty && ops.count + planned.count > Self.batch { break }
                    for (k, op) in planned.enumerated() {
                        ops.append((op, Self.opID(client, entry: entry.seq, index: k)))
                        names.append(entry.name)
                    }
                    sent.append(entry)
                }
                let answers = try await connection.apply(ops, outline: id, client: client.uuidString)
                round.sent += answers.count
                for (answer, name) in zip(answers, names) where answer.status != .applied {
                    round.notes.append("\(name): \(answer.message ?? answer.status.rawValue)")
                }
                guard let last = sent.last else { return }
                try store.removeOutbox(through: last.seq)
                try outline.context.transaction { for entry in sent { try store.setAppValue(Key.fresh(entry.seq), nil) } }
            }
        }
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
