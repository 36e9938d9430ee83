import Foundation
import ObjectGraph
import Outline
import OutlineServer

/// One round's rebase: the local outline made the server's state with the actions still pending on top. It
/// works on the items the round concerns (those the outbox's entries touched and those the server's changes
/// name), not on the whole outline:
///
/// 1. **Base**: each item the outbox touched as the server last had it: its *shadow* (kept by the previous
///    rebase when server changes landed under a pending action) or else the values before the oldest
///    entry that touched it. Every other item here already is as the server last had it.
/// 2. **Server**: the server's changes on top, in its order (each names whole rows, so an item ends as its
///    last change says). This device's accepted actions arrive here as the server applied them; a refused
///    one never does, so it leaves no trace.
/// 3. **Pending**: the actions not sent yet applied again, oldest first, as the server will judge them: a
///    field set or move on an item deleted there is dropped, a move that would make a cycle is dropped, an
///    undo's field that someone changed since is dropped, and what would lose its parent goes to the top
///    (the server puts it under "Recovered").
///
/// Only the difference from what is stored is written, in the caller's transaction, with the same rows
/// where an item is kept: the user's selection and levels stay on their items.
struct Rebase {
    /// An item: its local row, or, for an item the server has and this store never had, its name.
    enum Key: Hashable {
        case row(Int64)
        case name(UUID)
    }

    /// What the server keeps of an item.
    struct State: Equatable {
        var parent: Key
        var ord: String
        var title: String
        var note: String?
        var done: Bool
        /// The shared extras (`Item.syncedExtrasKeys`) that have a value.
        var extras: [String: String] = [:]
    }

    let outline: Outline
    let context: Context
    let store: Store
    let root: Item
    /// The outline's UUID: the top item's name on the server.
    let top: UUID
    let entity: Int
    /// Called with why, when the server's state cannot be rebuilt here (a parent missing): a digest
    /// mismatch follows, and the server's whole outline replaces this one.
    let diverged: (String) -> Void

    private var keyOfName: [UUID: Key] = [:]
    private var nameOfRow: [Int64: UUID] = [:]
    private var stored: [Key: State?] = [:]
    /// The server's state of the items concerned (step 2).
    private(set) var server: [Key: State?] = [:]
    /// What this outline is to hold (step 3).
    private var target: [Key: State?] = [:]
    /// Items an action still pending placed (moved, added): their keys are made unique among siblings.
    private var placed: Set<Key> = []

    init(outline: Outline, top: UUID, diverged: @escaping (String) -> Void) throws {
        self.outline = outline
        context = outline.context
        store = outline.context.store
        root = try outline.root()
        self.top = top
        entity = root.objectID.entity
        self.diverged = diverged
        keyOfName[top] = .row(root.objectID.rowID)
        nameOfRow[root.objectID.rowID] = top
    }

