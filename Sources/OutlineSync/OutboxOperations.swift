import Foundation
import ObjectGraph
import Outline
import OutlineServer

/// What one saved action means to the server: the intents an outbox entry stands for, items named by
/// their external UUIDs (``Store/externalIDs(for:)``, given here to new items and kept, so a retry sends
/// the same names). Items come in before what goes under them, moves and field changes next, and of a
/// deleted subtree only its top. An item added again under a name it had (an undone delete) is restored,
/// not inserted, so the server brings back the same item; an undo or redo sends the fields it changes
/// with the values it expects, so the server skips it when someone changed them since.
///
/// ```swift
/// for entry in try store.outbox(after: sent) {
///     for op in try OutboxOperations.operations(for: entry, in: context) { send(op) }
/// }
/// ```
public enum OutboxOperations {
    /// The fields the server keeps besides place: title, note, done, and the item's shared extras (sent as
    /// `x.NAME`).
    static let fields = ["title", "note", "done"] + Item.syncedExtrasKeys
    /// What a row of an item the entry inserted without its values is read as.
    static let keys = ["parent", "order", "title", "note", "done"] + Item.syncedExtrasKeys

    /// A field's name on the server.
    static func serverName(_ field: String) -> String {
        Item.syncedExtrasKeys.contains(field) ? ServerItem.extraPrefix + field : field
    }

    /// What a stored row is read as beside a subtree's rows, for the server's items: its order key and extras.
    static let placeKeys = ["order"] + Item.syncedExtrasKeys

    /// The order key and the extras of values read with `placeKeys`.
    static func orderAndExtras(_ values: [Value]?) -> (ord: String, extras: [String: String]) {
        guard let values else { return ("", [:]) }
        return (text(values.first) ?? "", extras(Dictionary(uniqueKeysWithValues: zip(placeKeys, values))))
    }

    /// The shared extras among stored values by attribute name.
    static func extras(_ values: [String: Value]) -> [String: String] {
        var out: [String: String] = [:]
        for key in Item.syncedExtrasKeys { if case .string(let s)? = values[key] { out[key] = s } }
        return out
    }

    /// An item the entry touched: its values before and after (nil: inserted, deleted).
    struct Change {
        var id: ObjectID
        var before: [String: Value]?
        var after: [String: Value]?
    }

    /// The operations `entry` stands for, in the order to send them; none for an entry that changed
    /// nothing the server keeps (view state, counts, times).
    public static func operations(for entry: OutboxEntry, in context: Context) throws -> [ServerOperation] {
        try plan(for: entry, in: context, fresh: []).operations
    }

    /// The operations, and the added items this call gave their first names. `fresh`: added items named by
    /// an earlier plan of this same entry (a round cut before all was sent), which are still new to the
    /// server (inserted, not restored), so a retry plans exactly what the first try did.
    public static func plan(for entry: OutboxEntry, in context: Context, fresh: Set<ObjectID>) throws -> (
        operations: [ServerOperation], named: [ObjectID]
    ) {
        let store = context.store
        var changes = entry.objects.filter { $0.entity == Item.entityName }.map { Change(id: $0.id, before: $0.before, after: $0.after) }
        // Items only: an entry holds tags and their links too (rows of other entities), which the server
        // does not hold yet.
        let entity = Item.entityIndex
        if !entry.insertedByID.isEmpty {
            // Rows inserted without their values (a big import): read as stored now; one deleted since
            // sends nothing (its delete, in a later entry, finds no name and sends nothing either).
            let ids = entry.insertedByID.filter { $0.entity == entity }
            let rows = try context.storedValues(of: ids, entity: Item.entityName, keys: keys)
            for (id, row) in zip(ids, rows) {
                guard let row else { continue }
                changes.append(Change(id: id, before: nil, after: Dictionary(uniqueKeysWithValues: zip(keys, row))))
            }
        }
        func parent(_ values: [String: Value]?) -> ObjectID? {
            guard case .integer(let row)? = values?["parent"] else { return nil }
            return ObjectID(entity: entity, rowID: row)
        }
        func order(_ values: [String: Value]) -> String {
            if case .string(let s)? = values["order"] { return s }
            return ""
        }

        // Added: parents before what goes under them.
        let added = changes.filter { $0.before == nil && $0.after != nil }
        let addedIDs = Set(added.map(\.id))
        var placed: Set<ObjectID> = []
        var inOrder: [Change] = []
        var waiting = added
        while !waiting.isEmpty {
            let ready = waiting.filter { c in parent(c.after).map { !addedIDs.contains($0) || placed.contains($0) } ?? true }
            // A loop among them (a damaged store): the rest as they come.
            let next = ready.isEmpty ? waiting : ready
            inOrder += next
            placed.formUnion(next.map(\.id))
            let taken = Set(next.map(\.id))
            waiting.removeAll { taken.contains($0.id) }
        }
        let known = try store.knownExternalIDs(for: inOrder.map(\.id))
        var names: [ObjectID: UUID] = [:]
        func name(_ id: ObjectID) throws -> UUID {
            if let n = names[id] { return n }
            let n = try store.externalIDs(for: [id])[0]
            names[id] = n
            return n
        }
        var ops: [ServerOperation] = []
        var restored: [ServerItem] = []
        var named: [ObjectID] = []
        for (c, was) in zip(inOrder, known) {
            guard let after = c.after else { continue }
            if was == nil { named.append(c.id) }
            let item = ServerItem(
                id: try name(c.id), parent: try parent(after).map(name), ord: order(after), title: text(after["title"]) ?? "",
                note: text(after["note"]), isDone: after["done"] == .bool(true), extras: extras(after))
            if was != nil && !fresh.contains(c.id) { restored.append(item) } else { ops.append(.insert(item)) }
        }
        if !restored.isEmpty { ops.insert(.restore(restored), at: 0) }

        // Changed: place, then fields. An undo or redo expects what it undoes.
        let replaying = entry.kind != .action
        var sets: [ServerOperation] = []
        for c in changes {
            guard let before = c.before, let after = c.after else { continue }
            if parent(before) != parent(after) || order(before) != order(after), let to = parent(after) {
                ops.append(.move(id: try name(c.id), parent: try name(to), ord: order(after)))
            }
            var set: [String: ServerValue] = [:], expect: [String: ServerValue] = [:]
            for f in fields where (before[f] ?? .null) != (after[f] ?? .null) {
                set[serverName(f)] = value(after[f])
                expect[serverName(f)] = value(before[f])
            }
            if !set.isEmpty { sets.append(.set(id: try name(c.id), fields: set, expect: replaying ? expect : nil)) }
        }
        ops += sets

        // Deleted: the top of each subtree, when the server knows it.
        let deleted = changes.filter { $0.before != nil && $0.after == nil }
        let deletedIDs = Set(deleted.map(\.id))
        let tops = deleted.filter { c in parent(c.before).map { !deletedIDs.contains($0) } ?? true }
        for (_, n) in zip(tops, try store.knownExternalIDs(for: tops.map(\.id))) {
            if let n { ops.append(.delete(id: n)) }
        }
        return (ops, named)
    }

    static func text(_ v: Value?) -> String? {
        if case .string(let s)? = v { return s }
        return nil
    }

    static func value(_ v: Value?) -> ServerValue {
        switch v {
        case .string(let s)?: .string(s)
        case .bool(let b)?: .bool(b)
        case .integer(let i)?: .bool(i != 0)
        default: .null
        }
    }
}
