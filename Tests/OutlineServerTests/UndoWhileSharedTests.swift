import Foundation
import ObjectGraph
import Outline
import OutlineServer
import TestSupport
import Testing

@testable import OutlineSync

/// Undo while shared, on the in-memory server: an undone action that never went to the server is withdrawn
/// with its undo (neither is sent, and what others did to the item since stands); an undone action that went
/// is undone there by its inverse; both through the rebase, so the outline ends as the server has it.
@Suite struct UndoWhileSharedTests {
    /// Two devices sharing X, Y, Z through a fresh in-memory server.
    static func pair() async throws -> (ServerModel, SharingDevice, SharingDevice) {
        let server = ServerModel(address: try ServerAddress("postgres://model.invalid/undo"))
        let a = try SharingDevice(server), b = try SharingDevice(server)
        _ = try a.outline.perform("Add") { try a.outline.add(["X", "Y", "Z"].map { OutlineNode($0) }, under: try a.top) }
        _ = try await a.sync.attach(server.address, through: a.link)
        _ = try await b.sync.attach(server.address, through: b.link)
        return (server, a, b)
    }

    /// The server's outline as titles.
    static func serverLines(_ server: ServerModel, _ a: SharingDevice) async throws -> [String] {
        let id = try #require(try a.sync.status().outline)
        let (items, _) = try await server.items(outline: id)
        return SyncSimulationTests.lines(items, top: id).map { line in
            // "name title" → "title", keeping the indent.
            let indent = line.prefix { $0 == " " }
            return indent + line.dropFirst(indent.count).split(separator: " ", maxSplits: 1).dropFirst().joined()
        }
    }

