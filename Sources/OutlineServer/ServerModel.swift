import Foundation
import Synchronization

/// The server's rules (``ServerSchema``'s `burrow.apply`) kept in memory: one order for every operation,
/// operation IDs answered once, moves that would make a cycle refused, sibling keys kept unique (a taken key
/// gets one just after it), what lost its parent put under "Recovered", and a numbered change feed. For
/// simulations of many devices in one process; `ServerModelTests` checks it answers as PostgreSQL does.
///
/// ```swift
/// let server = ServerModel(address: try ServerAddress("postgres://model/sim"))
/// try await server.createOutline(outline)
/// let answers = try await server.apply([(op: .delete(id: item), id: UUID())], outline: outline, client: "a")
/// ```
public final class ServerModel: SharedOutlineServer {
    public let address: ServerAddress
    private let state: Mutex<State>

    /// `makeID` names the "Recovered" items it makes (PostgreSQL takes random ones; a simulation wants them
    /// from its seed).
    public init(address: ServerAddress, makeID: @escaping @Sendable () -> UUID = { UUID() }) {
        self.address = address
        state = Mutex(State(makeID: makeID))
    }

    public func ensureSchema() async throws(ServerError) {}

    public func outlines() async throws(ServerError) -> [UUID] { state.withLock { $0.order } }

    public func createOutline(_ id: UUID) async throws(ServerError) {
        state.withLock { s in
            guard s.outlines[id] == nil else { return }
            s.order.append(id)
            s.outlines[id] = StoredOutline(top: ServerItem(id: id, parent: nil, ord: "a0", title: ""))
        }
    }

    public func apply(_ ops: [(op: ServerOperation, id: UUID)], outline: UUID, client: String) async throws(ServerError) -> [ServerAnswer] {
        try state.withLock { (s: inout State) throws(ServerError) -> [ServerAnswer] in
            guard s.outlines[outline] != nil else { throw ServerError(.failed, "\(address) holds no outline \(outline)") }
            // Changed in place (a copy per call would cost the whole outline). No operation fails part way, so
            // this is all or none, as `apply_all`'s one transaction is.
            let makeID = s.makeID
            return ops.map { s.outlines[outline]!.apply($0.op, id: $0.id, client: client, makeID: makeID) }
        }
    }

    public func changes(outline: UUID, after seq: Int64, limit: Int) async throws(ServerError) -> [ServerChange] {
        state.withLock { s in
            guard let o = s.outlines[outline] else { return [] }
            // Change k is at index k - 1: numbered from 1 with no gap.
            let start = Int(max(0, min(seq, Int64(o.changes.count))))
            return Array(o.changes[start..<min(o.changes.count, start + max(0, limit))])
        }
    }

    public func items(outline: UUID) async throws(ServerError) -> (items: [ServerItem], seq: Int64) {
        state.withLock { s in
            guard let o = s.outlines[outline] else { return ([], 0) }
            return (o.parentsFirst(), o.lastSeq)
        }
    }

    /// How many items `outline` holds (its top included) as of which change; nil when there is no such outline.
    public func itemCount(outline: UUID) async throws(ServerError) -> (count: Int, seq: Int64)? {
        state.withLock { s in s.outlines[outline].map { ($0.items.count, $0.lastSeq) } }
    }

    public func digest(outline: UUID) async throws(ServerError) -> (digest: OutlineDigest, seq: Int64)? {
        state.withLock { s in s.outlines[outline].map { ($0.digest, $0.lastSeq) } }
    }

    struct State {
        var outlines: [UUID: StoredOutline] = [:]
        var order: [UUID] = []
        let makeID: @Sendable () -> UUID
    }

    /// One outline's items, its feed and the answers given, as `burrow.item`, `burrow.change` and `burrow.op`.
    struct StoredOutline {
        let top: UUID
        var items: [UUID: ServerItem]
        /// Each parent's children, for the sibling and subtree walks.
        var children: [UUID: Set<UUID>] = [:]
        var changes: [ServerChange] = []
        var answers: [UUID: ServerAnswer] = [:]
        var recovered: UUID?
        /// Kept with every row written or removed, as `burrow.keep_digest` keeps `burrow.outline.digest`.
        var digest = OutlineDigest()
        var lastSeq: Int64 { Int64(changes.count) }

