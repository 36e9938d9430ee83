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

    /// Batch updates of scattered rows, two before the other connection polls (the second over some of the
    /// first's rows with another property): its contexts get one change set with both masks on the rows in
    /// both, a context holding every task and one holding three both read the new values, and its
    /// controller's batches match a fresh fetch.
    @Test func manyScatteredRowsReachAnotherConnectionWhateverItHolds() throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-batch-scattered")
        defer { withExtendedLifetime(dir) {} }
        var tasks: [ManagedObject] = []
        for k in 0..<600 { tasks.append(try t.context.addTask("t\(k)", to: t.home, at: Int64(100 + k))) }
        for (k, task) in tasks.enumerated() where k % 3 == 0 { task["done"] = true }
        try t.context.saveWithoutUndo()
        let few = Context(store: theirs.store)
        _ = try theirs.store.poll()
        let theirHome = try #require(try theirs.existingObject(for: t.home.objectID))
        let held = try theirs.fetch(TaskModel.tasks(of: theirHome))
        #expect(held.count == 605 && held.allSatisfy { !($0["title"] as String).isEmpty })
        var firstThree = TaskModel.tasks(of: theirHome)
        firstThree.limit = 3
        let heldByFew = try few.fetch(firstThree)
        #expect(heldByFew.map { $0["title"] as String } == ["a", "b", "c"])
        let shown = try ResultsRecorder(ResultsController(context: theirs, request: TaskModel.tasks(of: theirHome, openOnly: true)))
        var delivered: [ChangeSet] = []
        theirs.observeChanges(includingMerged: true) { delivered.append($0) }

        let open = try t.context.batchUpdate(FetchRequest("Task", where: Property("done") == false), set: ["done": true])
        #expect(open.count == 5 + 2 + 400)
        let early = try t.context.batchUpdate(FetchRequest("Task", where: Property("position") < 130), set: ["title": "early"])
        #expect(early.count == 5 + 2 + 30)
        _ = try theirs.store.poll()

        let task = try #require(t.store.model.entity("Task"))
        let changes = try #require(delivered.last)[task.index].updated
        #expect(changes.count == Set(open + early).count)
        let done = PropertyMask(["done"], in: task), title = PropertyMask(["title"], in: task)
        #expect(changes[tasks[0].objectID] == title, "done before: only the title")
        #expect(changes[tasks[1].objectID] == done.union(title))
        #expect(changes[tasks[40].objectID] == done)
        #expect(changes[tasks[39].objectID] == nil)
        #expect(Set(changes.keys) == Set(open + early))
        #expect(shown.take() == ["delete [0.0, 0.1, 0.2, 0.3, 0.4, " + (0..<400).map { "0.\($0 + 5)" }.joined(separator: ", ") + "]"])
        try shown.checkAgainstFetch(t.store)
        #expect(shown.failures == [])
        #expect(held[5]["title"] as String == "early" && held[5]["done"] as Bool)
        #expect(held[604]["title"] as String == "t599" && held[604]["done"] as Bool)
        #expect(heldByFew.map { $0["title"] as String } == ["early", "early", "early"])
        #expect(heldByFew.allSatisfy { $0["done"] as Bool })

        // One batch update alone arrives as one run: a context holding fewer objects than it changed walks
        // the objects it holds (a context holding more walks the run).
        var ten = TaskModel.tasks(of: theirHome)
        ten.limit = 10
        let readAhead = try few.fetch(ten)
        #expect(readAhead[3]["title"] as String == "early")
        try t.context.batchUpdate(FetchRequest("Task"), set: ["title": "last"])
        _ = try theirs.store.poll()
        #expect(readAhead.map { $0["title"] as String } == Array(repeating: "last", count: 10))
        #expect(held.allSatisfy { $0["title"] as String == "last" })
    }

    /// A change to properties a controller's request does not read is an update in place, found without
    /// reading rows; inserts and deletes still arrive, even for a request that reads no property at all.
    @Test func updatesOfPropertiesARequestDoesNotReadStayInPlace() throws {
        let t = try TaskWorld()
        let everything = try ResultsRecorder(ResultsController(context: t.context, request: FetchRequest("Task")))
        let home = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        let open = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home, openOnly: true)))
        try t.context.batchUpdate(FetchRequest("Task", where: Property("position") >= 30), set: ["title": "late"])
        #expect(everything.take() == ["update [0.2->0.2, 0.3->0.3, 0.4->0.4]"])
        #expect(home.take() == ["update [0.2->0.2, 0.3->0.3, 0.4->0.4]"])
        #expect(open.take() == ["update [0.2->0.2, 0.3->0.3, 0.4->0.4]"])
        try t.context.batchUpdate(FetchRequest("Task", where: Property("position") == 20), set: ["done": true])
        #expect(everything.take() == ["update [0.1->0.1, 0.6->0.6]"])
        #expect(home.take() == ["update [0.1->0.1]"])
        #expect(open.take() == ["delete [0.1]"])
        _ = try t.context.addTask("f", to: t.home, at: 5)
        t.h[4]["title"] = "E"
        try t.context.save()
        #expect(everything.take() == ["insert [0.7]; update [0.4->0.4]"])
        #expect(home.take() == ["insert [0.0]; update [0.4->0.5]"])
        #expect(open.take() == ["insert [0.0]; update [0.3->0.4]"])
        // Reading a row not in memory reads the rows from it on for the screen; the one changed next must not
        // be shown from there.
        #expect(home.controller.object(at: 2)["title"] as String == "b")
        try Context(store: t.store).batchUpdate(FetchRequest("Task", where: Property("position") == 30), set: ["title": "C"])
        _ = try t.store.poll()
        #expect(everything.take() == ["update [0.2->0.2]"] && home.take() == ["update [0.3->0.3]"] && open.take() == ["update [0.2->0.2]"])
        #expect(home.controller.object(at: 3)["title"] as String == "C", "no row read before the change is shown")
        t.context.delete(t.h[0])
        try t.context.save()
        #expect(everything.take() == ["delete [0.0]"])
        for r in [everything, home, open] {
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
        // A store that shares its changes through an outbox: a batch would skip it, so both are refused.
        try t.store.setOutbox(enabled: true)
        #expect(storeError { try t.context.batchUpdate(all, set: ["done": true]) }?.code == .invalidRequest)
        #expect(storeError { try t.context.batchDelete(all) }?.code == .invalidRequest)
        #expect(try t.context.count(FetchRequest("Task", where: Property("done") == true)) == 0 && t.context.count(all) == 7)
    }

    @Test func aBatchDeleteKeepsCountsAndReachesControllers() throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-batch-delete")
        defer { withExtendedLifetime(dir) {} }
        let home = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        let lists = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.lists))
        let theirHomeList = try #require(try theirs.existingObject(for: t.home.objectID))
        let there = try ResultsRecorder(ResultsController(context: theirs, request: TaskModel.tasks(of: theirHomeList)))
        for k in [0, 2, 4] { t.h[k]["done"] = true }
        t.w[0]["done"] = true
        try t.context.save()
        _ = try theirs.store.poll()
        _ = (home.take(), there.take())
        let gone = try t.context.batchDelete(FetchRequest("Task", where: Property("done") == true))
        #expect(gone.count == 4)
        #expect(home.take() == ["delete [0.0, 0.2, 0.4]"])
        #expect(lists.take() == ["update [0.0->0.0, 0.1->0.1]"])
        #expect(t.home["taskCount"] as Int64 == 2 && t.work["taskCount"] as Int64 == 1)
        #expect(t.h[0].isInaccessible || t.h[0].context == nil)
        let theirHome = try #require(try theirs.existingObject(for: t.home.objectID))
        #expect(try theirs.fetch(TaskModel.tasks(of: theirHome)).map { $0["title"] as String } == ["b", "d"])
        // The other connection's controller gets the delete as a diff when its store polls.
        _ = try theirs.store.poll()
        #expect(there.take() == ["delete [0.0, 0.2, 0.4]"])
        #expect(try t.store.check().isEmpty)
        #expect(storeError { try t.context.batchDelete(TaskModel.lists) }?.code == .invalidRequest)
        try there.checkAgainstFetch(theirs.store)
        #expect(there.failures == [])
        for r in [home, lists] {
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [])
        }
    }
}