    /// Rebases: `settled` (entries the server has answered, whose effects its changes bring back) and
    /// `pending` (entries not sent, to stay on top), over `changes`, with `shadows` (see ``shadowValue``).
    /// Returns the shadows to keep: the server's state of each named item a pending entry touched.
    mutating func run(settled: [OutboxEntry], pending: [OutboxEntry], changes: [ServerChange], shadows: [UUID: String]) throws -> [UUID: String] {
        let entries = settled + pending
        let touchedRows = Self.itemObjects(entries, entity: entity)
        var recorded: [UUID: ServerItem?] = [:]
        for (name, value) in shadows { recorded[name] = .some(try Self.item(shadow: value, name: name)) }
        // The parents the entries name are rows too: a shadow names its parent.
        var parentRows: Set<Int64> = []
        for entry in entries {
            for o in entry.objects {
                for values in [o.before, o.after] { if case .integer(let r)? = values?["parent"] { parentRows.insert(r) } }
            }
        }
        let touched = Set(touchedRows.map(\.rowID))
        try learnNames(
            rows: touchedRows + parentRows.subtracting(touched).sorted().map { ObjectID(entity: entity, rowID: $0) },
            names: changes.flatMap(Self.names) + recorded.keys.map { $0 } + recorded.values.compactMap { $0?.parent })

        // 1. Base. A shadow first: where the last rebase left an item otherwise than the server has it.
        for (name, shadow) in recorded.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            server[try key(for: name)] = .some(try shadow.map { State($0, parent: try key(for: $0.parent ?? top)) })
        }
        for entry in entries {
            for o in try objects(of: entry) where server[.row(o.id.rowID)] == nil {
                server[.row(o.id.rowID)] = .some(o.before.map(state(values:)))
            }
        }
        // 2. Server.
        for change in changes {
            switch change.body {
            case .upsert(let items):
                for item in items where item.parent != nil && item.id != top {
                    server[try key(for: item.id)] = .some(State(item, parent: try key(for: item.parent!)))
                }
            case .delete(let ids):
                for id in ids where id != top { server[try key(for: id)] = .some(nil) }
            }
        }
        // 3. Pending.
        target = server
        for entry in pending {
            let replaying = entry.kind != .action
            let changes = try objects(of: entry)
            for o in changes { try reapply(o, replaying: replaying) }
            try deleteTops(changes)
        }
        try rescueOrphans()
        try uniqueKeys()
        // Shadows: the server's state of every item a pending entry touched (its "before" goes stale as server
        // changes land under it) and of every item left otherwise than the server has it (under a pending
        // delete, moved to the top for want of its parent), which no entry would set back.
        var kept: [UUID: String] = [:]
        func keep(_ k: Key) {
            let name: UUID?
            switch k {
            case .name(let n): name = n
            case .row(let r): name = nameOfRow[r]
            }
            guard let name, let s = server[k] else { return }
            kept[name] = shadowValue(s)
        }
        for o in Self.itemObjects(pending, entity: entity) { keep(.row(o.rowID)) }
        for (k, t) in target {
            // An item the round did not otherwise concern is as the server has it when stored.
            if server[k] == nil { server[k] = .some(try storedState(k)) }
            if server[k]! != t { keep(k) }
        }
        try write()