        init(top: ServerItem) {
            self.top = top.id
            items = [top.id: top]
        }

        /// `burrow.apply`, rule for rule.
        mutating func apply(_ op: ServerOperation, id opID: UUID, client: String, makeID: () -> UUID) -> ServerAnswer {
            if var answer = answers[opID] {
                answer.repeated = true
                return answer
            }
            var status = ServerAnswer.Status.applied
            var message: String?
            var rows: [ServerItem] = []
            var gone: [UUID]?
            switch op {
            case .restore(let list):
                insert(list, status: &status, message: &message, rows: &rows, makeID: makeID)
            case .insert(let item):
                insert([item], status: &status, message: &message, rows: &rows, makeID: makeID)
            case .set(let id, let fields, let expect):
                guard var item = items[id] else {
                    (status, message) = (.rejected, "the item was deleted")
                    break
                }
                // An undo says what it expects to find: someone else's change since wins.
                if let expect, expect.contains(where: { !Self.holds(item, $0.key, $0.value) }) {
                    (status, message) = (.rejected, "it was changed elsewhere since")
                    break
                }
                if let title = fields["title"] { item.title = title.text ?? "" }
                if let note = fields["note"] { item.note = note.text }
                if let done = fields["done"] { item.isDone = done.truth ?? false }
                // As `apply` does: known extras only, each text or none.
                for (key, value) in fields where ServerItem.extraFields.contains(key) {
                    switch value {
                    case .string(let text): item.extras[String(key.dropFirst(ServerItem.extraPrefix.count))] = text
                    case .null: item.extras[String(key.dropFirst(ServerItem.extraPrefix.count))] = nil
                    case .bool: break
                    }
                }
                put(item)
                rows = [item]
            case .move(let id, let to, let ord):
                guard id != top, items[id] != nil else {
                    (status, message) = (.rejected, "the item was deleted")
                    break
                }
                var parent = to
                if items[parent] == nil {
                    // The "Recovered" item goes with the change (first: parents before children), made or not.
                    parent = recoveredItem(makeID)
                    status = .recovered
                    rows.append(items[parent]!)
                    message = "where it went was deleted: it is under “Recovered”"
                }
                if parent == id || ancestors(of: parent).contains(id) {
                    (status, message) = (.rejected, "it would go inside itself")
                    break
                }
                // The key is chosen with the item still where it was, as the SQL's UPDATE does.
                var item = items[id]!
                let key = freeKey(under: parent, want: ord, besides: id)
                children[item.parent!]?.remove(id)
                item.parent = parent
                item.ord = key
                place(item)
                rows.append(item)
            case .delete(let id):
                guard id != top else {
                    (status, message) = (.rejected, "the top item cannot be deleted")
                    break
                }
                gone = items[id] == nil ? [] : subtree(of: id)
                for g in gone! {
                    if let gone = items[g] {
                        if let p = gone.parent { children[p]?.remove(g) }
                        digest.toggle(gone)
                    }
                    items[g] = nil
                    children[g] = nil
                }
            }
            var seq: Int64?
            if status != .rejected, !rows.isEmpty || !(gone ?? []).isEmpty {
                seq = lastSeq + 1
                changes.append(ServerChange(seq: seq!, opID: opID, client: client, body: gone.map { .delete($0) } ?? .upsert(rows)))
            }
            let answer = ServerAnswer(status: status, seq: seq, message: message, repeated: false)
            answers[opID] = answer
            return answer
        }

        /// An insert's or a restore's rows: ones present skipped, a missing parent replaced by "Recovered".
        private mutating func insert(
            _ list: [ServerItem], status: inout ServerAnswer.Status, message: inout String?, rows: inout [ServerItem], makeID: () -> UUID
        ) {
            for var item in list where items[item.id] == nil {
                if item.parent.flatMap({ items[$0] }) == nil {
                    let r = recoveredItem(makeID)
                    item.parent = r
                    status = .recovered
                    rows.append(items[r]!)
                    message = "its parent was deleted: it is under “Recovered”"
                }
                item.ord = freeKey(under: item.parent!, want: item.ord, besides: item.id)
                // As `extras_of`: known extras only.
                item.extras = item.extras.filter { ServerItem.extraFields.contains(ServerItem.extraPrefix + $0.key) }
                place(item)
                rows.append(item)
            }
        }

