import Foundation
import Outline
import PostgresNIO
import TestSupport
import Testing

@testable import OutlineServer

/// `burrow.apply` on a real PostgreSQL (a throwaway cluster on loopback): what PostgreSQL decides for a
/// shared outline — operations applied once, in sequence, cycles refused, sibling keys kept unique, orphans
/// recovered — and the schema's version check.
@Suite(.onAThreadOfItsOwn("server apply")) struct ServerApplyTests {
    /// A prepared server database with one outline.
    struct World {
        let server: ServerConnection
        let outline = UUID()
        let url: String

        static func make() async throws -> World {
            let url = try PostgresCluster.shared().newDatabase()
            let server = try await ServerConnection.connect(try ServerAddress(url))
            try await server.prepare()
            let w = World(server: server, url: url)
            try await server.createOutline(w.outline)
            return w
        }

        /// Inserts `title` under `parent` (the top by default) at `ord`; its ID.
        @discardableResult
        func add(_ title: String, under parent: UUID? = nil, ord: String) async throws -> UUID {
            let id = UUID()
            let answer = try await server.apply(
                .insert(ServerItem(id: id, parent: parent ?? outline, ord: ord, title: title)), outline: outline, opID: UUID(), client: "t")
            #expect(answer.status == .applied)
            return id
        }

        /// Each item's title by ID, and the titles under each parent in key order, from a fresh read.
        func tree() async throws -> [String: [String]] {
            let (items, _) = try await server.items(outline: outline)
            let title = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.title) })
            var out: [String: [String]] = [:]
            for i in items.sorted(by: { Array($0.ord.utf8).lexicographicallyPrecedes(Array($1.ord.utf8)) }) {
                guard let p = i.parent else { continue }
                out[title[p] ?? "?", default: []].append(i.title)
            }
            return out
        }
    }

    @Test func operationsAreAppliedInSequenceAndReadBackAsChanges() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let a = try await w.add("A", ord: "a0")
        let b = try await w.add("B", ord: "a1")
        let c = try await w.add("C", under: a, ord: "a0")
        let renamed = try await w.server.apply(
            .set(id: b, fields: ["title": .string("B2"), "done": .bool(true)], expect: nil), outline: w.outline, opID: UUID(), client: "t")
        #expect(renamed.status == .applied && renamed.seq == 4)
        _ = try await w.server.apply(.move(id: c, parent: b, ord: "a0"), outline: w.outline, opID: UUID(), client: "t")
        _ = try await w.server.apply(.delete(id: a), outline: w.outline, opID: UUID(), client: "t")
        #expect(try await w.tree() == ["": ["B2"], "B2": ["C"]])
        let changes = try await w.server.changes(outline: w.outline, after: 0)
        #expect(changes.map(\.seq) == [1, 2, 3, 4, 5, 6])
        #expect(changes[3].body == .upsert([ServerItem(id: b, parent: w.outline, ord: "a1", title: "B2", isDone: true)]))
        #expect(changes[5].body == .delete([a]))
        #expect(try await w.server.changes(outline: w.outline, after: 4).map(\.seq) == [5, 6])
        #expect(try await w.server.items(outline: w.outline).seq == 6)
    }

    @Test func anOperationSentTwiceIsAppliedOnce() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let op = UUID(), id = UUID()
        let insert = ServerOperation.insert(ServerItem(id: id, parent: w.outline, ord: "a0", title: "once"))
        let first = try await w.server.apply(insert, outline: w.outline, opID: op, client: "t")
        let again = try await w.server.apply(insert, outline: w.outline, opID: op, client: "t")
        #expect(!first.repeated && again.repeated)
        #expect(again.seq == first.seq && again.status == first.status)
        // Even a different body under the same ID: the server answers what it did, it does not do it again.
        let other = try await w.server.apply(.delete(id: id), outline: w.outline, opID: op, client: "t")
        #expect(other.repeated)
        #expect(try await w.tree() == ["": ["once"]])
        #expect(try await w.server.changes(outline: w.outline, after: 0).count == 1)
    }

    /// The doorbell rings with each change's number, for its outline only.
    @Test func theDoorbellRingsWithEachChangesNumber() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let listener = try await ServerConnection.connect(try ServerAddress(w.url))
        defer { Task { await listener.close() } }
        let elsewhere = UUID()
        try await w.server.createOutline(elsewhere)
        let (listening, ready) = AsyncStream.makeStream(of: Void.self)
        let heard = Task {
            var numbers: [Int64] = []
            try await listener.listen(w.outline, ready: { ready.yield() }) { seq in
                numbers.append(seq)
                return numbers.count < 3
            }
            return numbers
        }
        for await _ in listening { break }
        for k in 0..<3 {
            _ = try await w.server.apply(
                .insert(ServerItem(id: UUID(), parent: elsewhere, ord: "a\(k)", title: "not this outline")), outline: elsewhere, opID: UUID(),
                client: "t")
            try await w.add("item \(k)", ord: "a\(k)")
        }
        #expect(try await heard.value == [1, 2, 3])
    }

    @Test func aMoveInsideItselfIsRefused() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let a = try await w.add("A", ord: "a0")
        let b = try await w.add("B", under: a, ord: "a0")
        let c = try await w.add("C", under: b, ord: "a0")
        for (item, parent) in [(a, a), (a, b), (a, c)] {
            let answer = try await w.server.apply(.move(id: item, parent: parent, ord: "a5"), outline: w.outline, opID: UUID(), client: "t")
            #expect(answer.status == .rejected && answer.message == "it would go inside itself" && answer.seq == nil)
        }
        #expect(try await w.tree() == ["": ["A"], "A": ["B"], "B": ["C"]])
    }

    /// Two clients each moving one of two items under the other, at the same moment, many times: one move wins
    /// and the other is refused every time, and the tree never holds a cycle.
    @Test func concurrentCrossMovesNeverMakeACycle() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let other = try await ServerConnection.connect(try ServerAddress(w.url))
        defer { Task { await other.close() } }
        for round in 0..<40 {
            let x = try await w.add("x\(round)", ord: "a\(round % 10)V\(round)")
            let y = try await w.add("y\(round)", ord: "a\(round % 10)W\(round)")
            async let one = w.server.apply(.move(id: x, parent: y, ord: "a0"), outline: w.outline, opID: UUID(), client: "one")
            async let two = other.apply(.move(id: y, parent: x, ord: "a0"), outline: w.outline, opID: UUID(), client: "two")
            let answers = try await [one.status, two.status]
            #expect(answers.sorted { $0.rawValue < $1.rawValue } == [.applied, .rejected], "round \(round)")
        }
        // Every item reaches the top.
        let (items, _) = try await w.server.items(outline: w.outline)
        let parent = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.parent) })
        for item in items {
            var at: UUID? = item.id, steps = 0
            while let p = at, p != w.outline, steps <= items.count {
                at = parent[p] ?? nil
                steps += 1
            }
            #expect(at == w.outline)
        }
        #expect(items.count == 81)
    }

    @Test func aTakenKeyGetsOneJustAfterIt() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        try await w.add("first", ord: "a0")
        try await w.add("next", ord: "a0V")
        try await w.add("same key", ord: "a0")
        try await w.add("same key again", ord: "a0")
        try await w.add("last", ord: "a1")
        try await w.add("after last", ord: "a1")
        #expect(try await w.tree() == ["": ["first", "same key again", "same key", "next", "last", "after last"]])
        let keys = try await w.server.items(outline: w.outline).items.filter { $0.parent != nil }.map(\.ord)
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy(OrderKey.isValid))
    }

    /// The server's `key_after` against the client's keys: strictly between, and valid by the client's rules.
    @Test(arguments: TestSeed.seeds([1, 2]))
    func keysBetweenTheClientsKeys(seed: UInt64) async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        var rng = SeededRandom(seed: seed)
        var keys = OrderKey.keys(after: nil, count: 30)
        for _ in 0..<300 {
            let k = rng.below(keys.count - 1)
            keys.insert(OrderKey.between(keys[k], keys[k + 1]), at: k + 1)
        }
        for k in stride(from: 0, to: keys.count - 1, by: 3) {
            let (a, b) = (keys[k], rng.below(4) == 0 ? nil : keys[k + 1])
            let rows = try await w.server.run("SELECT burrow.key_after(\(a), \(b))", "test")
            let m = try rows[0].decode(String.self)
            #expect(OrderKey.isValid(m), "\(a) \(String(describing: b)) -> \(m)")
            #expect(Array(a.utf8).lexicographicallyPrecedes(Array(m.utf8)))
            if let b { #expect(Array(m.utf8).lexicographicallyPrecedes(Array(b.utf8)), "\(a) \(b) -> \(m)") }
        }
    }

    @Test func whatLostItsParentGoesUnderRecovered() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let a = try await w.add("A", ord: "a0")
        let b = try await w.add("B", ord: "a1")
        _ = try await w.server.apply(.delete(id: a), outline: w.outline, opID: UUID(), client: "t")
        let late = try await w.server.apply(
            .insert(ServerItem(id: UUID(), parent: a, ord: "a0", title: "written offline")), outline: w.outline, opID: UUID(), client: "t")
        #expect(late.status == .recovered && late.seq != nil)
        let moved = try await w.server.apply(.move(id: b, parent: a, ord: "a0"), outline: w.outline, opID: UUID(), client: "t")
        #expect(moved.status == .recovered)
        #expect(try await w.tree() == ["": ["Recovered"], "Recovered": ["written offline", "B"]])
    }

    @Test func anUndoThatFindsItsFieldChangedIsRefused() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let a = try await w.add("A", ord: "a0")
        _ = try await w.server.apply(.set(id: a, fields: ["title": .string("mine")], expect: nil), outline: w.outline, opID: UUID(), client: "me")
        _ = try await w.server.apply(.set(id: a, fields: ["title": .string("theirs")], expect: nil), outline: w.outline, opID: UUID(), client: "them")
        let undo = try await w.server.apply(
            .set(id: a, fields: ["title": .string("A")], expect: ["title": .string("mine")]), outline: w.outline, opID: UUID(), client: "me")
        #expect(undo.status == .rejected && undo.message == "it was changed elsewhere since")
        let gone = try await w.server.apply(
            .set(id: UUID(), fields: ["done": .bool(true)], expect: nil), outline: w.outline, opID: UUID(), client: "me")
        #expect(gone.status == .rejected && gone.message == "the item was deleted")
        #expect(try await w.tree() == ["": ["theirs"]])
    }

    @Test func aRestoreBringsBackTheSameItems() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let a = try await w.add("A", ord: "a0")
        let b = try await w.add("B", under: a, ord: "a0")
        let (before, _) = try await w.server.items(outline: w.outline)
        _ = try await w.server.apply(.delete(id: a), outline: w.outline, opID: UUID(), client: "t")
        let rows = before.filter { [a, b].contains($0.id) }
        let restored = try await w.server.apply(.restore(rows), outline: w.outline, opID: UUID(), client: "t")
        #expect(restored.status == .applied)
        #expect(try await w.server.items(outline: w.outline).items == before)
    }

    @Test func theSchemaIsInstalledOnceAndANewerOneRefused() async throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.newDatabase()
        // Two programs preparing an empty server at once.
        let one = try await ServerConnection.connect(try ServerAddress(url)), two = try await ServerConnection.connect(try ServerAddress(url))
        async let p1: Void = one.prepare()
        async let p2: Void = two.prepare()
        _ = try await (p1, p2)
        #expect(try await one.schemaVersion() == ServerSchema.version)
        try await one.prepare()
        let database = String(url.split(separator: "/").last!.split(separator: "?")[0])
        try cluster.sql("UPDATE burrow.meta SET value = '99' WHERE key = 'schema_version'", database: database)
        await #expect {
            try await two.prepare()
        } throws: { error in
            (error as? ServerError)?.code == .schemaMismatch && "\(error)".contains("server schema 99; this one knows \(ServerSchema.version)")
        }
        await one.close()
        await two.close()
        // A schema "burrow" that is someone else's.
        let foreign = try cluster.newDatabase()
        try cluster.sql("CREATE SCHEMA burrow", database: String(foreign.split(separator: "/").last!.split(separator: "?")[0]))
        let three = try await ServerConnection.connect(try ServerAddress(foreign))
        await #expect {
            try await three.prepare()
        } throws: { error in
            (error as? ServerError)?.code == .schemaMismatch && "\(error)".contains("not Burrow's")
        }
        await three.close()
    }

    /// A server set up by the first version (one operation per exchange) is upgraded by the first program
    /// that needs more, once; then operations go up many at a time, all or none, answered in order, and a
    /// batch sent again is answered again, not applied twice.
    @Test func anOlderSchemaIsUpgradedAndOperationsGoUpManyAtATime() async throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.newDatabase()
        let database = String(url.split(separator: "/").last!.split(separator: "?")[0])
        try cluster.sql("BEGIN; " + ServerSchema.migrations[0].map { $0 + ";" }.joined(separator: "\n") + " COMMIT;", database: database)
        let server = try await ServerConnection.connect(try ServerAddress(url))
        defer { Task { await server.close() } }
        #expect(try await server.schemaVersion() == 1)
        let outline = UUID()
        try await server.createOutline(outline)
        let items = (0..<300).map { ServerItem(id: UUID(), parent: outline, ord: "a0", title: "item \($0)") }
        let ops = items.map { (op: ServerOperation.insert($0), id: UUID()) }
        let answers = try await server.apply(ops, outline: outline, client: "t")
        #expect(try await server.schemaVersion() == ServerSchema.version)
        #expect(answers.count == 300 && answers.allSatisfy { $0.status == .applied && !$0.repeated })
        #expect(answers.compactMap(\.seq) == Array(1...300), "in order, one change each")
        let again = try await server.apply(ops, outline: outline, client: "t")
        #expect(again.allSatisfy(\.repeated) && again.map(\.seq) == answers.map(\.seq))
        // Keys asked for alike were made unique (each just after the one taken: see `aTakenKeyGetsOneJustAfterIt`).
        let stored = try await server.items(outline: outline).items.filter { $0.parent == outline }
        #expect(Set(stored.map(\.title)) == Set(items.map(\.title)))
        #expect(Set(stored.map(\.ord)).count == 300)
        // One bad operation fails the exchange, and nothing of it is applied.
        let bad = [(op: ServerOperation.insert(ServerItem(id: UUID(), parent: outline, ord: "z", title: "never")), id: UUID())]
        let nonsense = "[{\"id\": \"\(bad[0].id)\", \"op\": \(bad[0].op.json)}, {\"id\": \"\(UUID())\", \"op\": {\"op\": \"nonsense\"}}]"
        await #expect(throws: ServerError.self) {
            try await server.run(PostgresQuery(unsafeSQL: "SELECT burrow.apply_all('\(outline)', 't', '\(nonsense)')"), "test")
        }
        #expect(try await server.itemCount(outline: outline)?.count == 301)
        #expect(try await server.itemCount(outline: UUID()) == nil)
    }

    /// A user granted `burrow_client` applies operations and reads, and can write no table directly.
    @Test func aClientMayOnlyCallTheFunctionsAndRead() async throws {
        let w = try await World.make()
        defer { Task { await w.server.close() } }
        let cluster = try PostgresCluster.shared()
        let user = "client_" + UUID().uuidString.prefix(8).lowercased()
        try cluster.sql("CREATE ROLE \(user) LOGIN PASSWORD 'pw' IN ROLE burrow_client", database: "postgres")
        let database = String(w.url.split(separator: "/").last!.split(separator: "?")[0])
        let client = try await ServerConnection.connect(try ServerAddress(cluster.url(database: database, user: user, password: "pw")))
        defer { Task { await client.close() } }
        try await client.prepare()
        let a = UUID()
        let answer = try await client.apply(
            .insert(ServerItem(id: a, parent: w.outline, ord: "a0", title: "by a client")), outline: w.outline, opID: UUID(), client: user)
        #expect(answer.status == .applied)
        #expect(try await client.changes(outline: w.outline, after: 0).count == 1)
        // Many in one exchange, the schema checked without the owner's rights.
        try await client.ensureSchema()
        let many = try await client.apply(
            [(.set(id: a, fields: ["done": .bool(true)], expect: nil), UUID()), (.delete(id: UUID()), UUID())], outline: w.outline, client: user)
        #expect(many.map(\.status) == [.applied, .applied])
        let other = UUID()
        try await client.createOutline(other)
        #expect(try await client.items(outline: other).items.count == 1)
        for statement in [
            "UPDATE burrow.item SET title = 'x'", "DELETE FROM burrow.change",
            "INSERT INTO burrow.op VALUES (gen_random_uuid(), gen_random_uuid(), '{}')",
            "SELECT * FROM burrow.op", "UPDATE burrow.outline SET last_seq = 0", "SELECT burrow.recovered('\(w.outline)')",
            "DROP TABLE burrow.item", "CREATE TABLE burrow.mine (x int)"
        ] {
            await #expect(throws: ServerError.self, "\(statement)") {
                try await client.run(PostgresQuery(unsafeSQL: statement), "test")
            }
        }
        #expect(try await w.tree() == ["": ["by a client"]])
    }

    @Test func aWrongPasswordSaysSoWithoutShowingIt() async throws {
        let cluster = try PostgresCluster.shared()
        let url = cluster.url(database: "postgres", password: "not-the-password")
        await #expect {
            try await ServerConnection.connect(try ServerAddress(url))
        } throws: { error in
            let m = "\(error)"
            return (error as? ServerError)?.code == .unreachable && m.contains("password authentication failed") && !m.contains("not-the-password")
        }
    }
}
