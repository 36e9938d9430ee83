import GRDB
import GRDBSQLite

/// What the store's connection knew when its last write transaction committed, kept for the next one: the
/// newest undo-history row's bookkeeping and whether the outbox table is there. Every save that records an
/// action needs both, and each is a statement to read (together a fifth of what recording a rename cost).
/// It holds only while nothing has committed since, here or elsewhere: SQLite's pager counts each commit it
/// makes and each one it finds made by another connection (`SQLITE_FCNTL_DATA_VERSION`), and the memo keeps
/// the count its own commit left. Inside a transaction, whatever writes the history or the outbox's table
/// forgets what it changed (`SQLiteStore.appendHistory` and the rest of `SQLiteStore+History`).
struct CommitMemo {
    /// The newest history row's bookkeeping (`.some(nil)`: the history is empty); nil when not known.
    var historyNewest: HistoryEnd??
    /// Whether `og_outbox` is there; nil when not known.
    var outbox: Bool?
    /// The pager's count right after the commit that left this; nil for a memo of nothing.
    var version: UInt32?

    /// The memo if nothing has committed since it was left (`db` is in the transaction that would use it).
    func ifCurrent(_ db: Database) -> CommitMemo {
        guard let version, version == Self.dataVersion(db) else { return CommitMemo() }
        return self
    }

    /// This memo as the commit just made on `db` leaves it.
    func committed(_ db: Database) -> CommitMemo {
        var memo = self
        memo.version = Self.dataVersion(db)
        return memo
    }

    /// The main database's pager count: it changes with every commit of this connection and whenever a
    /// transaction of it finds the file changed by another (unlike `PRAGMA data_version`, which leaves out
    /// this connection's own). Nil when SQLite cannot say, so that no memo is ever taken as current.
    static func dataVersion(_ db: Database) -> UInt32? {
        var version: UInt32 = 0
        guard sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK else { return nil }
        return version
    }
}

/// The bookkeeping of the history's newest or oldest row (see `SQLiteStore+History`).
struct HistoryEnd: Equatable {
    var seq: Int64
    var state: Int
    var position: Int64
    var cum: Int64
    var size: Int64
}
