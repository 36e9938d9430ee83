import Foundation
import ObjectGraph
import Outline
import OutlineServer
import TestSupport
import Testing

@testable import OutlineSync

/// One device of a shared outline for the tests on the in-memory server: a real SQLite outline, its
/// replicator, and its way to the server (a simulation `Link`, which can lose answers or go down).
final class SharingDevice {
    let dir = TemporaryDirectory("burrow-sharing")
    let outline: Outline
    let sync: Replicator
    let link: SyncSimulationTests.Link

    init(_ server: ServerModel) throws {
        outline = try Outline(path: dir.path("o.sqlite"))
        sync = Replicator(outline: outline)
        link = SyncSimulationTests.Link(server)
        _ = try outline.root()
    }

    /// The outline as indented titles, from a fresh context (as another process reads it).
    func lines() throws -> [String] {
        let fresh = Outline(context: Context(store: outline.context.store))
        return try fresh.subtree(under: try fresh.root()).map { String(repeating: "  ", count: $0.depth) + $0.title }
    }

    func item(_ title: String) throws -> ObjectID {
        let fresh = Outline(context: Context(store: outline.context.store))
        return try #require(try fresh.subtree(under: try fresh.root()).first { $0.title == title }).id
    }

    func rename(_ title: String, to new: String) throws {
        let id = try item(title)
        _ = try outline.perform("Rename") { try outline.rename(id, to: new) }
    }

    var top: ObjectID { get throws { try outline.root().objectID } }

    /// One round through the link; a repair is a failure.
    func round() async throws -> Replicator.Round {
        let round = try await sync.syncOnce(through: link)
        #expect(round.repaired == nil)
        return round
    }
}
