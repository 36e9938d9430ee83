import Foundation
import Outline
import TestSupport
import Testing

@testable import OutlineServer

/// Three connections sending random operations to one outline at once — inserts, renames, moves that cross
/// each other, deletes, restores, and operations sent twice — and then the server's invariants: no cycle,
/// sibling keys unique and valid, change numbers 1…n with no gap, every operation ID answered the same each
/// time, and the change feed replayed from the empty outline giving exactly the items stored (what a client
/// catching up by number gets).
@Suite(.onAThreadOfItsOwn("server random")) struct ServerRandomTests {
    actor Known {
        var ids: [UUID] = []
        var deleted: [ServerItem] = []
        var answers: [UUID: ServerAnswer] = [:]
        func add(_ id: UUID) { ids.append(id) }
        func pick(_ k: Int) -> UUID? { ids.isEmpty ? nil : ids[k % ids.count] }
        func gone(_ items: [ServerItem]) { deleted += items }
        func takeDeleted() -> [ServerItem] { defer { deleted = [] }; return deleted }
        func answered(_ op: UUID, _ a: ServerAnswer) -> ServerAnswer? {
            defer { if answers[op] == nil { answers[op] = a } }
            return answers[op]
        }
    }

    @Test(arguments: TestSeed.seeds([1, 2]))
    func concurrentRandomOperationsKeepTheInvariants(seed: UInt64) async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let setup = try await ServerConnection.connect(try ServerAddress(url))
        defer { Task { await setup.close() } }
        try await setup.prepare()
        let outline = UUID()
        try await setup.createOutline(outline)
        let known = Known()
        await known.add(outline)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<3 {
                group.addTask {
                    var rng = SeededRandom(seed: seed &* 31 &+ UInt64(client))
                    let server = try await ServerConnection.connect(try ServerAddress(url))
                    var sent: [(UUID, ServerOperation)] = []
                    for _ in 0..<TestScale.size(ci: 120, big: 1000) {
                        let key = OrderKey.keys(after: nil, count: 1 + rng.below(6)).last!
                        let a = await known.pick(rng.below(1000)), b = await known.pick(rng.below(1000))
                        var op: ServerOperation
                        switch rng.below(12) {
                        case 0..<4:
                            let id = UUID()
                            op = .insert(ServerItem(id: id, parent: a ?? outline, ord: key, title: "c\(client)"))
                            await known.add(id)
                        case 4..<6:
                            op = .set(id: a ?? outline, fields: ["title": .string("r\(client)"), "done": .bool(rng.below(2) == 0)], expect: nil)
                        case 6..<9: op = .move(id: a ?? outline, parent: b ?? outline, ord: key)
                        case 9: op = .delete(id: a ?? outline)
                        case 10:
                            let back = await known.takeDeleted()
                            op = .restore(back)
                        default:
                            // An operation sent again: answered as before, not applied twice.
                            guard let again = sent.randomElement(using: &rng) else { continue }
                            let answer = try await server.apply(again.1, outline: outline, opID: again.0, client: "c\(client)")
                            let first = await known.answered(again.0, answer)
                            #expect(answer.repeated && first.map { ($0.status, $0.seq) == (answer.status, answer.seq) } != false, "\(rng.note)")
                            continue
                        }
                        if case .delete(let id) = op {
                            // What a delete takes, kept for a later restore (parents first).
                            let (items, _) = try await server.items(outline: outline)
                            var under: Set<UUID> = [id]
                            for i in items where i.parent.map(under.contains) == true { under.insert(i.id) }
                            await known.gone(items.filter { under.contains($0.id) && $0.id != outline })
                        }
                        let opID = UUID()
                        let answer = try await server.apply(op, outline: outline, opID: opID, client: "c\(client)")
                        _ = await known.answered(opID, answer)
                        sent.append((opID, op))
                    }
                    await server.close()
                }
            }
            try await group.waitForAll()
        }

        let (items, last) = try await setup.items(outline: outline)
        // The tree: one top, every item reaching it, keys unique and valid under each parent.
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        #expect(items.filter { $0.parent == nil }.map(\.id) == [outline])
        for item in items {
            var at = item.id, steps = 0
            while let p = byID[at]?.parent, steps <= items.count {
                at = p
                steps += 1
            }
            #expect(at == outline, "\(item.id) does not reach the top")
        }
        var keys: Set<String> = []
        for item in items where item.parent != nil {
            #expect(OrderKey.isValid(item.ord), "\(item.ord)")
            #expect(keys.insert("\(item.parent!) \(item.ord)").inserted, "a key taken twice")
        }
        // The feed: numbered 1…last with no gap, and replayed from the empty outline it gives the items.
        var replayed: [UUID: ServerItem] = [outline: byID[outline]!]
        var numbers: [Int64] = []
        var after: Int64 = 0
        while true {
            let batch = try await setup.changes(outline: outline, after: after, limit: 100)
            if batch.isEmpty { break }
            for change in batch {
                numbers.append(change.seq)
                switch change.body {
                case .upsert(let rows): for r in rows { replayed[r.id] = r }
                case .delete(let ids): for id in ids { replayed[id] = nil }
                }
            }
            after = batch.last!.seq
        }
        #expect(last > 0 && numbers == Array(1...last))
        #expect(replayed == byID)
    }
}