    @Test func anActionUndoneBeforeItWasSentNeverReachesTheServer() async throws {
        let (server, a, b) = try await Self.pair()
        let before = try await server.changes(outline: try #require(try a.sync.status().outline), after: 0, limit: 1000).count
        // A renames X while offline, then B renames it and syncs; A undoes its rename before it went.
        try a.rename("X", to: "A's name")
        try b.rename("X", to: "B's name")
        _ = try await b.round()
        #expect(try a.outline.context.undo() == "Rename")
        #expect(try a.outline.context.store.outboxCount() == 2)
        let round = try await a.round()
        #expect(round.sent == 0 && round.withdrawn == 2 && round.notes.isEmpty, "\(round)")
        // Sent, the rename and then its undo would have put "X" back over B's rename.
        #expect(try a.lines() == ["B's name", "Y", "Z"])
        #expect(try await Self.serverLines(server, a) == ["B's name", "Y", "Z"])
        let after = try await server.changes(outline: try #require(try a.sync.status().outline), after: 0, limit: 1000).count
        #expect(after == before + 1, "only B's rename reached the server")
        #expect(try a.outline.context.store.outboxCount() == 0)
        let id = try #require(try a.sync.status().outline)
        let serverDigest = try await server.digest(outline: id)?.digest
        #expect(try a.sync.localDigest(outline: id)?.digest == serverDigest)
    }

    @Test func anActionUndoneAfterItWasSentIsUndoneOnTheServerByItsInverse() async throws {
        let (server, a, b) = try await Self.pair()
        try a.rename("X", to: "A's name")
        _ = try await a.round()
        _ = try await b.round()
        #expect(try b.lines() == ["A's name", "Y", "Z"])
        #expect(try a.outline.context.undo() == "Rename")
        let round = try await a.round()
        #expect(round.sent == 1 && round.withdrawn == 0, "\(round)")
        _ = try await b.round()
        #expect(try b.lines() == ["X", "Y", "Z"])
        #expect(try await Self.serverLines(server, a) == ["X", "Y", "Z"])
    }

    @Test func nestedUndosWithdrawEverythingAndARedoThenGoesAsItself() async throws {
        let (server, a, b) = try await Self.pair()
        let x = try a.item("X")
        _ = try a.outline.perform("Add") { try a.outline.append("new", to: x) }
        try a.rename("new", to: "renamed")
        try a.rename("Y", to: "Y2")
        #expect(try a.outline.context.undo() == "Rename")  // Y2
        #expect(try a.outline.context.undo() == "Rename")  // renamed
        #expect(try a.outline.context.undo() == "Add")
        #expect(try a.lines() == ["X", "Y", "Z"])
        var round = try await a.round()
        #expect(round.sent == 0 && round.withdrawn == 6, "\(round)")
        #expect(try await Self.serverLines(server, a) == ["X", "Y", "Z"])
        // Redone, the add goes (a new item to the server).
        #expect(try a.outline.context.redo() == "Add")
        round = try await a.round()
        #expect(round.sent == 1 && round.withdrawn == 0, "\(round)")
        _ = try await b.round()
        #expect(try b.lines() == ["X", "  new", "Y", "Z"])
    }

    @Test func anUndoOfAnActionWhoseAnswerWasLostGoesAsTheInverse() async throws {
        let (server, a, b) = try await Self.pair()
        try a.rename("X", to: "A's name")
        // The server applies it, the answer never comes back: A cannot know it went.
        a.link.fault = .answerLost
        await #expect(throws: (any Error).self) { try await a.sync.syncOnce(through: a.link) }
        a.link.fault = .none
        #expect(try a.outline.context.undo() == "Rename")
        let round = try await a.round()
        #expect(round.withdrawn == 0, "\(round)")
        _ = try await b.round()
        #expect(try b.lines() == ["X", "Y", "Z"])
        #expect(try await Self.serverLines(server, a) == ["X", "Y", "Z"])
        #expect(try a.lines() == ["X", "Y", "Z"])
    }

    @Test func anUndoAfterAnotherActionGoesAsTheInverse() async throws {
        // Only the newest action kept before the undo is withdrawn with it: here the undo skipped over one
        // (its item changed since), so the undone action is not the newest.
        let (server, a, _) = try await Self.pair()
        try a.rename("X", to: "X2")
        try a.rename("Y", to: "Y2")
        let store = a.outline.context.store
        let entries = try store.outbox(after: 0)
        #expect(entries.count == 2 && entries[0].history != nil && entries[0].history != entries[1].history)
        // B-like change made by another program without the history: Y2's undo now conflicts and is passed over.
        let other = Outline(context: Context(store: store))
        let y = try a.item("Y2")
        try ChangeApplier.unrecorded(other.context) { _ = try other.perform("Rename") { try other.rename(y, to: "Y3") } }
        #expect(throws: UndoConflict.self) { try a.outline.context.undo() }
        #expect(try a.outline.context.undo() == "Rename")
        #expect(try a.lines() == ["X", "Y3", "Z"])
        let round = try await a.round()
        #expect(round.withdrawn == 0 && round.sent == 3, "\(round)")
        #expect(try await Self.serverLines(server, a) == ["X", "Y2", "Z"])
        #expect(try a.lines() == ["X", "Y2", "Z"])
    }

    @Test func aStateKeptAsAnOlderBurrowKeptItIsReadAndReplaced() async throws {
        let (server, a, b) = try await Self.pair()
        let store = a.outline.context.store
        let state = try #require(try SyncState.load(store))
        try a.rename("X", to: "A's name")
        // As several app values, one per field and per planned entry.
        try ChangeApplier.unrecorded(a.outline.context) {
            try a.outline.context.transaction {
                try store.setAppValue(SyncState.key, nil)
                try store.setAppValue("sync.address", state.address)
                try store.setAppValue("sync.outline", state.outline.uuidString)
                try store.setAppValue("sync.client", state.client.uuidString)
                try store.setAppValue("sync.seq", String(state.seq))
            }
        }
        #expect(try a.sync.status().outline == state.outline && (try a.sync.status().pending) == 1)
        _ = try await a.round()
        _ = try await b.round()
        #expect(try b.lines() == ["A's name", "Y", "Z"])
        #expect(try store.appValueKeys(withPrefix: "sync.") == [SyncState.key])
        #expect(try await Self.serverLines(server, a) == ["A's name", "Y", "Z"])
    }
}
