import Foundation
import Synchronization
import TestSupport
import Testing

@testable import OutlineServer

/// A server's set-up (`ServerConnection.prepare`) when another program's set-up has stopped halfway: its
/// program stopped, or its machine asleep with the connection still open, which the server notices hours later.
/// No test may wait for that: each has a time limit, which a set-up that waits for good runs into.
@Suite(.onAThreadOfItsOwn("server set-up"), .timeLimit(.minutes(2))) struct ServerSetUpTests {
    /// A set-up stalled mid-transaction holds nothing a set-up of another database of the cluster needs. When
    /// the role `burrow_client` (the cluster's) was made inside the transaction, the cluster's first set-up
    /// held the role's new row until its commit, and every other database's set-up waited for it; a set-up
    /// behind such an older one gives up after its limit and says why.
    @Test func aStalledSetUpHoldsUpNoOtherDatabase() async throws {
        // A cluster of its own: its first set-up is the one that makes the role.
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let one = try await ServerConnection.connect(try ServerAddress(cluster.newDatabase()))
        let other = try await ServerConnection.connect(try ServerAddress(cluster.newDatabase()))

        // An older Burrow's set-up, stalled after making the role inside its transaction.
        let older = try await ServerConnection.connect(try ServerAddress(cluster.newDatabase()))
        try await older.connection.query("BEGIN", logger: older.logger)
        try await older.connection.query("CREATE ROLE burrow_client NOLOGIN", logger: older.logger)
        let refusal = await #expect(throws: ServerError.self) { try await other.prepare() }
        let said = refusal?.message ?? ""
        #expect(said.contains("another program has been making the role burrow_client on this server for 5 s without finishing"), "\(said)")
        try await older.connection.query("ROLLBACK", logger: older.logger)
        await older.close()

        let stall = Stall()
        async let stalled: Void = Self.setUp(one, stalledBy: stall)
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
        async let stalled: Void = Self.setUp(one, stalledBy: stall)
        await stall.reached()
        let refusal = await #expect(throws: ServerError.self) { try await other.prepare(lockLimit: .milliseconds(300)) }
        #expect(refusal?.code == .failed)
        let said = refusal?.message ?? ""
        #expect(said.contains("another program has held its set-up's lock for 0.3 s without finishing"), "\(said)")
        #expect(try await other.schemaVersion() == 0)
        stall.release()
        try await stalled
        try await other.prepare()
        #expect(try await other.schemaVersion() == ServerSchema.version)
        await one.close()
        await other.close()
    }

    /// An upgrade that finds a table held by a syncing program (a long download's transaction) waits a few
    /// seconds, not for good (other programs' statements queue behind its wait), rolls back, and says why;
    /// once the table is free, it goes through.
    @Test func anUpgradeBehindABusyTableGivesUpAndSaysWhy() async throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.newDatabase()
        let database = String(url.split(separator: "/").last!.split(separator: "?")[0])
        let older = (0..<(ServerSchema.version - 1)).flatMap { ServerSchema.migrations[$0] }.map { $0 + ";" }.joined(separator: "\n")
        let version = "UPDATE burrow.meta SET value = '\(ServerSchema.version - 1)' WHERE key = 'schema_version';"
        try cluster.sql("BEGIN; \(older) \(version) COMMIT;", database: database)
        let reader = try await ServerConnection.connect(try ServerAddress(url))
        let server = try await ServerConnection.connect(try ServerAddress(url))
        #expect(try await server.schemaVersion() == ServerSchema.version - 1)
        try await reader.connection.query("BEGIN", logger: reader.logger)
        for try await _ in try await reader.connection.query("SELECT count(*) FROM burrow.item", logger: reader.logger) {}
        let refusal = await #expect(throws: ServerError.self) { try await server.prepare() }
        let said = refusal?.message ?? ""
        #expect(said.contains("its outlines stayed in use by syncing programs for 5 s"), "\(said)")
        #expect(try await server.schemaVersion() == ServerSchema.version - 1)
        try await reader.connection.query("COMMIT", logger: reader.logger)
        // The upgrade's statements wait under the table limit, not the set-up lock's (which also ends a wait).
        let setting = Mutex("")
        try await server.prepare(
            lockLimit: .seconds(100),
            midway: {
                let rows = try? await server.connection.query("SHOW lock_timeout", logger: server.logger).collect()
                setting.withLock { $0 = (try? rows?.first?.decode(String.self)) ?? "unread" }
            })
        #expect(setting.withLock { $0 } == "5s")
        #expect(try await server.schemaVersion() == ServerSchema.version)
        await reader.close()
        await server.close()
    }

    /// The limit as `lock_timeout` takes it, whole milliseconds (a limit ten times too long would pass the
    /// tests above), and as a message says it.
    @Test func limitsInMilliseconds() {
        let cases: [(Duration, Int64, String)] = [
            (.milliseconds(300), 300, "0.3 s"), (.seconds(30), 30_000, "30 s"), (.seconds(5), 5000, "5 s"), (.microseconds(1), 1, "0.001 s"),
            (.zero, 1, "0.001 s"), (.milliseconds(1500), 1500, "1.5 s"), (.seconds(10_000_000), Int64(Int32.max), "2147483.647 s")
        ]
        for (limit, milliseconds, spoken) in cases {
            #expect(ServerConnection.milliseconds(limit) == milliseconds, "\(limit)")
            #expect(ServerConnection.spoken(limit) == spoken, "\(limit)")
        }
    }

    /// Sets `connection` up, stalled by `stall` before its commit; a set-up that fails before it gets there
    /// lets the test's wait for it end.
    static func setUp(_ connection: ServerConnection, stalledBy stall: Stall) async throws {
        defer { stall.abandon() }
        try await connection.prepare(lockLimit: .seconds(100), midway: { await stall.hold() })
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

    /// Ends the wait of ``reached()`` whether or not the set-up got there.
    func abandon() { arrived.finish() }
}
