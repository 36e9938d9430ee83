import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// SQLite's locks on a store file are POSIX advisory locks, which belong to the process: closing any
/// descriptor of the file, opened by anyone in the process, drops them all ("How To Corrupt An SQLite
/// Database File", 2.2). A store opened while another store on the same file is open (the outliner's sync
/// loop beside its view) must not open and close the file behind SQLite's back: with the lock gone, another
/// process closing its connection takes itself for the last one, checkpoints and clears the log, and this
/// process's next read finds frames that are no longer there ("database disk image is malformed", seen in
/// `SyncEndToEndTests` about once in ten runs). Read from `/proc/locks`, so Linux only.
@Suite struct FileLockTests {
    /// This process's POSIX locks on the file at `path` ("READ 1073741826 1073742335"), from `/proc/locks`.
    static func locks(on path: String) throws -> [String] {
        var info = stat()
        try #require(stat(path, &info) == 0)
        let text = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        let me = String(getpid())
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            // "1: POSIX  ADVISORY  READ 1234 00:1a:5678 1073741826 1073742335"; a waiter's line has "->".
            guard f.count >= 8, f[1] == "POSIX", f[4] == me, f[5].split(separator: ":").last == Substring(String(info.st_ino))
            else { return nil }
            return "\(f[3]) \(f[6]) \(f[7])"
        }.sorted()
    }

    @Test func openingTheSameFileAgainKeepsTheLocksSQLiteHolds() throws {
        let dir = TemporaryDirectory("objectgraph-locks")
        let path = dir.path("tasks.sqlite")
        let context = Context(store: try Store(path: path, model: TaskModel.model))
        _ = try context.addList("Inbox")
        try context.save()
        _ = try context.count(FetchRequest("List"))
        let held = try Self.locks(on: path)
        // In WAL mode a connection keeps a shared lock on the file from its first read to its close.
        try #require(!held.isEmpty, "no lock held: \(held)")

        for _ in 0..<2 {
            let other = Context(store: try Store(path: path, model: TaskModel.model))
            #expect(try other.count(FetchRequest("List")) == 1)
            #expect(try Self.locks(on: path) == held)
        }
        // A background context opens the file the same way.
        do {
            let background = try BackgroundContext(path: path, model: TaskModel.model)
            withExtendedLifetime(background) {}
        }
        #expect(try Self.locks(on: path) == held)
        #expect(try context.count(FetchRequest("List")) == 1)
    }
}
