import Foundation
import GRDB
import GRDBSQLite

/// Moves a writable file store's log into its database file on another connection and thread, after the
/// commit that grew it, instead of inside that commit (SQLite's automatic checkpoint): a 100,000-row delete
/// or its undo returned 30 ms sooner. Passive, so it never waits for or blocks a reader or the next write.
/// Past `inlinePages` the commit checkpoints itself again (passive, as SQLite's own would), so a log whose
/// background checkpoints cannot finish (a long reader elsewhere) does not grow without end.
///
/// A log starts again (at its first frame) only in a write transaction begun after every frame was copied.
/// Under back-to-back commits the background checkpoint always ends in the middle of the next one, which
/// began with frames not yet copied: the log never started again, grew by every commit (95 MB over 1,000
/// renames), and every commit paid for a checkpoint running beside it (a rename took twice as long). So a
/// commit in which a background checkpoint ended copies the few frames since, itself, when it added few (a big
/// one asks for another background checkpoint instead): the next transaction finds the log all copied and
/// starts it again.
final class BackgroundCheckpointer: @unchecked Sendable {
    // @unchecked: `connection` and `runs` are only touched on `work`, `pending` and `endedInTransaction` under
    // `lock`, `inlineRuns` and `logPages` only by the hook, and the thresholds are set before the commits that read them
    // (tests lower them; a commit runs synchronously on the connection's queue, after the write).
    // `BackgroundCheckpointTests.requestsFromManyThreadsAreOne` asks from many threads at once.
    /// Log pages after a commit from which a checkpoint is asked for: 4 MB (SQLite's own threshold, 1,000
    /// pages, at 4 KiB pages), set for the store's page size at `install`.
    var backgroundPages: Int32 = 1000
    /// Log pages after a commit from which the commit checkpoints itself: 400 MB, set at `install`.
    var inlinePages: Int32 = 100_000

    /// The two thresholds in pages for `pageSize`: the same bytes of log at any page size (a store made
    /// since 2026-12-04 has 16 KiB pages; a bound counted in its pages would let the log grow to 1.6 GB).
    static func thresholds(pageSize: Int) -> (background: Int32, inline: Int32) {
        let size = max(pageSize, 512)
        return (Int32(1000 * 4096 / size), Int32(100_000 * 4096 / size))
    }

    private let path: String
    private let work = DispatchQueue(label: "ObjectGraph.checkpoint", qos: .utility)
    private let lock = NSLock()
    private var pending = false
    /// A background checkpoint ended after the open write transaction began (under `lock`).
    private var endedInTransaction = false
    private var connection: DatabaseQueue?
    /// Checkpoints run, for tests.
    private(set) var runs = 0
    /// Checkpoints the commits ran themselves, and the log's frames after the last commit (only the hook, on
    /// the connection's queue, writes them), for tests.
    private(set) var inlineRuns = 0
    private(set) var logPages: Int32 = 0

    init(path: String) {
        self.path = path
    }

    /// Installs the commit hook on `db` (the store's writing connection), replacing SQLite's automatic
    /// checkpoint. Unretained, so the hook keeps nothing alive through C: safe because the store removes it
    /// (`uninstall`) in its deinit before it lets go of this, and a connection kept past its store
    /// (`connectionForTests`) then commits with no hook
    /// (`BackgroundCheckpointTests.aConnectionKeptPastItsStoreCommitsWithoutTheHook`).
    func install(on db: Database) {
        // SQLite answers with the file's page size, or the one a new file will take.
        if let pageSize = try? Int.fetchOne(db, sql: "PRAGMA page_size") {
            (backgroundPages, inlinePages) = Self.thresholds(pageSize: pageSize)
        }
        sqlite3_wal_hook(db.sqliteConnection, BackgroundCheckpointer.hook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Removes the commit hook from `db`: its commits no longer reach this.
    static func uninstall(from db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, nil, nil)
    }

    /// Called by SQLite after each commit of the connection, inside it, with the log's page count.
    private static let hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
        context, db, name, pages in
        guard let context else { return SQLITE_OK }
        let me = Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue()
        // A log that started again holds this commit's frames alone.
        let added = pages >= me.logPages ? pages - me.logPages : pages
        me.logPages = pages
        // Only a small commit copies the frames since itself: a big one (a subtree's delete, its undo)
        // would pay for copying its own frames, what the background checkpoint is for.
        let ended = pages >= me.backgroundPages && me.takeEndedInTransaction()
        if pages >= me.inlinePages || (ended && added < me.backgroundPages) {
            _ = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            me.inlineRuns += 1
        } else if pages >= me.backgroundPages {
            me.request()
        }
        return SQLITE_OK
    }

    /// A write transaction has begun on the store's connection (its snapshot taken): a checkpoint that ends
    /// from now on ends inside it.
    func writeBegins() {
        lock.lock()
        endedInTransaction = false
        lock.unlock()
    }

    private func takeEndedInTransaction() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let ended = endedInTransaction
        endedInTransaction = false
        return ended
    }

    /// Asks for one checkpoint soon; requests made while one waits are that one.
    func request() {
        lock.lock()
        defer { lock.unlock() }
        guard !pending else { return }
        pending = true
        work.async { [self] in
            lock.lock()
            pending = false
            lock.unlock()
            // Best effort: a checkpoint not done now is done by the next, or at close.
            if connection == nil { connection = try? DatabaseQueue(path: path, configuration: SQLiteStore.configuration()) }
            _ = try? connection?.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            runs += 1
            lock.lock()
            endedInTransaction = true
            lock.unlock()
        }
    }

    /// Waits for a checkpoint asked for to end, then closes this connection (before a close's own checkpoint,
    /// and before the store's last close, which removes the log only when no other connection holds it).
    func finish() {
        work.sync { connection = nil }
    }

    /// The checkpoints run so far, after those asked for have ended (for tests).
    func settledRuns() -> Int {
        work.sync { runs }
    }

    /// Holds checkpoints asked for until `resumeForTests` (for tests that look between a commit and its
    /// checkpoint).
    func suspendForTests() { work.suspend() }
    func resumeForTests() { work.resume() }
}
