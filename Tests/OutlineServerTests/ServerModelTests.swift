import Foundation
import Outline
import PostgresNIO
import TestSupport
import Testing

@testable import OutlineServer

/// `ServerModel` keeps the server's rules in memory for simulations; these tests keep it honest: the same
/// random operations sent to it and to PostgreSQL's `burrow.apply` get the same answers, the same change feed
/// and the same items. The generator aims at the rules' edges (moves into an item's own subtree, parents
/// deleted meanwhile, taken keys, undos that find their fields changed, operation IDs sent again, the top
/// item) and says how often it hit each.
@Suite(.onAThreadOfItsOwn("server model")) struct ServerModelTests {
    /// What the generator made happen, to print and to check that each rule was exercised.
    struct Tally: CustomStringConvertible {
        var ops = 0, cycles = 0, recovered = 0, rekeyed = 0, expectRefused = 0, deletedRefused = 0, repeated = 0, batches = 0, extras = 0
        var description: String {
            "\(ops) operations in \(batches) batches (\(extras) setting extras): \(cycles) moves refused as cycles, \(recovered) put under Recovered, "
                + "\(rekeyed) keys taken (given one after), \(expectRefused) undos refused for changed fields, "
                + "\(deletedRefused) refused for a deleted item, \(repeated) sent again"
        }
    }

    @Test(arguments: TestSeed.seeds([1, 2, 3]))
    func theModelAnswersAsPostgreSQLDoes(seed: UInt64) async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let real = try await ServerConnection.connect(try ServerAddress(url))
        defer { Task { await real.close() } }
        try await real.prepare()
        let model = ServerModel(address: try ServerAddress("postgres://model.invalid/sim"))
        let outline = UUID()
        try await real.createOutline(outline)
        try await model.createOutline(outline)
        #expect(try await model.outlines() == [outline])

        var rng = SeededRandom(seed: seed)
        var tally = Tally()
        var known: [UUID] = [outline]
        var sent: [(op: ServerOperation, id: UUID)] = []
        // PostgreSQL names the "Recovered" item it makes at random; its name here is the model's.
        var renamed: [UUID: UUID] = [:]
        var feedSeen: Int64 = 0
        func translated(_ id: UUID) -> UUID { renamed[id] ?? id }
        func translated(_ item: ServerItem) -> ServerItem { Self.renaming(item, renamed) }

        for _ in 0..<TestScale.size(ci: 150, big: 1000) {
            var batch: [(op: ServerOperation, id: UUID)] = []
            for _ in 0..<(rng.below(4) == 0 ? 1 + rng.below(6) : 1) {
                let (items, _) = try await model.items(outline: outline)
                let present = items.map(\.id)
                let a = rng.pick(rng.below(4) == 0 ? known : present) ?? outline
                let b = rng.pick(rng.below(5) == 0 ? known : present) ?? outline
                // Keys from a small set, so that siblings often want the same one.
                let key = OrderKey.keys(after: nil, count: 1 + rng.below(4)).last!
                var op: ServerOperation
                switch rng.below(20) {
                case 0..<6:
                    let id = UUID()
                    known.append(id)
                    let extras = rng.below(3) == 0 ? ["state": "TODO", "tagList": ":w:", "future": "x"] : [:]
                    op = .insert(
                        ServerItem(id: id, parent: b, ord: key, title: "t\(rng.below(9))", note: rng.below(3) == 0 ? "n" : nil, extras: extras))
                case 6:
                    op = .set(id: a, fields: ["title": .string("r\(rng.below(9))"), "done": .bool(rng.below(2) == 0)], expect: nil)
                case 7:
                    // Extras, each set or removed on its own; an undo's expects them (a missing one as null).
                    let now = items.first { $0.id == a }
                    // An extra no schema-5 device keeps is not kept either.
                    let key = ["x.state", "x.tagList", "x.deadline", "x.future"][rng.below(4)]
                    let value: ServerValue = rng.below(3) == 0 ? .null : .string(["TODO", ":a:b:", "2026-12-01", "ünï"][rng.below(4)])
                    let was = now?.extras[String(key.dropFirst(2))].map(ServerValue.string) ?? .null
                    op = .set(id: a, fields: [key: value], expect: rng.below(3) == 0 ? [key: rng.below(2) == 0 ? was : .string("other")] : nil)
                    tally.extras += 1
                case 8:
                    // An undo: expects what it replaces, right or wrong.
                    let now = items.first { $0.id == a }
                    op = .set(
                        id: a, fields: ["title": .string("u"), "note": .null],
                        expect: ["title": .string(rng.below(2) == 0 ? now?.title ?? "" : "other"), "note": now?.note.map(ServerValue.string) ?? .null]
                    )
                case 9..<13:
                    op = .move(id: a, parent: b, ord: key)
                case 13..<15:
                    // Into its own subtree, when it has one.
                    let under = items.filter { i in Self.ancestors(of: i.id, in: items).contains(a) }
                    op = .move(id: a, parent: rng.pick(under)?.id ?? a, ord: key)
                case 15..<17:
                    op = .delete(id: a)
                case 17:
                    // Deleted items back, parents first, some already there again.
                    let gone = known.filter { !present.contains($0) }.prefix(3).map {
                        ServerItem(id: $0, parent: rng.pick(known) ?? outline, ord: key, title: "back")
                    }
                    op = .restore(Array(gone))
                default:
                    guard let again = rng.pick(sent) else { continue }
                    batch.append(again)
                    tally.repeated += 1
                    continue
                }
                batch.append((op: op, id: UUID()))
            }
            guard !batch.isEmpty else { continue }
            tally.ops += batch.count
            tally.batches += 1
            sent += batch
            // The model's "Recovered" is PostgreSQL's under another name: operations on it go to that one.
            let back = Dictionary(renamed.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
            let answers = try await real.apply(batch.map { (op: Self.renaming($0.op, back), id: $0.id) }, outline: outline, client: "c")
            let expected = try await model.apply(batch, outline: outline, client: "c")
            #expect(answers == expected, "\(batch.map(\.op)) \(rng.note)")
            for answer in expected where !answer.repeated {
                if answer.message == "it would go inside itself" { tally.cycles += 1 }
                if answer.status == .recovered { tally.recovered += 1 }
                if answer.message == "it was changed elsewhere since" { tally.expectRefused += 1 }
                if answer.message == "the item was deleted" { tally.deletedRefused += 1 }
            }
            // The feed: each change the same, once PostgreSQL's Recovered is named as the model's.
            let fresh = try await real.changes(outline: outline, after: feedSeen, limit: 100)
            let mine = try await model.changes(outline: outline, after: feedSeen, limit: 100)
            feedSeen = mine.last?.seq ?? feedSeen
            #expect(fresh.count == mine.count, "\(rng.note)")
            let opByID = Dictionary(batch.map { ($0.id, $0.op) }, uniquingKeysWith: { a, _ in a })
            for (r, m) in zip(fresh, mine) {
                #expect((r.seq, r.opID, r.client) == (m.seq, m.opID, m.client))
                switch (r.body, m.body) {
                case (.upsert(let rows), .upsert(let theirs)):
                    for (x, y) in zip(rows, theirs) where x.title == "Recovered" && y.title == "Recovered" && x.id != y.id {
                        renamed[x.id] = y.id
                    }
                    #expect(rows.map(translated) == theirs, "change \(r.seq) \(rng.note)")
                    // A key asked for that a sibling had: the item got one just after it.
                    switch opByID[m.opID] {
                    case .insert(let item)?: if theirs.contains(where: { $0.id == item.id && $0.ord != item.ord }) { tally.rekeyed += 1 }
                    case .move(let id, _, let ord)?: if theirs.contains(where: { $0.id == id && $0.ord != ord }) { tally.rekeyed += 1 }
                    default: break
                    }
                case (.delete(let ids), .delete(let theirs)):
                    #expect(Set(ids.map(translated)) == Set(theirs), "change \(r.seq) \(rng.note)")
                default:
                    Issue.record("change \(r.seq): \(r.body) here, \(m.body) in the model, \(rng.note)")
                }
            }
        }
        let (items, seq) = try await real.items(outline: outline)
        let (theirs, theirSeq) = try await model.items(outline: outline)
        #expect(seq == theirSeq)
        let byID = { (a: ServerItem, b: ServerItem) in a.id.uuidString < b.id.uuidString }
        #expect(items.map(translated).sorted(by: byID) == theirs.sorted(by: byID), "\(rng.note)")
        #expect(try await real.itemCount(outline: outline)?.count == theirs.count)
        // The digests each keeps with every change are those of the items each holds now.
        #expect(try await real.digest(outline: outline)?.digest == OutlineDigest(items), "\(rng.note)")
        #expect(try await model.digest(outline: outline)?.digest == OutlineDigest(theirs), "\(rng.note)")
        print("ServerModelTests \(rng.note): \(tally)")
        // A run that never reached a rule proves nothing about it.
        #expect(
            tally.cycles > 0 && tally.recovered > 0 && tally.rekeyed > 0 && tally.expectRefused > 0 && tally.deletedRefused > 0 && tally.repeated > 0
                && tally.extras > 0,
            "\(tally)")
    }

    @Test func keysAfterAreTheSQLs() async throws {
        // `key_after` ported: the cases its branches take, and random neighbours of OrderKey's.
        let url = try PostgresCluster.shared().newDatabase()
        let real = try await ServerConnection.connect(try ServerAddress(url))
        defer { Task { await real.close() } }
        try await real.prepare()
        var pairs: [(String, String?)] = [
            ("a0", nil), ("a0", "a1"), ("a0", "a0V"), ("a0", "a005"), ("a0", "a01"), ("a0", "a002"), ("a0", "b0"), ("Zz", "a0")
        ]
        var rng = SeededRandom(seed: 5)
        for _ in 0..<40 {
            let keys = OrderKey.keys(after: nil, count: 2 + rng.below(30))
            let k = rng.below(keys.count - 1)
            pairs.append((keys[k], keys[k + 1]))
            pairs.append((keys[k], OrderKey.between(keys[k], keys[k + 1])))
        }
        for (a, b) in pairs {
            let rows = try await real.run("SELECT burrow.key_after(\(a), \(b))", "key")
            let sql = try rows.first?.decode(String.self)
            #expect(sql == ServerModel.StoredOutline.key(after: a, before: b), "\(a) \(b ?? "nil")")
        }
    }

    @Test func digestsAreTheSQLs() async throws {
        // `burrow.item_hash` and OutlineDigest.hash build the same bytes for texts of every kind, and the
        // triggers keep the digest through inserts, sets, moves, deletes and an outline made before them.
        let url = try PostgresCluster.shared().newDatabase()
        let real = try await ServerConnection.connect(try ServerAddress(url))
        defer { Task { await real.close() } }
        try await real.prepare()
        let outline = UUID()
        try await real.createOutline(outline)
        #expect(try await real.digest(outline: outline)?.digest == OutlineDigest(), "the top item counts for nothing")
        let titles = [
            "", "plain", "ünïcödé ✓", "日本語のタイトル", "emoji 👩‍👩‍👧", "tab\there", "new\nline", "quote \" ' \\", String(repeating: "long ", count: 300)
        ]
        var ids: [UUID] = []
        for (k, title) in titles.enumerated() {
            let id = UUID()
            ids.append(id)
            let note: String? = k % 3 == 0 ? nil : k % 3 == 1 ? "" : title + " note"
            _ = try await real.apply(
                .insert(ServerItem(id: id, parent: k > 2 ? ids[k - 2] : outline, ord: "a\(k)", title: title, note: note, isDone: k % 2 == 0)),
                outline: outline, opID: UUID(), client: "t")
        }
        func same(_ why: String) async throws {
            let (items, seq) = try await real.items(outline: outline)
            let kept = try #require(try await real.digest(outline: outline))
            #expect(kept.seq == seq, "\(why)")
            #expect(kept.digest == OutlineDigest(items), "\(why)")
        }
        try await same("inserts")
        _ = try await real.apply(
            .set(id: ids[3], fields: ["title": .string("Ωmega"), "note": .null, "done": .bool(true)], expect: nil), outline: outline, opID: UUID(),
            client: "t")
        try await same("a set")
        _ = try await real.apply(.move(id: ids[5], parent: outline, ord: "a1"), outline: outline, opID: UUID(), client: "t")
        try await same("a move onto a taken key")
        _ = try await real.apply(.delete(id: ids[1]), outline: outline, opID: UUID(), client: "t")
        try await same("a subtree deleted")
        // An outline made by schema 2 gets its digest when the server is upgraded.
        _ = try await real.run("UPDATE burrow.outline SET digest = 0", "forget")
        for statement in ServerSchema.version3.suffix(2).prefix(1) { _ = try await real.run(PostgresQuery(unsafeSQL: statement), "recompute") }
        try await same("computed for an outline already there")
    }

    /// `item` with the IDs `names` maps replaced.
    static func renaming(_ item: ServerItem, _ names: [UUID: UUID]) -> ServerItem {
        var i = item
        i.id = names[i.id] ?? i.id
        i.parent = i.parent.map { names[$0] ?? $0 }
        return i
    }

    /// `op` with the IDs `names` maps replaced.
    static func renaming(_ op: ServerOperation, _ names: [UUID: UUID]) -> ServerOperation {
        func n(_ id: UUID) -> UUID { names[id] ?? id }
        func item(_ i: ServerItem) -> ServerItem { renaming(i, names) }
        switch op {
        case .insert(let i): return .insert(item(i))
        case .restore(let list): return .restore(list.map(item))
        case .set(let id, let fields, let expect): return .set(id: n(id), fields: fields, expect: expect)
        case .move(let id, let parent, let ord): return .move(id: n(id), parent: n(parent), ord: ord)
        case .delete(let id): return .delete(id: n(id))
        }
    }

    static func ancestors(of id: UUID, in items: [ServerItem]) -> Set<UUID> {
        let parent = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.parent) })
        var seen: Set<UUID> = []
        var at = parent[id] ?? nil
        while let p = at, seen.insert(p).inserted { at = parent[p] ?? nil }
        return seen
    }
}
