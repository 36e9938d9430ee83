import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// The outbox with real `burrow` processes writing at once: every command's action is in it once, numbered
/// in commit order, and an undo from the command line too; a process killed mid-import leaves its rows and
/// its entry together or neither.
@Suite(.onAThreadOfItsOwn("processes")) struct OutboxProcessTests {
    @Test func concurrentCommandsEachLeaveOneEntry() throws {
        let dir = TemporaryDirectory("burrow-outbox-processes")
        let db = dir.path()
        let outline = try Outline(path: db)
        _ = try outline.root()
        try outline.context.store.setOutbox(enabled: true)
        let results = try BurrowProcess.concurrently(6) { k in
            (0..<4).map { n in BurrowProcess.run(["add", "w\(k) n\(n)", "--db", db]).status }
        }
        #expect(results.flatMap { $0 }.allSatisfy { $0 == 0 })
        #expect(BurrowProcess.run(["undo", "--db", db]).status == 0)
        let entries = try outline.context.store.outbox(after: 0, limit: 1000)
        #expect(entries.count == 25)
        #expect(entries.map(\.seq) == entries.map(\.seq).sorted())
        let added = entries.dropLast().compactMap { e in e.objects.first { $0.before == nil }?.after?["title"] }
        #expect(Set(added) == Set((0..<6).flatMap { k in (0..<4).map { Value.string("w\(k) n\($0)") } }))
        let last = try #require(entries.last)
        #expect(last.name.hasPrefix("Undo ") && last.objects.contains { $0.after == nil && $0.before != nil })
        // Each item added is in the outline, and the undone one is not.
        let undone = try #require(last.objects.first { $0.after == nil }?.before?["title"])
        #expect(!added.isEmpty && added.contains(undone))
    }

    /// `burrow import` killed at random points: the outbox holds the import's entry exactly when its rows
    /// were committed.
    @Test func aKilledImportLeavesRowsAndEntryTogether() throws {
        let dir = TemporaryDirectory("burrow-outbox-kill")
        let file = dir.path("big.txt")
        try (0..<60_000).map { "item \($0)" }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        var rng = SeededRandom(seed: 7)
        var committed = 0, killed = 0
        for round in 0..<6 {
            let db = dir.path("store\(round).sqlite")
            let outline = try Outline(path: db)
            _ = try outline.root()
            try outline.context.store.setOutbox(enabled: true)
            let p = try BurrowProcess.start(["import", file, "--db", db])
            // The first round is killed early, the second left to finish, the rest killed anywhere in it.
            if round != 1 {
                usleep(UInt32(round == 0 ? 30_000 : 50_000 + rng.below(2_500_000)))
                p.signal(SIGKILL)
            }
            p.waitUntilExit()
            let items = try Outline(path: db).context.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Item") ?? 0 }
            let entries = try outline.context.store.outbox(after: 0, limit: 10)
            if items > 1 {
                committed += 1
                #expect(entries.count == 1 && entries[0].insertedByID.count + entries[0].objects.count >= items - 1, "round \(round)")
            } else {
                killed += 1
                #expect(entries.isEmpty, "round \(round)")
            }
        }
        // Both outcomes met, or the test proves nothing.
        #expect(committed >= 1 && killed >= 1, "\(committed) committed, \(killed) killed")
    }
}
