import Foundation
import ObjectGraph
import Outline
import OutlineServer
import TestSupport
import Testing

@testable import OutlineSync

/// Issue 30's failure, on the in-memory server: A moves X under Y while offline, B moves Y under X and syncs,
/// then A syncs. The server refuses A's move (it would put X inside itself); A must end as the server is
/// (X ▸ Y, Z), with nothing hidden in a cycle, and A's user told what happened to the move.
@Suite struct CrossingMoveTests {
    @Test func aMoveRefusedForACycleLeavesTheItemWhereTheServerHasIt() async throws {
        let address = try ServerAddress("postgres://model.invalid/crossing")
        let server = ServerModel(address: address)
        let a = try SharingDevice(server), b = try SharingDevice(server)
        _ = try a.outline.perform("Add") { try a.outline.add(["X", "Y", "Z"].map { OutlineNode($0) }, under: try a.top) }
        _ = try await a.sync.attach(address, through: a.link)
        _ = try await b.sync.attach(address, through: b.link)
        #expect(try b.lines() == ["X", "Y", "Z"])

        // A, offline: X under Y (it waits in A's outbox).
        try a.outline.perform("Move") { try a.outline.move(try a.item("X"), to: try a.item("Y"), at: 0) }
        // B: Y under X, sent.
        try b.outline.perform("Move") { try b.outline.move(try b.item("Y"), to: try b.item("X"), at: 0) }
        _ = try await b.sync.syncOnce(through: b.link)
        // A, back online.
        let round = try await a.sync.syncOnce(through: a.link)
        let (items, _) = try await server.items(
            outline: try #require(try a.sync.status().outline))
        #expect(items.count == 4)

        #expect(try b.lines() == ["X", "  Y", "Z"])
        #expect(try a.lines() == ["X", "  Y", "Z"], "A hides what the cycle holds")
        #expect(try a.outline.check().isEmpty)
        #expect(try a.sync.status().pending == 0)
        #expect(round.notes.contains { $0.contains("X") && $0.contains("inside itself") }, "\(round.notes)")
    }
}
