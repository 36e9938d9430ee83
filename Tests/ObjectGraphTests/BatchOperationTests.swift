import ObjectGraph
import TestSupport
import Testing

/// Batch update and batch delete (Core Data's batch requests): one statement, no objects made, and still
/// a diff for every results controller, here and on another connection, objects held reloaded, counts kept,
/// the change in the log with its author. Public API only.
@Suite struct BatchOperationTests {
    @Test func aBatchUpdateReachesEveryControllerAsADiff() throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-batch-update")
        defer { withExtendedLifetime(dir) {} }
        let byDone = try ResultsRecorder(ResultsController(context: t.context, request: SectionedResultsTests.byDone(t), sectionKey: "done"))
        let open = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home, openOnly: true)))
        let theirHome = try #require(try theirs.existingObject(for: t.home.objectID))
        let there = try ResultsRecorder(ResultsController(context: theirs, request: TaskModel.tasks(of: theirHome, openOnly: true)))
        t.h[1]["done"] = true
        try t.context.save()
        _ = try theirs.store.poll()
        _ = (byDone.take(), open.take(), there.take())
        let token = try t.store.currentChangeToken()
        t.context.transactionAuthor = "cleanup"
        let changed = try t.context.batchUpdate(TaskModel.tasks(of: t.home, openOnly: true), set: ["done": true, "title": "finished"])
        #expect(Set(changed) == Set([0, 2, 3, 4].map { t.h[$0].objectID }))
        #expect(byDone.take() == ["deleteSections [0]; insert [0.0, 0.2, 0.3, 0.4]"])
        #expect(open.take() == ["delete [0.0, 0.1, 0.2, 0.3]"])
        #expect(t.h[0]["done"] as Bool && t.h[0]["title"] as String == "finished" && t.h[1]["title"] as String == "b")
        _ = try theirs.store.poll()
        #expect(there.take() == ["delete [0.0, 0.1, 0.2, 0.3]"])
        let history = try t.store.changeHistory(after: token)
        #expect(history.commits.map(\.author) == ["cleanup"] && history.commits[0].changes.updatedCount == 4)
        for r in [byDone, open, there] {
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [])
        }
    }

    @Test func aBatchUpdateIsCheckedBeforeAnythingIsWritten() throws {
        let t = try TaskWorld()
        let all = FetchRequest("Task")
        #expect(validationErrors { try t.context.batchUpdate(all, set: ["position": "tenth"]) }.count == 1)
        #expect(storeError { try t.context.batchUpdate(all, set: ["taskCount": 3]) }?.code == .unknownProperty)
        #expect(storeError { try t.context.batchUpdate(FetchRequest("List"), set: ["taskCount": 3]) }?.code == .invalidRequest)
        #expect(storeError { try t.context.batchUpdate(all, set: ["list": .integer(1)]) }?.code == .invalidRequest)
        var windowed = all
        windowed.limit = 2
        #expect(storeError { try t.context.batchUpdate(windowed, set: ["done": true]) }?.code == .invalidRequest)
        t.h[0]["title"] = "unsaved"
        #expect(storeError { try t.context.batchUpdate(all, set: ["done": true]) }?.code == .conflict)
        t.context.rollback()
        #expect(try t.context.count(FetchRequest("Task", where: Property("done") == true)) == 0)
        #expect(try t.context.batchUpdate(FetchRequest("Task", where: Property("title") == "nothing"), set: ["done": true]).isEmpty)
    }

    @Test func aBatchDeleteKeepsCountsAndReachesControllers() throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-batch-delete")
        defer { withExtendedLifetime(dir) {} }
        let home = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        let lists = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.lists))
        for k in [0, 2, 4] { t.h[k]["done"] = true }
        t.w[0]["done"] = true
        try t.context.save()
        _ = home.take()
        let gone = try t.context.batchDelete(FetchRequest("Task", where: Property("done") == true))
        #expect(gone.count == 4)
        #expect(home.take() == ["delete [0.0, 0.2, 0.4]"])
        #expect(lists.take() == ["update [0.0->0.0, 0.1->0.1]"])
        #expect(t.home["taskCount"] as Int64 == 2 && t.work["taskCount"] as Int64 == 1)
        #expect(t.h[0].isInaccessible || t.h[0].context == nil)
        let theirHome = try #require(try theirs.existingObject(for: t.home.objectID))
        #expect(try theirs.fetch(TaskModel.tasks(of: theirHome)).map { $0["title"] as String } == ["b", "d"])
        #expect(try t.store.check().isEmpty)
        #expect(storeError { try t.context.batchDelete(TaskModel.lists) }?.code == .invalidRequest)
        for r in [home, lists] {
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [])
        }
    }
}
