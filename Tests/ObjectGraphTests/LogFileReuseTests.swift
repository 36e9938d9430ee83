import Foundation
import GRDBSQLite
import Synchronization
import TestSupport
import Testing

@testable import ObjectGraph

/// `LogFileReuse`: where SQLite deletes a log, the log is kept, cleared, and SQLite reads it as no log. These connections name the wrapper VFS themselves, so the rest of the test process keeps SQLite's
/// own deletes (`Store.keepLogFilesWhenClosing()` is for a program that opens stores and exits).
@Suite struct LogFileReuseTests {
    /// A raw connection through the wrapper (or SQLite's default VFS), in WAL mode with the store's settings.
    final class Connection {
        var db: OpaquePointer?

        init(_ path: String, wrapped: Bool = true) throws {
            #expect(LogFileReuse.wrapper != nil)
            let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, wrapped ? LogFileReuse.name : nil)
            try #require(code == SQLITE_OK, "open: \(code)")
            try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA secure_delete = FAST")
        }

        func exec(_ sql: String) throws {
            let code = sqlite3_exec(db, sql, nil, nil, nil)
            try #require(code == SQLITE_OK, "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }

        func texts() throws -> [String] {
            var statement: OpaquePointer?
            try #require(sqlite3_prepare_v2(db, "SELECT t FROM notes ORDER BY rowid", -1, &statement, nil) == SQLITE_OK)
            defer { sqlite3_finalize(statement) }
            var out: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW { out.append(String(cString: sqlite3_column_text(statement, 0))) }
            return out
        }

        func close() {
            #expect(sqlite3_close(db) == SQLITE_OK)
            db = nil
        }
    }

    /// A file's bytes, nil when it cannot be read. (Not `FileManager.contents(atPath:)`: Foundation's read of
    /// an empty file leaks its buffer, which the AddressSanitizer pass reports.)
    static func contents(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 { return nil }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }

    /// A store at `path` with a table of `texts`, made and closed through the wrapper (so its log is kept).
    static func store(at path: String, holding texts: [String]) throws {
        let c = try Connection(path)
        try c.exec("CREATE TABLE notes (t TEXT)" + texts.map { "; INSERT INTO notes VALUES ('\($0)')" }.joined())
        c.close()
    }

    /// What SQLite's own VFS reads from a copy at `copy` of a store's `file` with `log` beside it.
    static func texts(ofFile file: [UInt8], log: [UInt8], copiedTo copy: String) throws -> [String] {
        #expect(FileManager.default.createFile(atPath: copy, contents: Data(file)))
        #expect(FileManager.default.createFile(atPath: copy + "-wal", contents: Data(log)))
        let plain = try Connection(copy, wrapped: false)
        defer { plain.close() }
        return try plain.texts()
    }

    /// The last close keeps the log, every byte zero (no page image of the deleted secrets stays), and no
    /// shared index; the file alone holds every row
    /// (a copy of it without the log reads them all), and the next connection reads and writes as after a
    /// delete, many times over.
    @Test func theLastCloseKeepsAClearedLogThatReadsAsNone() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        var expected: [String] = []
        for round in 0..<5 {
            let c = try Connection(path)
            if round == 0 { try c.exec("CREATE TABLE notes (t TEXT)") }
            #expect(try c.texts() == expected, "round \(round) read what the file held")
            let secret = "secret \(round) " + String(repeating: "s", count: 2000)
            try c.exec("INSERT INTO notes VALUES ('\(secret)'); INSERT INTO notes VALUES ('kept \(round)')")
            try c.exec("DELETE FROM notes WHERE t LIKE 'secret%'")
            expected.append("kept \(round)")
            c.close()
            let log = try #require(Self.contents(path + "-wal"), "round \(round): the log was deleted")
            #expect(log.count > 32 && log.allSatisfy { $0 == 0 }, "round \(round): \(log.count) bytes, not all cleared")
            #expect(LogFile.holdsNothing(besides: path))
            #expect(!LogFileReuse.logMayBeInUse(beside: path))
            #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
            let copy = folder.path("copy\(round).sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let plain = try Connection(copy, wrapped: false)
            #expect(try plain.texts() == expected)
            plain.close()
        }
    }

