import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// A connection to the PostgreSQL server that shares outlines: its schema checked or installed, operations
/// applied through `burrow.apply`, changes read after a sequence number. Every statement takes parameters.
///
/// ```swift
/// let server = try await ServerConnection.connect(try ServerAddress(url))
/// try await server.prepare()
/// let answer = try await server.apply(.delete(id: item), outline: outline, opID: UUID(), client: "laptop")
/// ```
public final class ServerConnection: Sendable {
    public let address: ServerAddress
    let connection: PostgresConnection
    let logger: Logger
    /// Set once ``ensureSchema()`` found the schema right.
    private let schemaChecked = Mutex(false)

    private init(address: ServerAddress, connection: PostgresConnection, logger: Logger) {
        self.address = address
        self.connection = connection
        self.logger = logger
    }

    /// Connects and logs in (TLS as `address.tls` says).
    public static func connect(_ address: ServerAddress, timeout: Duration = .seconds(10)) async throws(ServerError) -> ServerConnection {
        let logger = Logger(label: "burrow.server") { _ in SwiftLogNoOpLogHandler() }
        do {
            var configuration: PostgresConnection.Configuration
            if address.host.hasPrefix("/") {
                let socket = address.host + "/.s.PGSQL.\(address.port)"
                configuration = .init(unixSocketPath: socket, username: address.user, password: address.password, database: address.database)
            } else {
                configuration = .init(
                    host: address.host, port: address.port, username: address.user, password: address.password, database: address.database,
                    tls: try tls(address.tls))
            }
            configuration.options.connectTimeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            return ServerConnection(address: address, connection: connection, logger: logger)
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError(.unreachable, "cannot reach \(address): \(Self.reason(error))")
        }
    }

