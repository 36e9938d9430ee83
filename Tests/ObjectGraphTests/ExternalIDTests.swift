import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjectGraph

/// External names (UUIDs naming objects for a server that does not know row IDs): given once and kept,
/// looked up both ways, outliving their objects so an undone delete comes back under the same name, never
/// one name for two objects or two for one, written in the open transaction (and rolled back with it), and
/// agreed on by two connections naming the same objects at once. On the SQLite store and the second
/// store type alike.
@Suite struct ExternalIDTests {
    @Test(arguments: OutboxTests.Backend.allCases)
    func namesAreGivenOnceAndReadBothWays(_ backend: OutboxTests.Backend) throws {
        let dir = TemporaryDirectory("burrow-names")
        let t = try backend.world(dir)
        let ids = t.h.map(\.objectID)
        #expect(try t.store.knownExternalIDs(for: ids) == Array(repeating: nil, count: ids.count))
        #expect(try t.store.objects(named: [UUID()]) == [nil])
        let names = try t.store.externalIDs(for: [ids[0], ids[1], ids[0]])
        #expect(names[0] == names[2] && names[0] != names[1])
        #expect(try t.store.externalIDs(for: [ids[1], ids[0]]) == [names[1], names[0]])
        #expect(try t.store.knownExternalIDs(for: [ids[0], ids[2]]) == [names[0], nil])
        #expect(try t.store.objects(named: [names[1], names[0], UUID()]) == [ids[1], ids[0], nil])
    }

    @Test(arguments: OutboxTests.Backend.allCases)
    func aNameOutlivesItsObjectAndComesBackWithTheUndo(_ backend: OutboxTests.Backend) throws {
        let dir = TemporaryDirectory("burrow-names")
        let t = try backend.world(dir)
        let b = t.h[1].objectID
        let name = try #require(try t.store.externalIDs(for: [b]).first)
        t.context.delete(t.h[1])
        try t.context.save(actionName: "Delete b")
        #expect(try t.store.objects(named: [name]) == [b])
        #expect(try t.context.undo() == "Delete b")
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e"])
        #expect(try t.store.knownExternalIDs(for: [b]) == [name])
    }

    @Test(arguments: OutboxTests.Backend.allCases)
    func oneNameNamesOneObjectAndOneObjectHasOneName(_ backend: OutboxTests.Backend) throws {
        let dir = TemporaryDirectory("burrow-names")
        let t = try backend.world(dir)
        let (a, b) = (t.h[0].objectID, t.h[1].objectID)
        let given = UUID()
        #expect(try t.store.name(a, by: given))
        #expect(try t.store.name(a, by: given), "naming it again by the same name is no change")
        #expect(try !t.store.name(b, by: given), "the name is a's")
        #expect(try !t.store.name(a, by: UUID()), "a has its name")
        #expect(try t.store.knownExternalIDs(for: [a, b]) == [given, nil])
        #expect(try t.store.objects(named: [given]) == [a])
    }

    /// A name whose object was deleted here (the server still has the item, or brought it back) moves to
    /// the object made for it; a name whose object is stored never does.
    @Test(arguments: OutboxTests.Backend.allCases)
    func aNameWhoseObjectIsGoneMovesToItsNewObject(_ backend: OutboxTests.Backend) throws {
        let dir = TemporaryDirectory("burrow-names")
        let t = try backend.world(dir)
        let (b, c, d) = (t.h[1].objectID, t.h[2].objectID, t.h[3].objectID)
        let (nb, nc) = try {
            let n = try t.store.externalIDs(for: [b, c]); return (n[0], n[1])
        }()
        #expect(try !t.store.name(d, by: nc), "c is stored")
        t.context.delete(t.h[1])
        try t.context.save(actionName: "Delete b")
        #expect(try t.store.name(d, by: nb))
        #expect(try t.store.objects(named: [nb, nc]) == [d, c])
        #expect(try t.store.knownExternalIDs(for: [b, d]) == [nil, nb])
    }

    @Test(arguments: OutboxTests.Backend.allCases)
    func namesGivenInAFailedTransactionAreGone(_ backend: OutboxTests.Backend) throws {
        struct Stop: Error {}
        let dir = TemporaryDirectory("burrow-names")
        let t = try backend.world(dir)
        let a = t.h[0].objectID, c = t.h[2].objectID
        let outside = UUID()
        #expect(throws: Stop.self) {
            try t.context.transaction(actionName: "Rename a") {
                t.h[0]["title"] = "renamed"
                _ = try t.store.externalIDs(for: [a])
                try t.store.name(c, by: outside)
                throw Stop()
            }
        }
        #expect(try t.store.knownExternalIDs(for: [a, c]) == [nil, nil])
        #expect(try t.store.objects(named: [outside]) == [nil])
        // And kept with one that commits.
        var inside: UUID?
        try t.context.transaction(actionName: "Rename a") {
            t.h[0]["title"] = "renamed"
            inside = try t.store.externalIDs(for: [a]).first
        }
        #expect(try t.store.knownExternalIDs(for: [a]) == [inside])
    }

    /// Two connections to one file name the same objects at the same time, many times over: each object
    /// ends with one name, and both connections were given that name.
    @Test func twoConnectionsNamingAtOnceAgree() throws {
        let dir = TemporaryDirectory("burrow-names")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        var ids: [ObjectID] = []
        for k in 0..<200 { ids.append(try t.context.addTask("task \(k)", to: t.work, at: Int64(100 + k)).objectID) }
        try t.context.saveWithoutUndo()
        let path = dir.path(), all = ids
        let given = Mutex([[UUID]](repeating: [], count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            // Each thread its own connection, as two processes would have.
            guard let store = try? Store(path: path, model: TaskModel.model) else { return }
            let ids = all
            var mine: [UUID] = []
            // Each connection in its own order, in small groups, so they interleave.
            let order = k == 0 ? ids : ids.reversed()
            for group in stride(from: 0, to: order.count, by: 7) {
                let part = Array(order[group..<min(order.count, group + 7)])
                mine += (try? store.externalIDs(for: part)) ?? []
            }
            let sorted = Dictionary(uniqueKeysWithValues: zip(order, mine))
            given.withLock { $0[k] = ids.map { sorted[$0] ?? UUID() } }
        }
        let (first, second) = given.withLock { ($0[0], $0[1]) }
        #expect(first.count == ids.count && first == second)
        #expect(Set(first).count == ids.count)
        #expect(try t.store.objects(named: first) == ids)
    }
}
