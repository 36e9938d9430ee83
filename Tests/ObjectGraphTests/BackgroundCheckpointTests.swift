import Foundation
import GRDB
import GRDBSQLite
import TestSupport
import Testing

@testable import ObjectGraph

/// A commit that takes the write-ahead log past SQLite's threshold leaves the checkpoint to another connection
/// on another thread (`BackgroundCheckpointer`), instead of copying the log into the file before it returns;
/// past a far larger bound the commit checkpoints itself again.
@Suite struct BackgroundCheckpointTests {
    // A literal model: `try!` stops the suite at once if it ever stops being valid (ModelTests tests the invalid).
    static let model = try! Model(version: 1) {
        Entity("Note") { Attribute("text", .string, default: "") }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
    }

    /// About 6 MB of notes in one transaction: past the 4 MB of log from which a checkpoint is asked for.
    static func writeMuch(_ c: Context, tag: String) throws {
        try c.transaction {
            for k in 0..<20_000 {
                let n = try c.insert("Note")
                n["text"] = "\(tag) \(k) " + String(repeating: "x", count: 280)
            }
        }
    }

    /// The thresholds are bytes of log, whatever the page size: a new store's 16 KiB pages counted against the
    /// old page counts let the log grow to 1.6 GB before a commit checkpointed itself.
    @Test func theThresholdsAreTheSameBytesAtAnyPageSize() throws {
        #expect(BackgroundCheckpointer.thresholds(pageSize: 4096) == (1000, 100_000))
        #expect(BackgroundCheckpointer.thresholds(pageSize: 16384) == (250, 25_000))
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path("notes.sqlite"), model: Self.model)
        let checkpointer = try #require(store.sqlite.checkpointer)
        #expect(checkpointer.backgroundPages == 250 && checkpointer.inlinePages == 25_000, "a new store's 16 KiB pages")
    }

    @Test(arguments: [false, true]) func aBigCommitIsCheckpointedAfterItReturns(pastTheBound: Bool) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        let store = try Store(path: path, model: Self.model)
        let checkpointer = try #require(store.sqlite.checkpointer)
        if pastTheBound { checkpointer.inlinePages = 500 }
        let c = Context(store: store)
        try Self.writeMuch(c, tag: "first")
        let runsBefore = checkpointer.settledRuns()
        let before = Self.fileSize(path)
        checkpointer.suspendForTests()
        try Self.writeMuch(c, tag: "second")
        let atCommit = Self.fileSize(path)
        checkpointer.resumeForTests()
        let runs = checkpointer.settledRuns() - runsBefore
        let after = Self.fileSize(path)
        if pastTheBound {
            #expect(atCommit > before, "past the bound the commit copies the log into the file itself")
            #expect(runs == 0, "and asks for no checkpoint elsewhere")
        } else {
            #expect(atCommit == before, "the commit returned without copying the log into the file")
            #expect(runs >= 1 && after > before, "the other connection copied it: \(runs) runs, \(before) → \(after) bytes")
        }
        // Another connection reads everything.
        #expect(try Context(store: try Store(path: path, model: Self.model)).count(FetchRequest("Note")) == 40_000)
        // The log the two big commits left (12 MB) is cut to the limit when the next commit starts it again.
        store.checkpoint()
        #expect(Self.fileSize(path + "-wal") > SQLiteStore.logSizeLimit)
        try c.transaction { try c.insert("Note")["text"] = "small" }
        #expect(Self.fileSize(path + "-wal") <= SQLiteStore.logSizeLimit)
        // That commit is in the log only; a close's checkpoint leaves the file complete: a copy of the
        // database file alone, without its log, holds every note.
        store.checkpoint()
        let copy = dir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try Context(store: try Store(path: copy, model: Self.model)).count(FetchRequest("Note")) == 40_001)
    }

    /// Commits back to back, each begun before the checkpoint the one before asked for had copied its frames,
    /// and that checkpoint ending inside it (as it does under a stream of small commits: 1,000 renames): each
    /// began with frames not yet copied, so none could start the log again, and it grew by every commit, with
    /// a checkpoint running beside each. The commit in which a checkpoint ended copies the rest itself, and the
    /// log starts again at the next.
    @Test func backToBackCommitsLetTheLogStartAgain() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        let (c, checkpointer) = try Self.fourNotesWithACheckpointHeld(path)
        var largest: Int32 = 0
        for k in 0..<40 {
            try c.transaction {
                // Begun with frames not yet copied: the held checkpoint runs, and ends, inside this transaction.
                checkpointer.resumeForTests()
                _ = checkpointer.settledRuns()
                checkpointer.suspendForTests()
                try c.insert("Note")["text"] = "note \(k)"
            }
            // From the second on: the first one's log holds the notes before it.
            if k > 0 { largest = max(largest, checkpointer.logPages) }
        }
        checkpointer.resumeForTests()
        #expect(largest <= 12, "the log grew to \(largest) frames: it did not start again every other commit")
        #expect(checkpointer.inlineRuns >= 10, "\(checkpointer.inlineRuns) commits copied the rest themselves")
        #expect(try Context(store: try Store(path: path, model: Self.model)).count(FetchRequest("Note")) == 44)
    }

    /// A big commit (a subtree's delete, its undo) in which a background checkpoint ended does not copy its own
    /// frames inside the commit, as a small one does: it asks for another background checkpoint.
    @Test func aBigCommitInWhichACheckpointEndedLeavesTheCopyToTheBackground() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        let (c, checkpointer) = try Self.fourNotesWithACheckpointHeld(path)
        let before = checkpointer.logPages
        try c.transaction {
            checkpointer.resumeForTests()
            let runs = checkpointer.settledRuns()
            #expect(runs == 1)
            checkpointer.suspendForTests()
            for k in 0..<40 { try c.insert("Note")["text"] = String(repeating: "big \(k) ", count: 2000) }
        }
        #expect(checkpointer.logPages - before >= 4 * checkpointer.backgroundPages, "\(checkpointer.logPages) frames after \(before)")
        #expect(checkpointer.inlineRuns == 0, "the big commit copied its own frames")
        checkpointer.resumeForTests()
        #expect(checkpointer.settledRuns() == 2, "no checkpoint asked for after the big commit")
        #expect(try Context(store: try Store(path: path, model: Self.model)).count(FetchRequest("Note")) == 44)
    }

    /// A store at `path` whose checkpoints are asked for past 4 log pages, with four notes saved: past that
    /// threshold, a checkpoint asked for and held (`resumeForTests` lets it run).
    static func fourNotesWithACheckpointHeld(_ path: String) throws -> (Context, BackgroundCheckpointer) {
        let store = try Store(path: path, model: Self.model)
        let checkpointer = try #require(store.sqlite.checkpointer)
        checkpointer.backgroundPages = 4
        let c = Context(store: store)
        checkpointer.suspendForTests()
        for k in 0..<4 { try c.transaction { try c.insert("Note")["text"] = "first \(k)" } }
        return (c, checkpointer)
    }

    /// A store at `path` with two notes saved, its read-only connection having read between them.
    static func twoNotesWithTheReaderRead(_ path: String) throws -> (Store, Context) {
        let store = try Store(path: path, model: Self.model)
        let c = Context(store: store)
        try c.transaction { try c.insert("Note")["text"] = "one" }
        let reader = try #require(store.sqlite.backgroundReader())
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Note") } == 1)
        try c.transaction { try c.insert("Note")["text"] = "two" }
        return (store, c)
    }

    /// A store whose read-only connection has read (the outliner's scans, a subtree's delete) closes it before
    /// its writer, so its close removes the log, as a store without one does: a read-only connection closing
    /// last leaves the log whole beside the file.
    @Test func aStoreWhoseReaderHasReadLeavesNoLog() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        do {
            let (store, _) = try Self.twoNotesWithTheReaderRead(path)
            store.checkpoint()
            #expect(Self.fileSize(path + "-wal") > 0)
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the log was left: \(Self.fileSize(path + "-wal")) bytes")
        #expect(try Context(store: try Store(readingAt: path, model: Self.model)).count(FetchRequest("Note")) == 2)
    }

    /// `close()` does what the release would, while the objects live on (a command keeps them to its exit):
    /// the reader before the writer, so the log is copied and removed; closing again does nothing, and the
    /// release afterwards touches no closed connection.
    @Test func closingLeavesNoLogWhileTheStoreLivesOn() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        let (store, c) = try Self.twoNotesWithTheReaderRead(path)
        #expect(Self.fileSize(path + "-wal") > 0)
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the log was left: \(Self.fileSize(path + "-wal")) bytes")
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        try store.close()
        #expect(try Context(store: try Store(readingAt: path, model: Self.model)).count(FetchRequest("Note")) == 2)
        withExtendedLifetime((store, c)) {}
    }

    /// Requests from many threads at once, while the worker is held, are one checkpoint; and requests racing
    /// running checkpoints end without a crash and leave every request answered by a checkpoint after it.
    @Test func requestsFromManyThreadsAreOne() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        let store = try Store(path: path, model: Self.model)
        let checkpointer = try #require(store.sqlite.checkpointer)
        let before = checkpointer.settledRuns()
        checkpointer.suspendForTests()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in for _ in 0..<100 { checkpointer.request() } }
        checkpointer.resumeForTests()
        #expect(checkpointer.settledRuns() - before == 1)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in for _ in 0..<50 { checkpointer.request() } }
        let after = checkpointer.settledRuns() - before
        #expect(after >= 2 && after <= 401, "\(after) checkpoints for 400 requests")
        withExtendedLifetime(store) {}
    }

    /// The commit hook points at the checkpointer without keeping it: once the store is gone, a connection
    /// kept past it (a test's) commits with no hook left, and the checkpointer is freed.
    @Test func aConnectionKeptPastItsStoreCommitsWithoutTheHook() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        var store: Store? = try Store(path: path, model: Self.model)
        let connection = store!.sqlite.connectionForTests
        weak let checkpointer = store!.sqlite.checkpointer
        #expect(checkpointer != nil)
        store = nil
        #expect(checkpointer == nil, "freed with its store")
        // Big enough to pass the threshold: a hook left behind would be called with a freed checkpointer.
        try connection.write { db in
            for k in 0..<20_000 {
                try db.execute(sql: "INSERT INTO Note (text) VALUES (?)", arguments: ["\(k) " + String(repeating: "x", count: 280)])
            }
        }
        let left = connection.writeWithoutTransaction { db in sqlite3_wal_hook(db.sqliteConnection, nil, nil) }
        #expect(left == nil, "no hook context left on the connection")
    }
}