    private static func tls(_ mode: ServerAddress.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        var c = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable: return .disable
        case .prefer, .require: c.certificateVerification = .none
        case .verifyCA: c.certificateVerification = .noHostnameVerification
        case .verifyFull: c.certificateVerification = .fullVerification
        }
        let context = try NIOSSLContext(configuration: c)
        return mode == .prefer ? .prefer(context) : .require(context)
    }

    /// One line for the user from a driver error: the server's own message when it sent one.
    static func reason(_ error: any Error) -> String {
        if let e = error as? PSQLError {
            if let m = e.serverInfo?[.message] { return m }
            if let u = e.underlying { return String(describing: u) }
            return "\(e.code)"
        }
        if let e = error as? PostgresTransactionError {
            return reason(e.closureError ?? e.commitError ?? e.beginError ?? e.rollbackError ?? error)
        }
        return String(describing: error)
    }

    public func close() async {
        // A connection that fails to close has nothing left to do.
        try? await connection.close()
    }

    /// A connection dropped without ``close()`` (an error thrown past its owner) is closed here; the close
    /// holds the driver's connection until it is done, as the driver requires.
    deinit {
        let connection = self.connection
        if !connection.isClosed { connection.close().whenComplete { _ in _ = connection } }
    }

    /// How long one exchange with the server may take before its connection counts as lost: a server
    /// stopped (SIGSTOP) or cut off by the network answers nothing and closes nothing.
    /// Short, because postgres-nio may also leave a query unanswered that was sent as the server went away
    /// (seen under load): the status line says "offline" at most this late.
    public static let answerLimit: Duration = .seconds(10)
    /// For reading a whole outline, which may be large.
    public static let downloadLimit: Duration = .seconds(300)

    /// Runs `body` on the connection, failing at once on a connection already lost (the driver would wait
    /// forever for an answer there) and after ``answerLimit`` on one that stopped answering (then closed).
    func live<T: Sendable>(
        limit: Duration = answerLimit, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let (connection, address) = (self.connection, self.address)
        guard !connection.isClosed else { throw ServerError(.unreachable, "lost the connection to \(address)") }
        return try await Deadline.run(
            // Closing is how a late answer is cut off; a close that fails has nothing left to do.
            limit, expired: { try? await connection.close() },
            error: { ServerError(.unreachable, "\(address) did not answer within \(limit)") },
            { try await body(connection) })
    }

    /// Runs `query`, turning a driver error into a ``ServerError`` saying what was being done.
    @discardableResult
    func run(_ query: PostgresQuery, _ doing: String) async throws(ServerError) -> [PostgresRow] {
        let logger = self.logger
        do {
            return try await live { connection in
                var rows: [PostgresRow] = []
                for try await row in try await connection.query(query, logger: logger) { rows.append(row) }
                return rows
            }
        } catch let error as ServerError where error.code == .unreachable {
            throw error
        } catch {
            throw ServerError(.failed, "cannot \(doing) on \(address): \(Self.reason(error))")
        }
    }

    // MARK: Schema

    /// The server's schema version: 0 when it has none.
    public func schemaVersion() async throws(ServerError) -> Int {
        let rows = try await run(
            "SELECT CASE WHEN to_regclass('burrow.meta') IS NULL THEN NULL ELSE 1 END, to_regnamespace('burrow') IS NOT NULL", "read the schema")
        guard let row = rows.first else { return 0 }
        // A row that does not decode reads as no schema: the ensure step then says what it finds.
        let (hasMeta, hasSchema) = (try? row.decode((Int?, Bool).self)) ?? (nil, false)
        if hasMeta == nil {
            if hasSchema { throw ServerError(.schemaMismatch, "\(address) has a schema “burrow” that is not Burrow's") }
            return 0
        }
        let version = try await run("SELECT value FROM burrow.meta WHERE key = 'schema_version'", "read the schema version")
        // What the server sent that Burrow cannot read is the server's failure, said so below.
        guard let text = try? version.first?.decode(String.self), let v = Int(text) else {
            throw ServerError(.schemaMismatch, "\(address) has a schema “burrow” with no version Burrow can read")
        }
        return v
    }

    /// How long a set-up waits for another program's set-up of the same database (the schema's lock) before it
    /// gives up and says so. A set-up takes about a second; a stalled one (its program stopped, its machine
    /// asleep with the connection open) would hold the lock until the server drops that connection, hours later.
    public static let setUpLockLimit: Duration = .seconds(30)
    /// How long each statement of an upgrade waits for a table or a row that syncing programs hold: short,
    /// because their statements queue behind the waiting one (and they go offline after ``answerLimit``).
    /// `ServerSchema.clientRole` waits as long for the role (the limit is written into its statement).
    static let tableLockLimit: Duration = .seconds(5)

    /// Installs the schema on a server without one and upgrades an older one, in one transaction under a lock
    /// (two programs preparing at once install it once); refuses a newer one. Waits at most
    /// ``setUpLockLimit`` for another program's set-up of the same database, and gives up on a table that
    /// syncing programs keep busy.
    public func prepare() async throws(ServerError) { try await prepare(lockLimit: Self.setUpLockLimit) }

    /// ``prepare()``, waiting at most `lockLimit` for the schema's lock, with `midway` run inside its
    /// transaction after its statements and before its commit (where a test stalls a set-up).
    func prepare(lockLimit: Duration, midway: @Sendable () async -> Void = {}) async throws(ServerError) {
        let (address, logger) = (self.address, self.logger)
        // The role belongs to the whole cluster: made in a statement of its own (committed at once, a no-op
        // when it is there), a set-up of another database of the cluster never waits for this one's commit.
        // Made inside the transaction (as older Burrows make it), its new row held every other database's
        // set-up until that commit: waited for here as long as the statement's own limit.
        do {
            try await live { connection in
                for try await _ in try await connection.query(PostgresQuery(unsafeSQL: ServerSchema.clientRole), logger: logger) {}
            }
        } catch let error as ServerError {
            throw error
        } catch let error where Self.isLockTimeout(error) {
            throw ServerError(
                .failed,
                "cannot set up \(address): another program has been making the role burrow_client on this server for "
                    + "\(Self.spoken(Self.tableLockLimit)) without finishing (an older Burrow's set-up, stopped or cut off halfway); "
                    + "try again, or end that program's session on the server")
        } catch {
            throw ServerError(.failed, "cannot set up \(address): \(Self.reason(error))")
        }
        do {
            try await connection.withTransaction(logger: logger) { c in
                do {
                    try await c.query(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(Self.milliseconds(lockLimit))"), logger: logger)
                    // Read to its end: a statement's rows carry its error (here, a wait past the limit).
                    for try await _ in try await c.query("SELECT pg_advisory_xact_lock(hashtext('burrow schema'))", logger: logger) {}
                } catch let error where Self.isLockTimeout(error) {
                    throw ServerError(
                        .failed,
                        "cannot set up \(address): another program has held its set-up's lock for \(Self.spoken(lockLimit)) without finishing "
                            + "(a long upgrade, or a program stopped or cut off halfway); try again, or end that program's session on the server")
                }
                let current = try await schemaVersion()
                if current > ServerSchema.version {
                    throw ServerError(
                        .schemaMismatch,
                        "\(address) holds outlines of a newer Burrow (server schema \(current); this one knows \(ServerSchema.version)): update burrow"
                    )
                }
                do {
                    try await c.query(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(Self.milliseconds(Self.tableLockLimit))"), logger: logger)
                    for k in current..<ServerSchema.version {
                        for statement in ServerSchema.migrations[k] { try await c.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                        let v = String(k + 1)
                        try await c.query("UPDATE burrow.meta SET value = \(v) WHERE key = 'schema_version'", logger: logger)
                    }
                } catch let error where Self.isLockTimeout(error) {
                    throw ServerError(
                        .failed,
                        "cannot upgrade the schema of \(address): its outlines stayed in use by syncing programs for "
                            + "\(Self.spoken(Self.tableLockLimit)) (the upgrade needs them alone for a moment); try again")
                }
                await midway()
            }
        } catch let error as ServerError {
            throw error
        } catch let error as PostgresTransactionError {
            if let inner = error.closureError as? ServerError { throw inner }
            throw ServerError(.failed, "cannot set up \(address): \(Self.reason(error))")
        } catch {
            throw ServerError(.failed, "cannot set up \(address): \(Self.reason(error))")
        }
    }

    /// Whether `error` is PostgreSQL's `lock_not_available`: a wait for a lock ran past `lock_timeout`.
    static func isLockTimeout(_ error: any Error) -> Bool { (error as? PSQLError)?.serverInfo?[.sqlState] == "55P03" }

    /// `limit` as `lock_timeout` takes it: whole milliseconds, at least 1 (0 would mean no limit), at most what
    /// the setting holds.
    static func milliseconds(_ limit: Duration) -> Int64 {
        let (seconds, attoseconds) = limit.components
        guard seconds < Int64(Int32.max) / 1000 else { return Int64(Int32.max) }
        return min(Int64(Int32.max), max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    /// `limit` for a message: "30 s", "0.3 s".
    static func spoken(_ limit: Duration) -> String {
        let ms = milliseconds(limit)
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
    }

    // MARK: Outlines

    /// How many items `outline` holds, its top item included, and the number of the change they are as
    /// of (read together: a count is only comparable with a copy at that same change); nil when the server
    /// holds no such outline.
    public func itemCount(outline: UUID) async throws(ServerError) -> (count: Int, seq: Int64)? {
        let rows = try await run(
            "SELECT (SELECT count(*) FROM burrow.item WHERE outline = \(outline)), last_seq FROM burrow.outline WHERE id = \(outline)",
            "count the items")
        guard let row = rows.first else { return nil }
        // What the server sent that Burrow cannot read is the server's failure, said so below.
        guard let counted = try? row.decode((Int, Int64).self) else {
            throw ServerError(.failed, "\(address) counted the items in a way Burrow cannot read")
        }
        return counted
    }

    /// The ``OutlineDigest`` of `outline` and the number of the change it is as of (one row: the digest is
    /// kept in each change's transaction); nil when the server holds no such outline.
    public func digest(outline: UUID) async throws(ServerError) -> (digest: OutlineDigest, seq: Int64)? {
        let rows = try await run("SELECT digest, last_seq FROM burrow.outline WHERE id = \(outline)", "read the outline's digest")
        guard let row = rows.first else { return nil }
        // What the server sent that Burrow cannot read is the server's failure, said so below.
        guard let (digest, seq) = try? row.decode((Int64, Int64).self) else {
            throw ServerError(.failed, "\(address) gave a digest Burrow cannot read")
        }
        return (OutlineDigest(value: digest), seq)
    }

    /// The outlines the server holds, oldest first.
    public func outlines() async throws(ServerError) -> [UUID] {
        let rows = try await run("SELECT id FROM burrow.outline ORDER BY created, id", "list the outlines")
        return try rows.map { (row: PostgresRow) throws(ServerError) -> UUID in
            // What the server sent that Burrow cannot read is the server's failure, said so below.
            guard let id = try? row.decode(UUID.self) else { throw ServerError(.failed, "\(address) listed an outline Burrow cannot read") }
            return id
        }
    }

    /// Makes outline `id` with its top item (whose ID is the outline's), if it is not there.
    public func createOutline(_ id: UUID) async throws(ServerError) {
        try await run("SELECT burrow.create_outline(\(id))", "make the outline")
    }

    /// Applies `op` as `opID` (the same ID again is answered, not applied again) on behalf of `client`.
    public func apply(_ op: ServerOperation, outline: UUID, opID: UUID, client: String) async throws(ServerError) -> ServerAnswer {
        let json = op.json
        let rows = try await run("SELECT burrow.apply(\(outline), \(opID), \(client), \(json)::jsonb)::text", "send a change")
        // What the server sent that Burrow cannot read is the server's failure, said so below.
        guard let text = try? rows.first?.decode(String.self),
            let o = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let status = (o["status"] as? String).flatMap(ServerAnswer.Status.init(rawValue:))
        else { throw ServerError(.failed, "\(address) answered a change with something Burrow cannot read") }
        return ServerAnswer(
            status: status, seq: (o["seq"] as? NSNumber)?.int64Value, message: o["message"] as? String, repeated: o["repeated"] as? Bool ?? false)
    }

    /// Applies `ops` in order, each as its ID, in one exchange (`burrow.apply_all`: one transaction, so
    /// all or none); their answers in the same order.
    public func apply(_ ops: [(op: ServerOperation, id: UUID)], outline: UUID, client: String) async throws(ServerError) -> [ServerAnswer] {
        guard !ops.isEmpty else { return [] }
        try await ensureSchema()
        let json = "[" + ops.map { "{\"id\":\"\($0.id.uuidString)\",\"op\":\($0.op.json)}" }.joined(separator: ",") + "]"
        let rows = try await run("SELECT burrow.apply_all(\(outline), \(client), \(json)::jsonb)::text", "send changes")
        // What the server sent that Burrow cannot read is the server's failure, said so below.
        guard let text = try? rows.first?.decode(String.self),
            let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any], list.count == ops.count
        else { throw ServerError(.failed, "\(address) answered changes with something Burrow cannot read") }
        return try list.map { (item: Any) throws(ServerError) -> ServerAnswer in
            guard let o = item as? [String: Any], let status = (o["status"] as? String).flatMap(ServerAnswer.Status.init(rawValue:)) else {
                throw ServerError(.failed, "\(address) answered changes with something Burrow cannot read")
            }
            return ServerAnswer(
                status: status, seq: (o["seq"] as? NSNumber)?.int64Value, message: o["message"] as? String,
                repeated: o["repeated"] as? Bool ?? false)
        }
    }

    /// Makes sure, once per connection, that the server's schema is this program's: installs or upgrades
    /// it when older (which needs its owner's rights), refuses a newer one. A client role with only the
    /// rights `burrow_client` grants can sync with a server set up already.
    public func ensureSchema() async throws(ServerError) {
        if schemaChecked.withLock({ $0 }) { return }
        let current = try await schemaVersion()
        if current != ServerSchema.version { try await prepare() }
        schemaChecked.withLock { $0 = true }
    }

    /// The changes of `outline` numbered after `seq`, oldest first, at most `limit`.
    public func changes(outline: UUID, after seq: Int64, limit: Int) async throws(ServerError) -> [ServerChange] {
        let rows = try await run(
            "SELECT seq, op_id, client, body::text FROM burrow.change WHERE outline = \(outline) AND seq > \(seq) ORDER BY seq LIMIT \(limit)",
            "read changes")
        var out: [ServerChange] = []
        for row in rows {
            // What the server sent that Burrow cannot read is the server's failure, said so below.
            guard let (seq, opID, client, body) = try? row.decode((Int64, UUID, String, String).self),
                let o = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            else { throw ServerError(.failed, "\(address) holds a change Burrow cannot read") }
            // Nothing is skipped: a change read in part would leave this outline another one than the server's.
            let parsed: ServerChange.Body
            switch o["kind"] as? String {
            case "delete":
                let ids = (o["ids"] as? [Any])?.map { ($0 as? String).flatMap(UUID.init(uuidString:)) }
                guard let ids, !ids.contains(nil) else { throw ServerError(.failed, "\(address) holds change \(seq), which Burrow cannot read") }
                parsed = .delete(ids.compactMap { $0 })
            case "upsert":
                let rows = (o["rows"] as? [Any])?.map(ServerItem.init)
                guard let rows, !rows.contains(nil) else { throw ServerError(.failed, "\(address) holds change \(seq), which Burrow cannot read") }
                parsed = .upsert(rows.compactMap { $0 })
            default: throw ServerError(.failed, "\(address) holds change \(seq) of a kind Burrow does not know")
            }
            out.append(ServerChange(seq: seq, opID: opID, client: client, body: parsed))
        }
        return out
    }

    /// The doorbell channel `burrow.apply` rings for `outline`.
    static func doorbell(_ outline: UUID) -> String { "burrow_" + outline.uuidString.lowercased().replacingOccurrences(of: "-", with: "") }

    /// Waits on `outline`'s doorbell: `ready` once listening, then `ring` with each change number announced,
    /// until `ring` returns false. A hint only: a notification is lost with its connection, so a client reads
    /// the changes by number (``changes(outline:after:limit:)``) when rung, on reconnecting and on a timer.
    public func listen(_ outline: UUID, ready: () async -> Void = {}, _ ring: (Int64) async throws -> Bool) async throws(ServerError) {
        guard !connection.isClosed else { throw ServerError(.unreachable, "lost the connection to \(address)") }
        do {
            try await connection.listen(on: Self.doorbell(outline)) { notifications in
                await ready()
                for try await n in notifications {
                    guard let seq = Int64(n.payload) else { continue }
                    if try await !ring(seq) { return }
                }
            }
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError(.unreachable, "lost the connection to \(address) while waiting for changes: \(Self.reason(error))")
        }
    }

    /// Every item of `outline`, parents before children (the top first), and the sequence number they are as of.
    public func items(outline: UUID) async throws(ServerError) -> (items: [ServerItem], seq: Int64) {
        let logger = self.logger
        do {
            return try await live(limit: Self.downloadLimit) { connection in try await Self.items(outline, on: connection, logger: logger) }
        } catch let error as ServerError where error.code == .unreachable {
            throw error
        } catch {
            throw ServerError(.failed, "cannot read the outline from \(address): \(Self.reason(error))")
        }
    }

    /// Every item of `outline` and the sequence number they are as of, read in one snapshot.
    private static func items(_ outline: UUID, on connection: PostgresConnection, logger: Logger) async throws -> ([ServerItem], Int64) {
        try await connection.withTransaction(logger: logger) { c in
            try await c.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
            var seq: Int64 = 0
            for try await row in try await c.query("SELECT last_seq FROM burrow.outline WHERE id = \(outline)", logger: logger) {
                seq = try row.decode(Int64.self)
            }
            var items: [ServerItem] = []
            let rows = try await c.query(
                """
                WITH RECURSIVE t(id, depth) AS (SELECT id, 0 FROM burrow.item WHERE outline = \(outline) AND parent IS NULL \
                UNION ALL SELECT i.id, t.depth + 1 FROM burrow.item i JOIN t ON i.outline = \(outline) AND i.parent = t.id) \
                SELECT i.id, i.parent, i.ord, i.title, i.note, i.done, i.extras::text FROM t JOIN burrow.item i ON i.outline = \(outline) \
                AND i.id = t.id ORDER BY t.depth, i.parent, i.ord
                """, logger: logger)
            for try await row in rows {
                let (id, parent, ord, title, note, done, extrasText) = try row.decode((UUID, UUID?, String, String, String?, Bool, String).self)
                let object = try? JSONSerialization.jsonObject(with: Data(extrasText.utf8)) as? [String: Any]
                let extras = (object ?? [:]).compactMapValues { $0 as? String }
                items.append(ServerItem(id: id, parent: parent, ord: ord, title: title, note: note, isDone: done, extras: extras))
            }
            return (items, seq)
        }
    }
}
