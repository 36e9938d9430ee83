import Foundation
import ObjectGraph
import Outline
import OutlineServer
import Testing

@testable import OutlineSync

/// The digest check after each round, on the in-memory server: an outline changed around the outbox (by a
/// program writing the file without Burrow's actions, or a bug) is found and repaired, and the round says
/// what differed; a round with nothing new compares the digest it found last instead of reading every item,
/// and must still see any commit made since.
@Suite struct ConvergenceCheckTests {
    @Test func aChangeMadeAroundTheOutboxIsFoundAndRepairedEvenAfterAnIdleRound() async throws {
        let (server, a, _) = try await UndoWhileSharedTests.pair()
        var round = try await a.sync.syncOnce(through: a.link)
        #expect(round.repaired == nil)
        // Idle: in step, nothing new on either side.
        round = try await a.sync.syncOnce(through: a.link)
        #expect(round.repaired == nil && round.sent == 0 && round.received == 0)
        // A rename no action records: the outbox never hears of it.
        let other = Outline(context: Context(store: a.outline.context.store))
        let y = try a.item("Y")
        try ChangeApplier.unrecorded(other.context) { _ = try other.perform("Rename") { try other.rename(y, to: "changed by hand") } }
        #expect(try a.outline.context.store.outboxCount() == 0)
        round = try await a.sync.syncOnce(through: a.link)
        let why = try #require(round.repaired)
        #expect(why.contains("digest") && why.contains("“Y” differs"), "\(why)")
        #expect(try a.lines() == ["X", "Y", "Z"])
        #expect(try await UndoWhileSharedTests.serverLines(server, a) == ["X", "Y", "Z"])
        round = try await a.sync.syncOnce(through: a.link)
        #expect(round.repaired == nil)
    }
}
