import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// A commit that takes the write-ahead log past SQLite's threshold leaves the checkpoint to another connection
/// on another thread (`BackgroundCheckpointer`), instead of copying the log into the file before it returns;
/// past a far larger bound the commit checkpoints itself again.
@Suite struct BackgroundCheckpointTests {
    static let model = try! Model(version: 1) {
        Entity("Note") { Attribute("text", .string, default: "") }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
    }

    /// About 6 MB of notes in one transaction: 1,500 pages of log.
    static func writeMuch(_ c: Context, tag: String) throws {
        try c.transaction {
            for k in 0..<20_000 {
                let n = try c.insert("Note")
                n["text"] = "\(tag) \(k) " + String(repeating: "x", count: 280)
            }
        }
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
        // Another connection reads everything, and a close's checkpoint leaves the file complete.
        #expect(try Context(store: try Store(path: path, model: Self.model)).count(FetchRequest("Note")) == 40_000)
        store.checkpoint()
        #expect(Self.fileSize(path + "-wal") == 0, "the close's checkpoint truncated the log")
    }
}
