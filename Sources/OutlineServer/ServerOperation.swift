import Foundation

/// One user action as the server applies it: an intent (put this under that parent at this key, set these
/// fields, delete this subtree), not a row image, so the server can decide against what others did meanwhile.
///
/// ```swift
/// let op = ServerOperation.set(id: item, fields: ["title": .string("Milk")], expect: nil)
/// ```
public enum ServerOperation: Equatable, Sendable {
    /// A new item under `parent` at order key `ord` (a taken key gets one just after it).
    case insert(ServerItem)
    /// Items brought back with their IDs (an undone delete), parents before children; ones present are skipped.
    case restore([ServerItem])
    /// Title, note or done set to the values given; with `expect`, only if those fields still hold them.
    case set(id: UUID, fields: [String: ServerValue], expect: [String: ServerValue]?)
    /// `id` under `parent` at `ord`; refused if it would go inside itself.
    case move(id: UUID, parent: UUID, ord: String)
    /// `id` and everything under it.
    case delete(id: UUID)

    /// The item it is about (an insert's or a restore's first), for telling a user where it is.
    public var itemID: UUID? {
        switch self {
        case .insert(let item): item.id
        case .restore(let items): items.first?.id
        case .set(let id, _, _), .move(let id, _, _), .delete(let id): id
        }
    }

    /// The operation as the JSON `burrow.apply` reads.
    var json: String {
        var o: [String: Any] = [:]
        switch self {
        case .insert(let item):
            o = item.object
            o["op"] = "insert"
        case .restore(let items):
            o = ["op": "restore", "rows": items.map(\.object)]
        case .set(let id, let fields, let expect):
            o = ["op": "set", "id": id.uuidString.lowercased(), "set": fields.mapValues(\.any)]
            if let expect { o["expect"] = expect.mapValues(\.any) }
        case .move(let id, let parent, let ord):
            o = ["op": "move", "id": id.uuidString.lowercased(), "parent": parent.uuidString.lowercased(), "ord": ord]
        case .delete(let id):
            o = ["op": "delete", "id": id.uuidString.lowercased()]
        }
        // Strings, numbers and booleans only: it cannot fail to serialise.
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// A field's value in an operation: text, a truth value, or none.
public enum ServerValue: Equatable, Sendable {
    case string(String)
    case bool(Bool)
    case null

    var any: Any {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b
        case .null: return NSNull()
        }
    }

}

/// An item as the server keeps it.
public struct ServerItem: Equatable, Sendable {
    public var id: UUID
    /// None only for the top item.
    public var parent: UUID?
    public var ord: String
    public var title: String
    public var note: String?
    public var isDone: Bool
    /// What else it says, by the client's field name (a task's `state`, `tagList`, …; schema 5), each sent
    /// and kept as `x.NAME`: the server keeps them without reading them.
    public var extras: [String: String]

    public init(
        id: UUID, parent: UUID?, ord: String, title: String, note: String? = nil, isDone: Bool = false, extras: [String: String] = [:]
    ) {
        (self.id, self.parent, self.ord, self.title, self.note, self.isDone, self.extras) = (id, parent, ord, title, note, isDone, extras)
    }

    /// The prefix of an extra's name in operations and rows (`x.state`).
    public static let extraPrefix = "x."

    /// The extras' fields a schema-5 server keeps (`ServerSchema.extraFields`).
    public static let extraFields: Set<String> = Set(
        ["state", "priority", "scheduled", "deadline", "closed", "properties", "orgHead", "tagList"].map { extraPrefix + $0 })

    var object: [String: Any] {
        var o: [String: Any] = [
            "id": id.uuidString.lowercased(), "parent": parent.map { $0.uuidString.lowercased() } ?? NSNull(), "ord": ord, "title": title,
            "note": note ?? NSNull(), "done": isDone
        ]
        for (k, v) in extras { o[Self.extraPrefix + k] = v }
        return o
    }

    /// A row as a change carries it (`burrow.row_of`); nil when any field is missing or not what it must be
    /// (read as something else, a bad parent would put the item at the top).
    init?(_ o: Any?) {
        guard let o = o as? [String: Any], let id = (o["id"] as? String).flatMap(UUID.init(uuidString:)), let ord = o["ord"] as? String,
            let title = o["title"] as? String, let done = o["done"] as? Bool
        else { return nil }
        let parent: UUID?, note: String?
        switch o["parent"] {
        case is NSNull: parent = nil
        case let text as String:
            guard let p = UUID(uuidString: text) else { return nil }
            parent = p
        default: return nil
        }
        switch o["note"] {
        case is NSNull: note = nil
        case let text as String: note = text
        default: return nil
        }
        var extras: [String: String] = [:]
        for (k, v) in o where k.hasPrefix(Self.extraPrefix) {
            guard let text = v as? String else { return nil }
            extras[String(k.dropFirst(Self.extraPrefix.count))] = text
        }
        self.init(id: id, parent: parent, ord: ord, title: title, note: note, isDone: done, extras: extras)
    }
}

/// What the server answered an operation.
public struct ServerAnswer: Equatable, Sendable {
    public enum Status: String, Sendable {
        /// Done as asked.
        case applied
        /// Done, but under “Recovered”: where it was to go was deleted.
        case recovered
        /// Not done (see ``message``): the item was deleted, or it would have gone inside itself, or an undo
        /// found its fields changed since.
        case rejected
    }

    public var status: Status
    /// The change's number, when it changed anything.
    public var seq: Int64?
    public var message: String?
    /// True when the server had applied this operation ID before and answered it again.
    public var repeated: Bool
}

/// One applied operation's effect, in sequence order: items as they now are, or items removed.
public struct ServerChange: Equatable, Sendable {
    public enum Body: Equatable, Sendable {
        case upsert([ServerItem])
        case delete([UUID])
    }

    public var seq: Int64
    public var opID: UUID
    public var client: String
    public var body: Body

    public init(seq: Int64, opID: UUID, client: String, body: Body) {
        (self.seq, self.opID, self.client, self.body) = (seq, opID, client, body)
    }
}
