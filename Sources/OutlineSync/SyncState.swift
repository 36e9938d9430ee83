import Foundation
import ObjectGraph

/// Where a replicator's outline is shared, how far along, and what it planned for the outbox entries it
/// began sending, as one value: read whole, and written whole in one transaction (a program killed part way
/// never leaves half of it). Kept as one app value beside the items (`sync.state`, JSON); a store written by
/// an older Burrow kept it as several (`sync.address`, `sync.seq`, `sync.fresh.N`…), read once and replaced
/// by the first save.
struct SyncState: Equatable {
    /// An attach under way: set before anything goes to or comes from the server, cleared when it is done.
    /// An attach killed part way is run again and goes on (uploading again what the server may lack, or
    /// downloading again).
    enum Attaching: String, Codable {
        case uploading, downloading
    }

    /// What was decided for an outbox entry when it was first about to be sent, kept until the rebase that
    /// takes in the server's answer, so that a round cut anywhere sends exactly the same again.
    enum Plan: Equatable {
        /// Sent: the items its operations named for the first time (their rows), which a retry inserts
        /// again rather than restores.
        case sent(named: [Int64])
        /// Never sent: undone before it went (the entry of the action, or the entry of its undo).
        case withdrawn
    }

    /// The server's address, without its password.
    var address: String
    var outline: UUID
    /// This device's ID, in its operations' IDs.
    var client: UUID
    /// The last server change taken in.
    var seq: Int64
    var attaching: Attaching?
    /// By outbox entry number: the entries a round began to send (or withdrew), until a rebase takes them in.
    var plans: [Int64: Plan] = [:]
    /// Read from the several app values of an older Burrow, which a save removes.
    private var older = false

    init(address: String, outline: UUID, client: UUID, seq: Int64, attaching: Attaching?) {
        (self.address, self.outline, self.client, self.seq, self.attaching) = (address, outline, client, seq, attaching)
    }

    static func == (a: SyncState, b: SyncState) -> Bool {
        (a.address, a.outline, a.client, a.seq, a.attaching, a.plans) == (b.address, b.outline, b.client, b.seq, b.attaching, b.plans)
    }

    static let key = "sync.state"

    /// The app values an older Burrow kept it in.
    enum OlderKey {
        static let address = "sync.address", outline = "sync.outline", client = "sync.client", seq = "sync.seq", attaching = "sync.attaching"
        static let freshPrefix = "sync.fresh."
        static let all = [address, outline, client, seq, attaching]
    }

    /// The form it is stored in.
    private struct Stored: Codable {
        var address: String
        var outline: UUID
        var client: UUID
        var seq: Int64
        var attaching: Attaching?
        /// Entry number → rows named first; entries withdrawn.
        var sent: [String: [Int64]]
        var withdrawn: [Int64]
    }

    /// The state kept in `store`; nil when the outline is not shared. One that cannot be read (a part
    /// missing or damaged) is an error that says how to start again.
    static func load(_ store: Store) throws -> SyncState? {
        guard let text = try store.appValue(key) else { return try loadOlder(store) }
        let damaged = SyncError("this outline's record of its sharing is damaged: burrow sync detach, then attach again")
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { throw damaged }
        var state = SyncState(address: stored.address, outline: stored.outline, client: stored.client, seq: stored.seq, attaching: stored.attaching)
        for (entry, rows) in stored.sent {
            guard let n = Int64(entry) else { throw damaged }
            state.plans[n] = .sent(named: rows)
        }
        for n in stored.withdrawn { state.plans[n] = .withdrawn }
        return state
    }

    /// The state as an older Burrow kept it: several app values.
    private static func loadOlder(_ store: Store) throws -> SyncState? {
        guard let address = try store.appValue(OlderKey.address) else { return nil }
        let attaching = try store.appValue(OlderKey.attaching)
        guard let outline = try store.appValue(OlderKey.outline).flatMap(UUID.init(uuidString:)),
            let client = try store.appValue(OlderKey.client).flatMap(UUID.init(uuidString:)),
            let seq = try store.appValue(OlderKey.seq).flatMap({ Int64($0) }), attaching.map({ Attaching(rawValue: $0) != nil }) ?? true
        else {
            throw SyncError("this outline's record of its sharing through \(address) is damaged: burrow sync detach, then attach again")
        }
        var state = SyncState(address: address, outline: outline, client: client, seq: seq, attaching: attaching.flatMap(Attaching.init(rawValue:)))
        for key in try store.appValueKeys(withPrefix: OlderKey.freshPrefix) {
            guard let n = Int64(key.dropFirst(OlderKey.freshPrefix.count)), let rows = try store.appValue(key) else { continue }
            state.plans[n] = .sent(named: rows.split(separator: ",").compactMap { Int64($0) })
        }
        state.older = true
        return state
    }

    /// Writes the state, in the transaction under way when there is one (else in one of its own).
    mutating func save(in context: Context) throws {
        let store = context.store
        var stored = Stored(address: address, outline: outline, client: client, seq: seq, attaching: attaching, sent: [:], withdrawn: [])
        for (n, plan) in plans {
            switch plan {
            case .sent(let rows): stored.sent[String(n)] = rows
            case .withdrawn: stored.withdrawn.append(n)
            }
        }
        stored.withdrawn.sort()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(stored), as: UTF8.self)
        let older = self.older
        func write() throws {
            try store.setAppValue(Self.key, text)
            if older { try Self.forgetOlder(store) }
        }
        if store.isInTransaction { try write() } else { try ChangeApplier.unrecorded(context) { try context.transaction { try write() } } }
        self.older = false
    }

    /// Reads the state, lets `change` change it and writes it back, in the transaction under way; a store
    /// not shared (detached meanwhile by another program) is an error.
    static func update<T>(in context: Context, _ change: (inout SyncState) throws -> T) throws -> T {
        guard var state = try load(context.store) else { throw SyncError("this outline is not shared (burrow sync attach URL first)") }
        let result = try change(&state)
        try state.save(in: context)
        return result
    }

    /// Forgets the state and `others` (app values kept beside it), in one transaction.
    static func forget(in context: Context, also others: [String]) throws {
        let store = context.store
        try ChangeApplier.unrecorded(context) {
            try context.transaction {
                try store.setAppValue(key, nil)
                try forgetOlder(store)
                for key in others { try store.setAppValue(key, nil) }
            }
        }
    }

    private static func forgetOlder(_ store: Store) throws {
        for key in try OlderKey.all + store.appValueKeys(withPrefix: OlderKey.freshPrefix) { try store.setAppValue(key, nil) }
    }
}
