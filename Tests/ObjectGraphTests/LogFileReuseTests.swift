import Foundation
import GRDBSQLite
import TestSupport
import Testing

@testable import ObjectGraph

/// `LogFileReuse`: where SQLite deletes a log, the log is kept with every byte cleared, and SQLite reads it as
/// no log. These connections name the wrapper VFS themselves, so the rest of the test process keeps SQLite's
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

    static func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }

    /// The last close keeps the log, every byte zero, and no shared index; the file alone holds every row
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

    /// Only a regular file named `…-wal`, of a header's 32 bytes to `keptSize`, is cleared; anything else is left to the
    /// delete, untouched here.
    @Test func onlyALogIsCleared() throws {
        let folder = TemporaryDirectory("log-reuse")
        let bytes = [UInt8](repeating: 7, count: 4096)
        let cases: [(name: String, size: Int, cleared: Bool)] = [
            ("a.sqlite-wal", 4096, true), ("a.sqlite-journal", 4096, false), ("a.sqlite", 4096, false), ("a-wal", 33, true),
            ("b.sqlite-wal", 32, true), ("f.sqlite-wal", 31, false), ("c.sqlite-wal", 0, false), ("d.sqlite-wal", LogFileReuse.keptSize + 1, false)
        ]
        for (name, size, cleared) in cases {
            let path = folder.path(name)
            let content = size <= bytes.count ? Array(bytes.prefix(size)) : [UInt8](repeating: 7, count: size)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
            #expect(LogFileReuse.clear(path) == cleared, "\(name)")
            let after = Self.contents(path) ?? []
            #expect(after.count == size, "\(name): its size changed")
            #expect(cleared ? after.allSatisfy { $0 == 0 } : after == content, "\(name)")
        }
        // A link named like a log is not followed (the file it names is not cleared).
        let target = folder.path("target"), link = folder.path("e.sqlite-wal")
        #expect(FileManager.default.createFile(atPath: target, contents: Data(bytes)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(!LogFileReuse.clear(link))
        #expect(Self.contents(target) == bytes)
        #expect(!LogFileReuse.clear(folder.path("missing.sqlite-wal")))
    }
}