    /// While another connection has the file open, SQLite deletes nothing, so nothing is cleared: the other
    /// connection's log is intact and it goes on reading and writing; its own last close clears the log.
    @Test func aLogStillInUseIsNotCleared() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        let first = try Connection(path), second = try Connection(path)
        try first.exec("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('one')")
        try second.exec("INSERT INTO notes VALUES ('two')")
        first.close()
        #expect(!LogFile.holdsNothing(besides: path), "the log of an open connection was cleared")
        try second.exec("INSERT INTO notes VALUES ('three')")
        #expect(try second.texts() == ["one", "two", "three"])
        second.close()
        #expect(LogFile.holdsNothing(besides: path))
        let again = try Connection(path, wrapped: false)
        #expect(try again.texts() == ["one", "two", "three"])
        again.close()
    }

    /// The wrapper is made once however many threads ask for it first (`wrapper` is a lazily initialized
    /// global, `base` written inside its initializer): every thread gets the same registered VFS, and it
    /// reaches SQLite's own methods through `base` (a connection through it opens, writes and keeps its log).
    @Test func theWrapperIsMadeOnceFromManyThreads() throws {
        let addresses = Mutex<Set<UInt>>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let address = UInt(bitPattern: LogFileReuse.wrapper)
            addresses.withLock { _ = $0.insert(address) }
        }
        let seen = addresses.withLock { $0 }
        #expect(seen.count == 1 && seen.first != 0)
        #expect(seen.first == UInt(bitPattern: sqlite3_vfs_find(LogFileReuse.name)))
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        try Self.store(at: path, holding: ["one"])
        #expect(FileManager.default.fileExists(atPath: path + "-wal") && LogFile.holdsNothing(besides: path))
    }

    /// A kept log says nothing of who has the file open: a connection that has read but not written leaves it
    /// cleared, and may write and checkpoint at any moment. `logMayBeInUse` is true from its open to its close
    /// (the shared index is there), so a reader that must not write does not read the file as immutable
    /// under it (a process test's concurrent commands read "database disk image is malformed" when only the
    /// header was asked).
    @Test func aConnectionThatHasNotWrittenIsInUse() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        try Self.store(at: path, holding: ["one"])
        #expect(LogFile.holdsNothing(besides: path) && FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!LogFileReuse.logMayBeInUse(beside: path))
        let reader = try Connection(path)
        #expect(try reader.texts() == ["one"])
        #expect(LogFile.holdsNothing(besides: path), "reading wrote to the log")
        #expect(LogFileReuse.logMayBeInUse(beside: path), "an open connection was taken for none")
        try reader.exec("INSERT INTO notes VALUES ('two')")
        #expect(LogFileReuse.logMayBeInUse(beside: path))
        reader.close()
        #expect(!LogFileReuse.logMayBeInUse(beside: path))
        // A log left with frames (a writer killed before its close) is in use without any index.
        let killed = try Connection(path)
        try killed.exec("PRAGMA wal_autocheckpoint = 0; INSERT INTO notes VALUES ('three')")
        let log = try #require(Self.contents(path + "-wal"))
        killed.close()
        try FileManager.default.removeItem(atPath: path + "-wal")
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(log)))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(LogFileReuse.logMayBeInUse(beside: path))
    }

    /// The check looks beside the file a link to the store names, where SQLite keeps the log and shared index.
    @Test func aLinkToTheStoreIsLookedThrough() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite"), link = folder.path("link.sqlite")
        let c = try Connection(path)
        try c.exec("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('one')")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(LogFileReuse.logMayBeInUse(beside: link), "the open connection's index is beside the target")
        c.close()
        #expect(!LogFileReuse.logMayBeInUse(beside: link))
    }

    /// A damaged store is refused as it is: the read that fails as immutable is not made again with locks
    /// (which would make a `-wal` and a `-shm` beside it) when nothing changed since it began.
    @Test func aDamagedStoreIsRefusedWithoutFilesMadeBesideIt() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        let model = try Model(version: 1) { Entity("Note") { Attribute("text", .string, default: "") } }
        do {
            let store = try Store(path: path, model: model)
            _ = store
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        // Garbage over the metadata table's root page.
        let c = try Connection(path, wrapped: false)
        var statement: OpaquePointer?
        try #require(sqlite3_prepare_v2(c.db, "SELECT rootpage FROM sqlite_master WHERE name = 'og_metadata'", -1, &statement, nil) == SQLITE_OK)
        try #require(sqlite3_step(statement) == SQLITE_ROW)
        let root = Int(sqlite3_column_int64(statement, 0))
        sqlite3_finalize(statement)
        c.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var bytes = try #require(Self.contents(path))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        for i in (root - 1) * pageSize..<root * pageSize { bytes[i] = 0xFF }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(throws: StoreError.self) { try SQLiteStore.readStoredModelWithoutWriting(path: path, model: model) }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(Self.contents(path) == bytes)
    }

    /// A log bigger than `keptSize` (a big change's) is deleted as SQLite would.
    @Test func aBigLogIsDeleted() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        let c = try Connection(path)
        try c.exec("PRAGMA wal_autocheckpoint = 0; CREATE TABLE notes (t TEXT)")
        try c.exec(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO notes SELECT hex(randomblob(500)) FROM n")
        #expect((Self.contents(path + "-wal")?.count ?? 0) > LogFileReuse.keptSize)
        c.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// Only a regular file named `…-wal`, of a header's 32 bytes to `keptSize`, with one link, the mode and
    /// owner of the store beside it and a folder of that owner, is cleared (every byte); anything else is left
    /// to the delete, untouched here.
    @Test func onlyALogIsCleared() throws {
        let folder = TemporaryDirectory("log-reuse")
        let bytes = [UInt8](repeating: 7, count: 4096)
        let cases: [(name: String, size: Int, cleared: Bool)] = [
            ("a.sqlite-wal", 4096, true), ("a.sqlite-journal", 4096, false), ("a.sqlite", 4096, false), ("a-wal", 33, true),
            ("b.sqlite-wal", 32, true), ("f.sqlite-wal", 31, false), ("c.sqlite-wal", 0, false), ("d.sqlite-wal", LogFileReuse.keptSize + 1, false),
            ("nostore.sqlite-wal", 4096, false)
        ]
        for (name, size, cleared) in cases {
            let path = folder.path(name)
            let store = String(name.dropLast(4))
            if name.hasSuffix("-wal"), !store.hasPrefix("nostore") {
                #expect(FileManager.default.createFile(atPath: folder.path(store), contents: Data(bytes)))
            }
            let content = size <= bytes.count ? Array(bytes.prefix(size)) : [UInt8](repeating: 7, count: size)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
            #expect(LogFileReuse.clear(path) == cleared, "\(name)")
            let after = Self.contents(path) ?? []
            #expect(after.count == size, "\(name): its size changed")
            #expect(after == (cleared ? [UInt8](repeating: 0, count: size) : content), "\(name)")
        }
        // A log whose mode is not the store's (a `chmod` of the store since it was made): a new one gets the
        // store's when SQLite makes it.
        let mode = folder.path("mode.sqlite")
        #expect(FileManager.default.createFile(atPath: mode, contents: Data(bytes), attributes: [.posixPermissions: 0o600]))
        #expect(FileManager.default.createFile(atPath: mode + "-wal", contents: Data(bytes), attributes: [.posixPermissions: 0o644]))
        #expect(!LogFileReuse.clear(mode + "-wal"))
        #expect(Self.contents(mode + "-wal") == bytes)
        // A store and log of another owner than their folder's (root's `burrow add` in a user's folder, the
        // store then given to the user): the user could not write a kept log, so it is deleted. (Only where
        // the tests may change an owner, as root.)
        if geteuid() == 0 {
            let theirs = folder.path("theirs")
            try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
            #expect(chown(theirs, 65534, 65534) == 0)
            #expect(FileManager.default.createFile(atPath: theirs + "/s.sqlite", contents: Data(bytes)))
            #expect(FileManager.default.createFile(atPath: theirs + "/s.sqlite-wal", contents: Data(bytes)))
            #expect(!LogFileReuse.clear(theirs + "/s.sqlite-wal"))
            #expect(Self.contents(theirs + "/s.sqlite-wal") == bytes)
        }
        // A folder others may write to (group-writable, or sticky as /tmp): a user given the store afterwards
        // could not write a kept log, nor remove it from a sticky folder.
        for (name, folderMode) in [("group", 0o775), ("sticky", 0o1755)] {
            let shared = folder.path(name)
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
            #expect(chmod(shared, mode_t(folderMode)) == 0)
            #expect(FileManager.default.createFile(atPath: shared + "/s.sqlite", contents: Data(bytes)))
            #expect(FileManager.default.createFile(atPath: shared + "/s.sqlite-wal", contents: Data(bytes)))
            #expect(!LogFileReuse.clear(shared + "/s.sqlite-wal"), "\(name)")
            #expect(Self.contents(shared + "/s.sqlite-wal") == bytes, "\(name)")
        }
        // A FIFO named like a log: nothing waits on it (an open for reading or writing would block).
        let fifo = folder.path("fifo.sqlite")
        #expect(FileManager.default.createFile(atPath: fifo, contents: Data(bytes)))
        #expect(mkfifo(fifo + "-wal", 0o644) == 0)
        #expect(!LogFileReuse.clear(fifo + "-wal"))
        LogFileReuse.matchStore(fifo + "-wal")
        #expect(LogFileReuse.logMayBeInUse(beside: fifo), "an odd log file is someone's")
        // A log with a second link: clearing it would clear the other name's file too.
        let linked = folder.path("linked.sqlite"), other = folder.path("other")
        #expect(FileManager.default.createFile(atPath: linked, contents: Data(bytes)))
        #expect(FileManager.default.createFile(atPath: other, contents: Data(bytes)))
        #expect(link(other, linked + "-wal") == 0)
        #expect(!LogFileReuse.clear(linked + "-wal"))
        #expect(Self.contents(other) == bytes)
        // A link named like a log is not followed (the file it names is not cleared).
        let target = folder.path("target"), symlink = folder.path("e.sqlite-wal")
        #expect(FileManager.default.createFile(atPath: folder.path("e.sqlite"), contents: Data(bytes)))
        #expect(FileManager.default.createFile(atPath: target, contents: Data(bytes)))
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: target)
        #expect(!LogFileReuse.clear(symlink))
        #expect(Self.contents(target) == bytes)
        #expect(!LogFileReuse.clear(folder.path("missing.sqlite-wal")))
    }

    /// A clear writes zeros only up to the log's last byte that is not zero, read from the end: every byte
    /// that was not zero is zero after it, wherever it lies (the header's, the first, one on each side of a
    /// 64 KiB read's boundary, the last), and a log all zeros past its header has only its header written.
    @Test func aClearReachesEveryByteThatIsNotZero() throws {
        let folder = TemporaryDirectory("log-reuse-sparse")
        let size = LogFileReuse.keptSize
        let layouts: [(name: String, marked: [Int])] = [
            ("header", [0, 31]), ("first", [32]), ("boundaries", [65_535, 65_536, size - 65_537, size - 65_536]),
            ("last", [size - 1]), ("scattered", [40, 100_000, 700_001]), ("whole", Array(stride(from: 0, to: size, by: 997)))
        ]
        for (name, marked) in layouts {
            let store = folder.path(name + ".sqlite")
            #expect(FileManager.default.createFile(atPath: store, contents: Data([1, 2, 3])))
            var content = [UInt8](repeating: 0, count: size)
            for i in marked { content[i] = UInt8(i % 255 + 1) }
            #expect(FileManager.default.createFile(atPath: store + "-wal", contents: Data(content)))
            #expect(LogFileReuse.clear(store + "-wal"), "\(name)")
            let after = Self.contents(store + "-wal") ?? []
            #expect(after.count == size, "\(name): its size changed")
            #expect(after.allSatisfy { $0 == 0 }, "\(name): \(after.indices.filter { after[$0] != 0 }.prefix(5)) not cleared")
        }
        // A log a big change left at its size and a quick one wrote the start of: only that start is written
        // again (the file stays sparse; writing it all gave it every block).
        let store = folder.path("sparse.sqlite")
        #expect(FileManager.default.createFile(atPath: store, contents: Data([1, 2, 3])))
        let fd = open(store + "-wal", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0 && ftruncate(fd, off_t(size)) == 0)
        let start = [UInt8](repeating: 9, count: 4000)
        #expect(pwrite(fd, start, start.count, 0) == start.count)
        close(fd)
        var before = stat(), after = stat()
        #expect(stat(store + "-wal", &before) == 0)
        #expect(LogFileReuse.clear(store + "-wal"))
        #expect(stat(store + "-wal", &after) == 0)
        #expect(after.st_size == before.st_size)
        #expect(after.st_blocks <= before.st_blocks + 8, "\(before.st_blocks) → \(after.st_blocks) blocks: more than the start was written")
        #expect(Self.contents(store + "-wal")?.allSatisfy { $0 == 0 } == true)
    }

    /// A kept log takes the store's mode again when a connection opens it after a `chmod` of the store (as
    /// SQLite gives a log it makes), so rows written next are no more readable than the store; a log whose
    /// mode still differs at the close is deleted, not kept.
    @Test func aKeptLogFollowsTheStoresMode() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        try Self.store(at: path, holding: ["public"])
        func mode(_ p: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: p))?[.posixPermissions] as? Int) ?? -1 }
        #expect(FileManager.default.fileExists(atPath: path + "-wal") && mode(path + "-wal") == mode(path))
        #expect(chmod(path, 0o600) == 0)
        let second = try Connection(path)
        #expect(mode(path + "-wal") == 0o600, "the kept log kept its old mode")
        try second.exec("INSERT INTO notes VALUES ('private')")
        // Changed under the open connection: at its close the log is not the store's mode, so it is deleted.
        #expect(chmod(path + "-wal", 0o644) == 0)
        second.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let third = try Connection(path, wrapped: false)
        #expect(try third.texts() == ["public", "private"])
        third.close()
    }

    /// The states a power cut can leave around a kept log are all the file's: the old header with every frame
    /// (the clear never reached the disk), which replays to what the file holds, or a cleared header with any
    /// of the old frames (the header is synced before the rest is cleared). A log whose header survived with a
    /// prefix of its frames followed by zeros (what clearing every byte at once could leave, unsynced) would
    /// replay an older state than the file's. Then the next writer, on a cleared header with the old frames
    /// still behind it: its new header, written and synced before its frames, never takes the old frames
    /// after its own for its own.
    @Test func aPowerCutAroundTheClearLeavesTheFilesState() throws {
        let folder = TemporaryDirectory("log-reuse")
        let path = folder.path("a.sqlite")
        let c = try Connection(path)
        // Three transactions over the same rows: the log holds older versions of the same pages.
        try c.exec("CREATE TABLE notes (t TEXT)")
        for round in 0..<3 {
            try c.exec("DELETE FROM notes")
            for i in 0..<40 { try c.exec("INSERT INTO notes VALUES ('round \(round) note \(i)')") }
        }
        let expected = (0..<40).map { "round 2 note \($0)" }
        // The file as the close leaves it before its delete: everything copied in and synced.
        try c.exec("PRAGMA wal_checkpoint(FULL)")
        let file = try #require(Self.contents(path)), logBefore = try #require(Self.contents(path + "-wal"))
        #expect(logBefore.count > 4096 * 3, "the log holds several transactions")
        c.close()
        let logAfter = try #require(Self.contents(path + "-wal"))
        #expect(logAfter.count == logBefore.count && logAfter.allSatisfy { $0 == 0 })
        // What the disk can hold after a power cut during the clear: the header is synced cleared before any
        // other byte is cleared, so either the old log whole or a cleared header with any of the old frames.
        let clearedHeaderOnly = [UInt8](repeating: 0, count: 32) + logBefore.dropFirst(32)
        func read(_ log: [UInt8], _ name: String) throws -> [String] {
            try Self.texts(ofFile: file, log: log, copiedTo: folder.path(name))
        }
        #expect(try read(logBefore, "old-header.sqlite") == expected)
        #expect(try read(logAfter, "cleared.sqlite") == expected)
        #expect(try read(clearedHeaderOnly, "cleared-header.sqlite") == expected)
        // What clearing every byte at once could leave: the old header, the first transaction's frames,
        // zeros. It is an older state: why the header is cleared and synced before the rest.
        // Frames are a 24-byte header (bytes 4–7: the file's size in pages after a commit, 0 otherwise) and a
        // page; the log's header gives the page size. Cut after the first commit past the tenth frame.
        func word(_ at: Int) -> Int { logBefore[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let frameSize = 24 + word(8)
        var firstCommit = 32
        for frame in 0... {
            let start = 32 + frame * frameSize
            try #require(start + frameSize <= logBefore.count, "no commit past the tenth frame")
            if frame >= 10, word(start + 4) != 0 {
                firstCommit = start + frameSize
                break
            }
        }
        let torn = Array(logBefore.prefix(firstCommit)) + [UInt8](repeating: 0, count: logBefore.count - firstCommit)
        #expect(try read(torn, "torn.sqlite") != expected)

        // The next writer reuses the cleared log: one short transaction, its frames over the old first ones.
        // A copy of the file and the log as they stand (a power cut before any checkpoint, after SQLite's
        // syncs) reads the new row and not one old frame after it.
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(clearedHeaderOnly)))
        let next = try Connection(path)
        try next.exec("INSERT INTO notes VALUES ('after')")
        let fileNow = try #require(Self.contents(path)), logNow = try #require(Self.contents(path + "-wal"))
        #expect(logNow.count == logBefore.count, "the log was reused in place")
        #expect(logNow.suffix(4096) == logBefore.suffix(4096), "the old frames are still behind the new")
        #expect(try Self.texts(ofFile: fileNow, log: logNow, copiedTo: folder.path("next.sqlite")) == expected + ["after"])
        next.close()
        let again = try Connection(path, wrapped: false)
        #expect(try again.texts() == expected + ["after"])
        again.close()
    }
}
