import ObjectGraph
import TestSupport
import Testing

/// `Context.propagatesDeletesAtSave` (Core Data's `propagatesDeletesAtEndOfEvent`, the save being the end
/// of the event): a delete marks the object, and its rules run with what the relationships hold when the
/// unit is saved. Public API only.
@Suite struct DeferredDeleteTests {
    /// A task moved to another list before the save is no longer reached by its old list's cascade; the
    /// others go with the list. With the rules run at once (the default), the moved task was deleted already.
    @Test(arguments: [false, true])
    func aChildMovedAwayBeforeTheSaveSurvivesTheCascade(deferred: Bool) throws {
        let t = try TaskWorld()
        // The departure from Core Data (docs/OBJECTGRAPH.md): off unless turned on.
        #expect(!t.context.propagatesDeletesAtSave)
        t.context.propagatesDeletesAtSave = deferred
        t.context.delete(t.home)
        #expect(t.home.isDeleted && t.context.hasChanges)
        #expect(t.h[0].isDeleted == !deferred)
        if deferred { t.h[0].setObject(t.work, for: "list") }
        // Before the save a fetch leaves the deleted list out, and (deferred) still finds its tasks.
        #expect(try t.context.fetch(TaskModel.lists).map { $0["name"] as String } == ["Work"])
        try t.context.save()
        let reader = Context(store: t.store)
        let work = try #require(try reader.existingObject(for: t.work.objectID))
        #expect(try reader.fetch(TaskModel.tasks(of: work)).map { $0["title"] as String } == (deferred ? ["a", "x", "y"] : ["x", "y"]))
        #expect(try reader.count(FetchRequest("Task")) == (deferred ? 3 : 2))
        #expect(work["taskCount"] as Int64 == (deferred ? 3 : 2))
        // The undo puts back exactly what the save took.
        #expect(try t.context.undo() != nil)
        #expect(try Context(store: t.store).count(FetchRequest("Task")) == 7)
    }

    /// Rolled back before the save, nothing was deleted; `processPendingChanges()` runs the rules early;
    /// inside `transaction { }` they run when it ends.
    @Test func rollbackProcessAndTransactions() throws {
        let t = try TaskWorld()
        t.context.propagatesDeletesAtSave = true
        t.context.delete(t.home)
        t.context.rollback()
        #expect(!t.home.isDeleted && !t.context.hasChanges)
        t.context.delete(t.home)
        t.context.processPendingChanges()
        #expect(t.h.allSatisfy { $0.isDeleted })
        t.context.rollback()
        #expect(!t.h.contains { $0.isDeleted })
        try t.context.transaction {
            t.context.delete(t.work)
            t.w[1].setObject(t.home, for: "list")
        }
        // y ties with b at 20; the tie goes by ID.
        #expect(try t.titles(t.home) == ["a", "b", "y", "c", "d", "e"])
        #expect(try Context(store: t.store).count(FetchRequest("List")) == 1)
    }
}
