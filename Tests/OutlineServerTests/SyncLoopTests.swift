import Foundation
import ObjectGraph
import Outline
import OutlineServer
import TestSupport
import Testing

@testable import OutlineSync

/// The sync a running outliner keeps up, on a cluster of its own (the test stops and restarts it): an
/// action saved into one store reaches the other store through the doorbell, long before the fallback
/// timer; with the server down the loop says offline and counts what waits; after the restart it
/// reconnects by itself and what waited arrives; detached, the loop ends.
@Suite(.serialized, .onAThreadOfItsOwn("sync loop test")) struct SyncLoopTests {
    /// The loops' thread: blocking tests running beside these (processes waited for, kills) can hold the
    /// concurrency pool's two threads for a minute, and a loop on the pool then notices nothing meanwhile.
    static let executor = ThreadExecutor(name: "sync loops")

    /// Waits on `condition`, checking every 10 ms, up to `limit`; false when it never held.
    static func eventually(_ limit: Duration = .seconds(30), _ condition: () throws -> Bool) async throws -> Bool {
        let clock = ContinuousClock(), end = clock.now + limit
        while clock.now < end {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try condition()
    }

    /// The titles of the outline at `path`, from a connection of its own (as another process sees them).
    static func titles(_ path: String) throws -> [String] {
        let outline = try Outline(path: path)
        return try outline.subtree(under: try outline.root()).map(\.title)
    }

    /// Two stores attached to a new database of `cluster`: the first with `titles`, the second downloaded.
    static func pair(_ cluster: PostgresCluster, _ titles: [String], _ dir: TemporaryDirectory) async throws -> (String, String, String) {
        let url = try cluster.newDatabase()
        let a = dir.path("a.sqlite"), b = dir.path("b.sqlite")
        for (path, seed) in [(a, titles), (b, [])] {
            let outline = try Outline(path: path)
            if !seed.isEmpty { _ = try outline.perform("Add") { try outline.append(titles: seed, to: try outline.root().objectID) } }
            let connection = try await ServerConnection.connect(try ServerAddress(url))
            _ = try await Replicator(outline: outline).attach(try ServerAddress(url), through: connection)
            await connection.close()
        }
        return (url, a, b)
    }

    @Test func actionsArriveAtOnceAndOfflineActionsAfterARestart() async throws {
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let dir = TemporaryDirectory("burrow-sync-loop")
        let (url, a, b) = try await Self.pair(cluster, ["one"], dir)
        // A fallback far longer than the waits: what arrives came by the watcher and the doorbell.
        let loopA = SyncLoop(path: a, url: url, fallback: .seconds(600), executor: Self.executor)
        let loopB = SyncLoop(path: b, url: url, fallback: .seconds(600), executor: Self.executor)
        loopA.start()
        loopB.start()
        defer {
            loopA.stop()
            loopB.stop()
        }
        #expect(try await Self.eventually { loopA.state.online && loopB.state.online })

        // Saved into A's store by another connection, as the outliner saves.
        let editor = try Outline(path: a)
        _ = try editor.perform("Add") { try editor.append("two", to: try editor.root().objectID) }
        // Within the wait's 30 s, so by the doorbell: B's timer rings every 600 s, and nothing changes B's files.
        #expect(try await Self.eventually { try Self.titles(b) == ["one", "two"] })
        // The store's outbox, not only the state: B can show "two" while A's round that sent it is still under
        // way, with the state's 0 from the round before. Stopped then, that round keeps "two" (rightly: its
        // answer never came), and three wait below instead of two.
        #expect(try await Self.eventually { try editor.context.store.outboxCount() == 0 && loopA.state.pending == 0 })

        // Server down: A says so and counts what waits.
        try cluster.stop()
        _ = try editor.perform("Add") { try editor.append("three", to: try editor.root().objectID) }
        try editor.perform("Rename") { try editor.rename(try #require(editor.subtree(under: editor.root()).first?.id), to: "one!") }
        // At once, or after `answerLimit` when the driver lost a query sent as the server went.
        #expect(try await Self.eventually(.seconds(60)) { !loopA.state.online && loopA.state.pending == 2 }, "\(loopA.state)")
        #expect(loopA.state.problem != nil)
        #expect(try Self.titles(b) == ["one", "two"])

        // Back up: both reconnect by themselves; what waited arrives, in order.
        try cluster.restart()
        #expect(try await Self.eventually { try Self.titles(b) == ["one!", "two", "three"] })
        #expect(try await Self.eventually { loopA.state.online && loopA.state.pending == 0 && loopB.state.online })
        #expect(try Self.titles(a) == (try Self.titles(b)))
        let notes = loopA.takeNotes() + loopB.takeNotes()
        #expect(notes.isEmpty, "\(notes)")
        #expect(try Outline(path: a).check().isEmpty && (try Outline(path: b).check().isEmpty))
    }

    @Test func aRefusedActionIsANoteAndDetachingEndsTheLoop() async throws {
        let cluster = try PostgresCluster.shared()
        let dir = TemporaryDirectory("burrow-sync-loop")
        let (url, a, b) = try await Self.pair(cluster, ["list"], dir)
        // B deletes the list; A, not running its loop yet, adds into it: the server puts that under "Recovered".
        let editorB = try Outline(path: b), editorA = try Outline(path: a)
        try editorB.perform("Delete") { try editorB.delete(try #require(editorB.subtree(under: editorB.root()).first?.id)) }
        let connection = try await ServerConnection.connect(try ServerAddress(url))
        _ = try await Replicator(outline: editorB).syncOnce(through: connection)
        await connection.close()
        _ = try editorA.perform("Add") { try editorA.append("into the list", to: try #require(editorA.subtree(under: editorA.root()).first?.id)) }

        let loop = SyncLoop(path: a, url: url, fallback: .seconds(600), executor: Self.executor)
        loop.start()
        defer { loop.stop() }
        var notes: [String] = []
        #expect(
            try await Self.eventually {
                notes += loop.takeNotes()
                return !notes.isEmpty
            })
        #expect(notes.first?.contains("Recovered") == true, "\(notes)")
        #expect(try await Self.eventually { try Self.titles(a) == ["Recovered", "into the list"] })

        try Replicator(outline: try Outline(path: a)).detach()
        #expect(try await Self.eventually { loop.state.ended })
        #expect(loop.state.problem == "no longer shared")
    }
}
