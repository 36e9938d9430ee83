import Foundation
import TestSupport
import Testing

@testable import OutlineServer

/// A server's set-up (`ServerConnection.prepare`) when another program's set-up has stopped halfway: its
/// program stopped, or its machine asleep with the connection still open, which the server notices hours later.
/// Neither test may wait for that: each has a time limit, which a set-up that waits for good runs into.
@Suite(.onAThreadOfItsOwn("server set-up"), .timeLimit(.minutes(1))) struct ServerSetUpTests {
    /// A set-up stalled mid-transaction holds nothing a set-up of another database of the cluster needs. When
    /// the role `burrow_client` (the cluster's) was made inside the transaction, the cluster's first set-up
    /// held the role's new row until its commit, and every other database's set-up waited for it.
    @Test func aStalledSetUpHoldsUpNoOtherDatabase() async throws {
        // A cluster of its own: its first set-up is the one that makes the role.
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let one = try await ServerConnection.connect(try ServerAddress(cluster.newDatabase()))
        let other = try await ServerConnection.connect(try ServerAddress(cluster.newDatabase()))
        let stall = Stall()
        async let stalled: Void = one.prepare(lockLimit: .seconds(100), midway: { await stall.hold() })
        await stall.reached()
        // The first set-up is mid-transaction: its schema made, not committed.
        try await other.prepare(lockLimit: .seconds(10))
        #expect(try await other.schemaVersion() == ServerSchema.version)
        stall.release()
        try await stalled
        #expect(try await one.schemaVersion() == ServerSchema.version)
        await one.close()
        await other.close()
    }

    /// A set-up that finds a stalled set-up of the same database holding the lock gives up after its limit and
    /// says why, leaving nothing made; once the stalled one goes on, the schema is whole, and a set-up again
    /// finds nothing left to do.
    @Test func aSetUpBehindAStalledOneGivesUpAndSaysWhy() async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let one = try await ServerConnection.connect(try ServerAddress(url))
        let other = try await ServerConnection.connect(try ServerAddress(url))
        let stall = Stall()
        async let stalled: Void = one.prepare(lockLimit: .seconds(100), midway: { await stall.hold() })
        await stall.reached()
        let refusal = await #expect(throws: ServerError.self) { try await other.prepare(lockLimit: .milliseconds(300)) }
        #expect(refusal?.code == .failed)
        let said = refusal?.message ?? ""
        #expect(said.contains("another program has been setting it up for 0.3 seconds without finishing"), "\(said)")
        #expect(try await other.schemaVersion() == 0)
        stall.release()
        try await stalled
        try await other.prepare()
        #expect(try await other.schemaVersion() == ServerSchema.version)
        await one.close()
        await other.close()
    }
}

/// A set-up held mid-transaction: ``hold()``, run inside it, says it got there and waits for ``release()``.
final class Stall: Sendable {
    private let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let releases: AsyncStream<Void>
    private let released: AsyncStream<Void>.Continuation

    init() {
        (arrivals, arrived) = AsyncStream<Void>.makeStream()
        (releases, released) = AsyncStream<Void>.makeStream()
    }

    func hold() async {
        arrived.yield()
        for await _ in releases { return }
    }

    func reached() async {
        for await _ in arrivals { return }
    }

    func release() { released.finish() }
}