        return kept
    }

    // MARK: Items and names

    /// The Item objects of `entries`, each once, in first-touched order.
    static func itemObjects(_ entries: [OutboxEntry], entity: Int) -> [ObjectID] {
        var seen: Set<ObjectID> = []
        var out: [ObjectID] = []
        for entry in entries {
            for id in entry.objects.map(\.id) + entry.insertedByID where id.entity == entity && seen.insert(id).inserted { out.append(id) }
        }
        return out
    }

    /// The items an entry touched with their values before and after (rows it inserted without values are
    /// read as stored now).
    private func objects(of entry: OutboxEntry) throws -> [OutboxOperations.Change] {
        var out = entry.objects.filter { $0.id.entity == entity }.map { OutboxOperations.Change(id: $0.id, before: $0.before, after: $0.after) }
        let bare = entry.insertedByID.filter { $0.entity == entity }
        if !bare.isEmpty {
            let keys = OutboxOperations.keys
            for (id, row) in zip(bare, try context.storedValues(of: bare, entity: Item.entityName, keys: keys)) {
                out.append(OutboxOperations.Change(id: id, before: nil, after: row.map { Dictionary(uniqueKeysWithValues: zip(keys, $0)) }))
            }
        }
        return out
    }

    static func names(_ change: ServerChange) -> [UUID] {
        switch change.body {
        case .upsert(let items): items.flatMap { [$0.id] + ($0.parent.map { [$0] } ?? []) }
        case .delete(let ids): ids
        }
    }

    /// Reads, in two queries, the names of the touched rows and the rows of the names.
    private mutating func learnNames(rows: [ObjectID], names: [UUID]) throws {
        for (id, name) in zip(rows, try store.knownExternalIDs(for: rows)) {
            guard let name else { continue }
            nameOfRow[id.rowID] = name
            keyOfName[name] = .row(id.rowID)
        }
        let unknown = Array(Set(names.filter { keyOfName[$0] == nil }))
        for (name, id) in zip(unknown, try store.objects(named: unknown)) {
            if let id {
                keyOfName[name] = .row(id.rowID)
                nameOfRow[id.rowID] = name
            } else {
                keyOfName[name] = .name(name)
            }
        }
    }

    private mutating func key(for name: UUID) throws -> Key {
        if let k = keyOfName[name] { return k }
        // Not met in the round's names: looked up alone.
        let k: Key = (try store.objects(named: [name]).first ?? nil).map { .row($0.rowID) } ?? .name(name)
        keyOfName[name] = k
        if case .row(let r) = k { nameOfRow[r] = name }
        return k
    }

    private func state(values v: [String: Value]) -> State {
        let parent: Key
        if case .integer(let r)? = v["parent"] { parent = .row(r) } else { parent = .row(root.objectID.rowID) }
        let ord: String
        if case .string(let s)? = v["order"] { ord = s } else { ord = "" }
        let done: Bool
        switch v["done"] {
        case .bool(let b)?: done = b
        case .integer(let n)?: done = n != 0
        default: done = false
        }
        return State(
            parent: parent, ord: ord, title: OutboxOperations.text(v["title"]) ?? "", note: OutboxOperations.text(v["note"]), done: done,
            extras: OutboxOperations.extras(v))
    }

    /// The item as stored here now (nil: not here), read once.
    private mutating func storedState(_ k: Key) throws -> State? {
        if let s = stored[k] { return s }
        var s: State?
        if case .row(let r) = k, let item = try context.existingObject(for: ObjectID(entity: entity, rowID: r)) as? Item, !item.isDeleted,
            !item.isRoot
        {
            s = State(
                parent: .row(item.parent?.objectID.rowID ?? root.objectID.rowID), ord: item.order, title: item.title, note: item.note,
                done: item.isDone, extras: item.syncedExtras)
        }
        stored[k] = .some(s)
        return s
    }

    /// The item as the rebase has it so far: in `target` when the round concerns it, else as stored.
    private mutating func now(_ k: Key) throws -> State? {
        if k == .row(root.objectID.rowID) { return nil }
        if let s = target[k] { return s }
        return try storedState(k)
    }

    private mutating func exists(_ k: Key) throws -> Bool { try k == .row(root.objectID.rowID) || now(k) != nil }

    // MARK: Step 3

    private mutating func reapply(_ o: OutboxOperations.Change, replaying: Bool) throws {
        let k = Key.row(o.id.rowID)
        switch (o.before, o.after) {
        case (nil, let after?):
            // An add (or the restore of a deleted item, which the server skips when it has the item).
            guard try now(k) == nil else { return }
            target[k] = .some(state(values: after))
            placed.insert(k)
        case (_?, nil):
            // The server deletes the top of the subtree and what is under it there then: an item the
            // entry deleted with it that has gone elsewhere since stays (see `deleteTops`).
            return
        case (let before?, let after?):
            guard var s = try now(k) else { return }  // deleted on the server: it refuses the action
            let b = state(values: before), a = state(values: after)
            if b.parent != a.parent || b.ord != a.ord, try exists(a.parent), try !isInside(a.parent, k) {
                s.parent = a.parent
                s.ord = a.ord
                placed.insert(k)
            }
            // An undo or redo expects what it undoes; another action just sets.
            if b.title != a.title && (!replaying || s.title == b.title) { s.title = a.title }
            if b.note != a.note && (!replaying || s.note == b.note) { s.note = a.note }
            if b.done != a.done && (!replaying || s.done == b.done) { s.done = a.done }
            // Each extra on its own, as the server sets them.
            for key in Set(b.extras.keys).union(a.extras.keys) where b.extras[key] != a.extras[key] {
                if !replaying || s.extras[key] == b.extras[key] { s.extras[key] = a.extras[key] }
            }
            target[k] = .some(s)
        case (nil, nil):
            return
        }
    }

    /// A pending entry's deletes, as the server will make them: each deleted subtree's top (an item the entry
    /// deleted whose parent it did not delete) and everything under it as the rebase has it now.
    private mutating func deleteTops(_ changes: [OutboxOperations.Change]) throws {
        let deleted = changes.filter { $0.before != nil && $0.after == nil }
        let gone = Set(deleted.map(\.id.rowID))
        for c in deleted {
            if case .integer(let p)? = c.before?["parent"], gone.contains(p) { continue }
            try deleteSubtree(.row(c.id.rowID))
        }
    }

    /// `top` and everything under it (as stored, with the rebase's changes) marked gone.
    private mutating func deleteSubtree(_ top: Key) throws {
        guard try now(top) != nil else { return }
        // What the rebase put under each item, indexed once: a scan of every item it holds for each item of a
        // big subtree would make deleting one quadratic.
        var placedUnder: [Key: [Key]] = [:]
        for (k, s) in target { if let p = s?.parent { placedUnder[p, default: []].append(k) } }
        var queue = [top]
        var seen: Set<Key> = []
        while let k = queue.popLast() {
            guard seen.insert(k).inserted else { continue }
            queue += try children(of: k, placedUnder: placedUnder[k] ?? [])
            target[k] = .some(nil)
        }
    }

    /// The items under `p` now: stored children still under it, and `placed` (those the rebase put there)
    /// that still are.
    private mutating func children(of p: Key, placedUnder placed: [Key]) throws -> [Key] {
        var out: Set<Key> = []
        if case .row(let r) = p, let parent = try context.existingObject(for: ObjectID(entity: entity, rowID: r)) as? Item, !parent.isDeleted {
            for child in try outline.children(of: parent) {
                let k = Key.row(child.objectID.rowID)
                if try now(k)?.parent == p { out.insert(k) }
            }
        }
        for k in placed where try now(k)?.parent == p { out.insert(k) }
        return Array(out)
    }

    /// Whether `k` is `p` or one of its ancestors (moving `k` under `p` would make a cycle). Bounded: a
    /// store damaged into a cycle elsewhere must not hang the round.
    private mutating func isInside(_ p: Key, _ k: Key) throws -> Bool {
        var at: Key? = p
        var steps = 0
        while let a = at, steps <= 1_000_000 {
            if a == k { return true }
            at = try now(a)?.parent
            steps += 1
        }
        return at != nil
    }

    /// An item whose parent is gone (an add or move pending under an item the server deleted) goes to the
    /// top rather than with its parent: the server will put it under "Recovered".
    private mutating func rescueOrphans() throws {
        for k in Array(target.keys) {
            guard let s = target[k] ?? nil, !(try exists(s.parent)) else { continue }
            if !placed.contains(k) { diverged("the parent of an item the server changed is missing here") }
            var moved = s
            moved.parent = .row(root.objectID.rowID)
            target[k] = .some(moved)
            placed.insert(k)
        }
    }

    /// An item a pending action placed whose key a sibling has here gets a free one just after it, as the
    /// server will give it: two siblings never share a key.
    private mutating func uniqueKeys() throws {
        let parents = Set(placed.compactMap { target[$0]??.parent })
        for p in parents.sorted(by: { "\($0)" < "\($1)" }) {
            var keys: [Key: String] = [:]
            if case .row(let r) = p, let parent = try context.existingObject(for: ObjectID(entity: entity, rowID: r)) as? Item, !parent.isDeleted {
                for child in try outline.children(of: parent) { keys[.row(child.objectID.rowID)] = child.order }
            }
            for (k, s) in target {
                if let s, s.parent == p { keys[k] = s.ord } else { keys[k] = nil }
            }
            let mine = placed.filter { keys[$0] != nil }.sorted { "\($0)" < "\($1)" }
            for k in mine {
                guard var s = target[k] ?? nil else { continue }
                let others = keys.filter { $0.key != k }.map(\.value)
                var ord = s.ord
                while others.contains(where: { $0.utf8.elementsEqual(ord.utf8) }) {
                    let next = others.filter { ord.utf8.lexicographicallyPrecedes($0.utf8) }.min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                    ord = OrderKey.between(ord, next)
                }
                if ord != s.ord {
                    s.ord = ord
                    target[k] = .some(s)
                    keys[k] = ord
                }
            }
        }
    }

    // MARK: Writing

    /// Writes what differs from the store: items added first, then every field and place, then what goes.
    private mutating func write() throws {
        let order = target.keys.sorted { "\($0)" < "\($1)" }
        var made: [Key: Item] = [:]
        for k in order {
            guard target[k] ?? nil != nil, try storedState(k) == nil else { continue }
            // An item deleted here comes back under its own row (its name and the entries that name the row
            // still hold); one this outline never had gets a new row and its name.
            if case .row(let r) = k, let again = try context.insert(again: ObjectID(entity: entity, rowID: r)) as? Item {
                made[k] = again
                continue
            }
            let item = try context.insert(Item.self, entity: Item.entityName)
            let name: UUID?
            switch k {
            case .name(let n): name = n
            case .row(let r): name = nameOfRow[r]
            }
            // A name whose row is gone here moves to the new row.
            if let name, try !store.name(item.objectID, by: name) {
                throw StoreError(.conflict, "the shared item \(name) is named twice in this outline")
            }
            made[k] = item
        }
        func item(_ k: Key) throws -> Item? {
            if let m = made[k] { return m }
            guard case .row(let r) = k else { return nil }
            if r == root.objectID.rowID { return root }
            guard let i = try context.existingObject(for: ObjectID(entity: entity, rowID: r)) as? Item, !i.isDeleted else { return nil }
            return i
        }
        for k in order {
            guard let want = target[k] ?? nil, let it = try item(k) else { continue }
            let parent = try item(want.parent) ?? root
            if it.parent !== parent { it.setObject(parent, for: "parent") }
            if it.order != want.ord { it.order = want.ord }
            if it.title != want.title { it.title = want.title }
            if it.note != want.note { it.note = want.note }
            if it.isDone != want.done { it.isDone = want.done }
            if it.syncedExtras != want.extras { try outline.setSyncedExtras(want.extras, of: it) }
        }
        for k in order where target[k] ?? nil == nil {
            guard let it = try item(k), !it.isRoot, !it.isDeleted else { continue }
            context.delete(it)
        }
    }

    // MARK: Shadows

    /// A state as an app value: `-` for an item not on the server, else JSON.
    func shadowValue(_ s: State?) -> String {
        guard let s else { return "-" }
        let parent: String
        switch s.parent {
        case .name(let n): parent = n.uuidString
        case .row(let r): parent = nameOfRow[r]?.uuidString ?? ""
        }
        var o: [String: Any] = ["p": parent, "o": s.ord, "t": s.title, "d": s.done]
        if let note = s.note { o["n"] = note }
        if !s.extras.isEmpty { o["x"] = s.extras }
        // Strings, numbers and booleans only: it cannot fail to serialise.
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The item a shadow holds (nil: not on the server); a shadow that cannot be read is an error.
    static func item(shadow: String, name: UUID) throws -> ServerItem? {
        if shadow == "-" { return nil }
        guard let o = try? JSONSerialization.jsonObject(with: Data(shadow.utf8)) as? [String: Any], let text = o["p"] as? String,
            let ord = o["o"] as? String, let title = o["t"] as? String, let done = o["d"] as? Bool
        else { throw SyncError("a pending action's record of the server (\(shadow.prefix(80))) cannot be read") }
        // An empty parent: one with no name here, which only the top can be for the server.
        let extras = (o["x"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        return ServerItem(id: name, parent: UUID(uuidString: text), ord: ord, title: title, note: o["n"] as? String, isDone: done, extras: extras)
    }
}

extension Rebase.State {
    init(_ item: ServerItem, parent: Rebase.Key) {
        self.init(parent: parent, ord: item.ord, title: item.title, note: item.note, done: item.isDone, extras: item.extras)
    }
}
