import ObjectGraph
import TestSupport
import Testing

/// Commits made through another connection (another `Store` on the same file, which shares no memory with
/// this one, as another process would) reach this store's contexts and controllers when it polls.
@Suite struct PollingTests {
    /// The task world in a file, and a context on a second connection to that file. The folder is returned
    /// so that it outlives both.
    func connections() throws -> (TemporaryDirectory, TaskWorld, Context) {
        try TaskWorld.withSecondConnection("objectgraph-poll")
    }

    func recorder(_ t: TaskWorld, _ request: FetchRequest, in context: Context? = nil) throws -> ResultsRecorder {
        try ResultsRecorder(ResultsController(context: context ?? t.context, request: request))
    }

    @Test func anotherConnectionsCommitsArriveWhenPolled() throws {
        let (dir, t, theirs) = try connections()
        defer { withExtendedLifetime(dir) {} }
        let home = try recorder(t, TaskModel.tasks(of: t.home)), lists = try recorder(t, TaskModel.lists)
        #expect(try t.store.poll() == 0)  // its own commits are not news

        try theirs.addTask("theirs", to: try #require(try theirs.existingObject(for: t.home.objectID)), at: 35)
        try theirs.save()
        #expect(home.take() == [] && lists.take() == [])  // nothing until it looks
        #expect(try t.store.poll() == 1)
        #expect(home.take() == ["insert [0.3]"])
        #expect(lists.take() == ["update [0.0->0.0]"])
        #expect(home.controller.object(at: 3)["title"] == "theirs")
        #expect(t.home["taskCount"] == .integer(6))  // the merged list reads the count the store keeps
        #expect(try t.store.poll() == 0)
        // The undo history is the store's: another connection's commit is an action in it, to undo here.
        #expect(t.context.undoHistory.undoCount == 1)
        for r in [home, lists] {
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [])
        }
    }

    /// Commits found by one poll are merged as one change set, read on one snapshot: one batch per
    /// controller, whatever each commit did.
    @Test func severalCommitsInOnePollAreOneBatch() throws {
        let (dir, t, theirs) = try connections()
        defer { withExtendedLifetime(dir) {} }
        let home = try recorder(t, TaskModel.tasks(of: t.home))
        let work = try recorder(t, TaskModel.tasks(of: t.work))
        let lists = try recorder(t, TaskModel.lists)
        func their(_ o: ManagedObject) throws -> ManagedObject { try #require(try theirs.existingObject(for: o.objectID)) }
        try their(t.h[1])["title"] = "B"
        try theirs.save()
        theirs.delete(try their(t.h[0]))
        try theirs.save()
        try their(t.h[4])["position"] = 5  // e first
        try theirs.save()
        try their(t.h[2]).setObject(try their(t.work), for: "list")  // c to Work, after x and y (30)
        try theirs.save()
        #expect(try t.store.poll() == 4)
        #expect(home.take() == ["delete [0.0, 0.2]; move [0.4->0.0]; update [0.1->0.1]"])
        #expect(work.take() == ["insert [0.2]"])
        #expect(lists.take() == ["update [0.0->0.0, 0.1->0.1]"])
        #expect(try t.titles(t.home) == ["e", "B", "d"])
        #expect(t.home["taskCount"] == .integer(3) && t.work["taskCount"] == .integer(3))
        #expect(try t.store.poll() == 0)
        for r in [home, work, lists] {
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [])
        }
    }

    /// A poll reaches every context on the polling store; a paused controller gets what it missed as one
    /// batch when resumed; a list deleted elsewhere invalidates the controllers of its tasks.
    @Test func everyContextAndPausedControllersFollow() throws {
        let (dir, t, theirs) = try connections()
        defer { withExtendedLifetime(dir) {} }
        let second = Context(store: t.store)
        let secondWork = try #require(try second.existingObject(for: t.work.objectID))
        let mine = try recorder(t, TaskModel.tasks(of: t.work))
        let paused = try recorder(t, TaskModel.tasks(of: t.work), in: second)
        let secondHome = try recorder(t, TaskModel.tasks(of: t.home), in: second)
        paused.controller.pause()
        let theirWork = try #require(try theirs.existingObject(for: t.work.objectID))
        try theirs.addTask("z", to: theirWork, at: 5)
        try theirs.save()
        #expect(try t.store.poll() == 1)
        #expect(mine.take() == ["insert [0.0]"])
        #expect(paused.take() == [])
        #expect(secondWork["taskCount"] == .integer(3))
        theirs.delete(theirWork)
        try theirs.save()
        try theirs.addTask("late", to: try #require(try theirs.existingObject(for: t.home.objectID)), at: 60)
        try theirs.save()
        #expect(try t.store.poll() == 2)
        #expect(mine.take() == ["delete [0.0, 0.1, 0.2]; invalidated"])
        #expect(secondHome.take() == ["insert [0.5]"])
        try paused.controller.resume()
        #expect(paused.take() == ["delete [0.0, 0.1]; invalidated; reload"])
        #expect(t.work.isInaccessible || t.work.isDeleted || t.work.context == nil)
        for r in [mine, paused, secondHome] {
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [])
        }
    }

    /// Both connections write the same list without polling in between: the counts the store keeps are
    /// right on both sides, and each side's objects show the other's changes once it polls.
    @Test func bothSidesWriteAndEachSeesTheOther() throws {
        let (dir, t, theirs) = try connections()
        defer { withExtendedLifetime(dir) {} }
        let theirStoreHome = try #require(try theirs.existingObject(for: t.home.objectID))
        let theirRecorder = try recorder(t, TaskModel.tasks(of: theirStoreHome), in: theirs)
        // Theirs saves over our commit after its read, as it may with `.overwrite` (the default refuses it:
        // `DerivedValueConflictTests`).
        theirs.mergePolicy = .overwrite
        try t.context.addTask("mine", to: t.home, at: 1)
        try t.context.save()
        try theirs.addTask("theirs", to: theirStoreHome, at: 2)
        t.h[2]["title"] = "mine too"
        try t.context.save()
        try theirs.save()  // its first commit after ours: it carries ours with it
        #expect(theirRecorder.take().count == 1)
        #expect(try t.store.poll() == 1)
        #expect(t.home["taskCount"] == .integer(7))
        #expect(theirStoreHome["taskCount"] == .integer(7))
        #expect(try t.titles(t.home) == ["mine", "theirs", "a", "b", "mine too", "d", "e"])
        #expect(theirRecorder.controller.objectIDs == (try t.context.fetch(TaskModel.tasks(of: t.home)).objectIDs))
        try theirRecorder.checkAgainstFetch(theirs.store)
        #expect(theirRecorder.failures == [])
    }
}
