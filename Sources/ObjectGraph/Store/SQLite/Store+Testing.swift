import GRDB

/// For tests only (through `@testable import`): the SQLite side of a store, to inspect or damage a file as
/// another program would. Nothing in the library uses these.
extension Store {
    /// The SQLite store type under this store.
    var sqlite: SQLiteStore {
        guard let s = backend as? SQLiteStore else { preconditionFailure("not an SQLite store") }
        return s
    }

    /// The SQLite connection.
    var queue: DatabaseQueue { sqlite.connectionForTests }

    /// Runs `body` on the connection (inside the open transaction or snapshot, if any).
    func read<T>(_ body: (Database) throws -> T) throws -> T { try sqlite.read(body) }

    /// How many statements the SQLite store keeps prepared.
    var cachedStatements: Int { sqlite.cachedStatements }

    /// The most statements the SQLite store keeps prepared.
    static var statementCacheLimit: Int { SQLiteStore.statementCacheLimit }
}
