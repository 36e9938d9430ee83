import Foundation

/// What a device needs of the server that shares its outline: the outlines it holds, operations applied in
/// one order for everyone, the change feed, a whole outline at once. ``ServerConnection`` (PostgreSQL) is the
/// real one; ``ServerModel`` keeps the same rules in memory, so a seeded simulation can run many devices, cuts
/// and lost answers in one process, and a test checks that both give the same answers.
///
/// ```swift
/// let server: any SharedOutlineServer = ServerModel(address: try ServerAddress("postgres://model/sim"))
/// try await server.createOutline(outline)
/// ```
public protocol SharedOutlineServer: AnyObject, Sendable {
    /// Where it is, for messages (never with a password).
    var address: ServerAddress { get }

    /// Makes sure the server can be used by this program (its schema installed or upgraded, a newer one refused).
    func ensureSchema() async throws(ServerError)

    /// The outlines the server holds, oldest first.
    func outlines() async throws(ServerError) -> [UUID]

    /// Makes outline `id` with its top item (whose ID is the outline's), if it is not there.
    func createOutline(_ id: UUID) async throws(ServerError)

    /// Applies `ops` in order, each as its ID (an ID seen before is answered again, not applied again), all or
    /// none; their answers in the same order.
    func apply(_ ops: [(op: ServerOperation, id: UUID)], outline: UUID, client: String) async throws(ServerError) -> [ServerAnswer]

    /// The changes of `outline` numbered after `seq`, oldest first, at most `limit`.
    func changes(outline: UUID, after seq: Int64, limit: Int) async throws(ServerError) -> [ServerChange]

    /// Every item of `outline`, parents before children (the top first), and the change number they are as of.
    func items(outline: UUID) async throws(ServerError) -> (items: [ServerItem], seq: Int64)

    /// The ``OutlineDigest`` of `outline` as of which change (read together); nil when there is no such outline.
    func digest(outline: UUID) async throws(ServerError) -> (digest: OutlineDigest, seq: Int64)?
}

extension SharedOutlineServer {
    /// The changes of `outline` after `seq`, at most a thousand.
    public func changes(outline: UUID, after seq: Int64) async throws(ServerError) -> [ServerChange] {
        try await changes(outline: outline, after: seq, limit: 1000)
    }

    /// Applies one operation as `opID` (see ``apply(_:outline:client:)``).
    public func apply(_ op: ServerOperation, outline: UUID, opID: UUID, client: String) async throws(ServerError) -> ServerAnswer {
        let answers = try await apply([(op: op, id: opID)], outline: outline, client: client)
        guard let answer = answers.first, answers.count == 1 else {
            throw ServerError(.failed, "\(address) answered one change with \(answers.count) answers")
        }
        return answer
    }
}

extension ServerConnection: SharedOutlineServer {}