        private mutating func place(_ item: ServerItem) {
            put(item)
            if let p = item.parent { children[p, default: []].insert(item.id) }
        }

        /// Writes `item`'s row, its digest share replacing the old row's.
        private mutating func put(_ item: ServerItem) {
            if let old = items[item.id] { digest.toggle(old) }
            items[item.id] = item
            digest.toggle(item)
        }

        /// `burrow.recovered`: the item that takes what lost its parent, made at the end of the top level.
        private mutating func recoveredItem(_ makeID: () -> UUID) -> UUID {
            if let r = recovered, items[r] != nil { return r }
            let r = makeID()
            let last = children[top, default: []].compactMap { items[$0]?.ord }.max(by: Self.before)
            place(ServerItem(id: r, parent: top, ord: Self.key(after: last ?? "a0", before: nil), title: "Recovered"))
            recovered = r
            return r
        }

        /// `burrow.free_key`: `want` unless a sibling under `parent` other than `me` has it, else a key just after.
        private func freeKey(under parent: UUID, want: String, besides me: UUID) -> String {
            let siblings = children[parent, default: []].compactMap { items[$0] }
            var k = want
            while siblings.contains(where: { $0.ord.utf8.elementsEqual(k.utf8) && $0.id != me }) {
                let next = siblings.map(\.ord).filter { Self.before(k, $0) }.min(by: Self.before)
                k = Self.key(after: k, before: next)
            }
            return k
        }

        private func ancestors(of id: UUID) -> Set<UUID> {
            var seen: Set<UUID> = []
            var at = items[id]?.parent
            while let p = at, seen.insert(p).inserted { at = items[p]?.parent }
            return seen
        }

        private func subtree(of id: UUID) -> [UUID] {
            var out: [UUID] = [id]
            var k = 0
            while k < out.count {
                out += children[out[k], default: []].sorted { $0.uuidString < $1.uuidString }
                k += 1
            }
            return out
        }

        /// Every item, parents first (the top, then level by level), as `items(outline:)` gives them.
        func parentsFirst() -> [ServerItem] {
            var out: [ServerItem] = []
            var level = [top]
            while !level.isEmpty {
                let here = level.compactMap { items[$0] }
                out += here
                level = here.flatMap { item in
                    children[item.id, default: []].compactMap { items[$0] }.sorted { Self.before($0.ord, $1.ord) }.map(\.id)
                }
            }
            return out
        }

        /// Whether field `name` of `item` is `value`, as `row_of(o, i)->f IS NOT DISTINCT FROM expect->f` says
        /// (a field the row does not have never is; an extra it does not have is none).
        static func holds(_ item: ServerItem, _ name: String, _ value: ServerValue) -> Bool {
            if name.hasPrefix(ServerItem.extraPrefix) {
                return value == (item.extras[String(name.dropFirst(ServerItem.extraPrefix.count))].map(ServerValue.string) ?? .null)
            }
            switch name {
            case "title": return value == .string(item.title)
            case "note": return value == (item.note.map(ServerValue.string) ?? .null)
            case "done": return value == .bool(item.isDone)
            case "ord": return value == .string(item.ord)
            case "id": return value == .string(item.id.uuidString.lowercased())
            case "parent": return value == (item.parent.map { .string($0.uuidString.lowercased()) } ?? .null)
            default: return false
            }
        }

        /// Byte order, as PostgreSQL's "C" collation compares keys.
        static func before(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

        /// `burrow.key_after`: a key strictly between `a` and `b` (nil: no upper bound).
        static func key(after a: String, before b: String?) -> String {
            let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            guard let b, b.hasPrefix(a) else { return a + "V" }
            let s = Array(b.dropFirst(a.count))
            var n = 0
            while n < s.count && s[n] == "0" { n += 1 }
            let d = n < s.count ? (digits.firstIndex(of: s[n]) ?? -1) : -1
            let zeros = String(s[..<n])
            if d > 1 { return a + zeros + String(digits[(d + 1) / 2]) }
            if s.count > n + 1 { return a + String(s[...n]) }
            return a + zeros + "0V"
        }
    }
}

extension ServerValue {
    fileprivate var text: String? { if case .string(let s) = self { return s } else { return nil } }
    fileprivate var truth: Bool? { if case .bool(let b) = self { return b } else { return nil } }
}
