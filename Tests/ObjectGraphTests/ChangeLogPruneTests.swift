import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// A reader whose change-log entries were pruned before it read them cannot know what changed: it must
/// re-read everything rather than take in only the entries that are left.
@Suite struct ChangeLogPruneTests {
    /// Deletes the log entries numbered below `seq`, as the pruning of old entries does (or the trimming of
    /// the history actions that held them).
    func prune(_ store: Store, below seq: Int64) throws {
        try store.queue.write { db in
            try db.execute(sql: "DELETE FROM og_changes WHERE seq < ?", arguments: [seq])
            try db.execute(sql: "UPDATE og_history SET changes = NULL WHERE logged < ?", arguments: [seq])
        }
    }

    /// The reader opens while the log is empty (its entries pruned) and never takes in an entry before the
    /// next ones are pruned too. Before, its cursor started at 0, read as "nothing to compare with", and it
    /// merged only the entry left: its controller kept one task of three.
    @Test func aReaderThatOpenedOnAnEmptyLogSeesTheGap() throws {
        let dir = TemporaryDirectory("og-prune")
        defer { withExtendedLifetime(dir) {} }
        let writerStore = try Store(path: dir.path(), model: TaskModel.model)
        let writer = Context(store: writerStore)
        let list = try writer.addList("Home")
        try writer.save()
        try prune(writerStore, below: .max)

        let readerStore = try Store(path: dir.path(), model: TaskModel.model)
        let reader = Context(store: readerStore)
        let controller = ResultsController(context: reader, request: TaskModel.tasks(of: reader.object(for: list.objectID)))
        let recorder = try ResultsRecorder(controller)
        #expect(controller.count == 0)

        for k in 0..<3 {
            try writer.addTask("t\(k)", to: list, at: Int64(k))
            try writer.save()
        }
        let newest = try writerStore.queue.read { db in try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'og_changes'") }
        try prune(writerStore, below: try #require(newest))
        try readerStore.poll()
        #expect(controller.count == 3, "the reader merged only the entry that was left")
        try recorder.checkAgainstFetch(readerStore)
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")
    }
}
