import Foundation
import ObjectGraph

/// Where a replicator's outline is shared and how far along, as one value: read whole, and written whole in
/// one transaction (a program killed part way never leaves half of it). Kept as app values beside the items
/// (`sync.address`, `sync.outline`, `sync.client`, `sync.seq`, `sync.attaching`).
struct SyncState: Equatable {
    /// An attach under way: set before anything goes to or comes from the server, cleared when it is done.
    /// An attach killed part way is run again and goes on (uploading again what the server may lack, or
    /// downloading again).
    enum Attaching: String {
        case uploading, downloading
    }

    /// The server's address, without its password.
    var address: String
    var outline: UUID
    /// This device's ID, in its operations' IDs.
    var client: UUID
    /// The last server change taken in.
    var seq: Int64
    var attaching: Attaching?

    enum Key {
        static let address = "sync.address", outline = "sync.outline", client = "sync.client", seq = "sync.seq"
        static let attaching = "sync.attaching"
    }

    /// The state kept in `store`; nil when the outline is not shared. One that cannot be read (a part
    /// missing or damaged) is an error that says how to start again.
    static func load(_ store: Store) throws -> SyncState? {
        guard let address = try store.appValue(Key.address) else { return nil }
        let attaching = try store.appValue(Key.attaching)
        guard let outline = try store.appValue(Key.outline).flatMap(UUID.init(uuidString:)),
            let client = try store.appValue(Key.client).flatMap(UUID.init(uuidString:)),
            let seq = try store.appValue(Key.seq).flatMap({ Int64($0) }), attaching.map({ Attaching(rawValue: $0) != nil }) ?? true
        else {
            throw SyncError("this outline's record of its sharing through \(address) is damaged: burrow sync detach, then attach again")
        }
        return SyncState(address: address, outline: outline, client: client, seq: seq, attaching: attaching.flatMap(Attaching.init(rawValue:)))
    }

    /// Writes the state, in the transaction under way when there is one (else in one of its own).
    func save(in context: Context) throws {
        let store = context.store
        func write() throws {
            try store.setAppValue(Key.address, address)
            try store.setAppValue(Key.outline, outline.uuidString)
            try store.setAppValue(Key.client, client.uuidString)
            try store.setAppValue(Key.seq, String(seq))
            try store.setAppValue(Key.attaching, attaching?.rawValue)
        }
        if store.isInTransaction { try write() } else { try ChangeApplier.unrecorded(context) { try context.transaction { try write() } } }
    }

    /// Forgets the state, in one transaction.
    static func forget(in context: Context, also others: [String]) throws {
        let store = context.store
        try ChangeApplier.unrecorded(context) {
            try context.transaction {
                for key in [Key.address, Key.outline, Key.client, Key.seq, Key.attaching] + others { try store.setAppValue(key, nil) }
            }
        }
    }
}
