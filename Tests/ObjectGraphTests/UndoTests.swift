import ObjectGraph
import TestSupport
import Testing

/// Undo and redo on the task model: each save is a step that restores the whole graph exactly (values,
/// relationships, the counts the store keeps, the same IDs); a step that would overwrite or lose what
/// another context or connection did since is refused with `UndoConflict` and dropped, and the rest of the
/// history goes on working.
@Suite struct UndoTests {
    @Test func everyEditUndoesAndRedoesExactly() throws {
        let t = try TaskWorld()
        let c = t.context
        let edits: [(String, () throws -> Void)] = [
            ("Add “f”", { try c.addTask("f", to: t.home, at: 60) }),
            ("Rename “a”", { t.h[0]["title"] = "A!" }),
            ("Mark “c” done", { t.h[2]["done"] = true }),
            ("Move “d” up", { t.h[3]["position"] = 1 }),
            ("Move “b” to Work", { t.h[1].setObject(t.work, for: "list") }),
            ("Delete “e”", { c.delete(t.h[4]) }),
            ("Add a list with a task", { try c.addTask("first", to: try c.addList("Errands"), at: 0) }),
            (
                "Rename “Home”, add to Work",
                {
                    t.home["name"] = "House"
                    try c.addTask("z", to: t.work, at: 5)
                }
            ),
            ("Delete “Work” and its tasks", { c.delete(t.work) })
        ]
        let start = try TaskModel.rows(t.store)
        for (name, edit) in edits {
            let before = try TaskModel.rows(t.store)
            try edit()
            try c.save(actionName: name)
            let after = try TaskModel.rows(t.store)
            #expect(before != after, "\(name)")
            #expect(c.undoHistory.undoActionName == name)
            #expect(try c.undo() == name)
            #expect(try TaskModel.rows(t.store) == before, "undo \(name)")
            #expect(c.undoHistory.redoActionName == name)
            #expect(try c.redo() == name)
            #expect(try TaskModel.rows(t.store) == after, "redo \(name)")
        }
        // And all the way back, in order, to the same IDs. (What was deleted comes back under its ID; an
        // object held from before its deletion is not promised to be the one that comes back.)
        for _ in edits { try c.undo() }
        #expect(try TaskModel.rows(t.store) == start)
        #expect(!c.undoHistory.canUndo && c.undoHistory.redoCount == edits.count)
        #expect(try t.titles(t.work) == ["x", "y"] && c.object(for: t.work.objectID)["taskCount"] == .integer(2))
        #expect(try c.fetch(TaskModel.tasks(of: t.home)).objectIDs == t.h.map(\.objectID))
    }

    /// Undo is one new unit of work: controllers get it as a batch like any save.
    @Test func controllersFollowUndoAndRedo() throws {
        let t = try TaskWorld()
        let home = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        t.context.delete(t.h[1])
        t.h[3]["position"] = 1
        try t.context.save(actionName: "Delete “b”, move “d” up")
        #expect(home.take() == ["delete [0.1]; move [0.3->0.0]"])
        try t.context.undo()
        #expect(home.take() == ["insert [0.1]; move [0.0->0.3]"])
        try t.context.redo()
        #expect(home.take() == ["delete [0.1]; move [0.3->0.0]"])
        try home.checkAgainstFetch(t.store)
        #expect(home.failures == [])
    }

    @Test func groupsLimitsAndRollbackFollowTheRules() throws {
        let t = try TaskWorld()
        let c = t.context, h = c.undoHistory
        try c.addTask("one", to: t.home, at: 60)
        try c.save(actionName: "one")
        try c.addTask("two", to: t.home, at: 70)
        try c.save(actionName: "two")
        try c.undo()
        #expect(h.canRedo)
        try c.addTask("three", to: t.home, at: 80)
        try c.save(actionName: "three")
        #expect(!h.canRedo)  // a new step clears redo
        // A group spans several saves and undoes as one step.
        h.beginGroup("Paste 3 tasks")
        for (k, title) in ["p", "q", "r"].enumerated() {
            try c.addTask(title, to: t.work, at: Int64(30 + k))
            try c.save()
        }
        try h.endGroup()
        #expect(h.undoActionName == "Paste 3 tasks" && h.undoCount == 3)
        try c.undo()
        #expect(try t.titles(t.work) == ["x", "y"])
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e", "one", "three"])
        // A limit drops the oldest actions when the next one is recorded (the undone group with them).
        h.limits = HistoryLimits(actions: 2, bytes: 1 << 20)
        #expect(h.undoCount == 2 && h.redoCount == 1)
        try c.addTask("four", to: t.home, at: 85)
        try c.save(actionName: "four")
        #expect(h.undoCount == 2 && h.redoCount == 0 && h.undoActionName == "four")
        #expect(try h.entries().map(\.name) == ["four", "three"])
        // Undo with unsaved changes is refused and changes nothing; rollback drops the changes, not history.
        try c.addTask("unsaved", to: t.home, at: 90)
        #expect(throws: StoreError.self) { try c.undo() }
        #expect(h.undoCount == 2)
        c.rollback()
        #expect(h.undoCount == 2 && !c.hasChanges)
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e", "one", "three", "four"])
        // A group that changed nothing in the end leaves no action.
        h.beginGroup("Nothing")
        try c.addTask("gone", to: t.home, at: 95)
        try c.save()
        c.delete(try #require(try c.fetch(FetchRequest("Task", where: Property("title") == "gone")).first))
        try c.save()
        #expect(h.undoActionName == "Nothing")
        try h.endGroup()
        #expect(h.undoActionName == "four")
        // By size: a limit smaller than one step keeps only the newest action.
        h.limits = HistoryLimits(actions: 100, bytes: 1)
        try c.addTask("five", to: t.home, at: 96)
        try c.save(actionName: "five")
        #expect(try h.entries().map(\.name) == ["five"])
    }

    /// Another context deletes the task a step renamed: undoing the rename would bring back a value over
    /// nothing, so it is a conflict; nothing changes, the step is dropped for good, and the step before it
    /// still undoes (one conflict never blocks the rest of history).
    @Test func aConflictIsDroppedAndTheRestOfHistoryStillWorks() throws {
        let t = try TaskWorld()
        let c = t.context
        let milk = try c.addTask("Milk", to: t.home, at: 60)
        try c.save(actionName: "Add “Milk”")
        milk["title"] = "Oat milk"
        try c.save(actionName: "Rename “Milk”")
        t.h[0]["done"] = true
        try c.save(actionName: "Mark “a” done")
        try c.undo()  // redo stack: “Mark “a” done”
        let other = Context(store: t.store)
        other.undoHistory.recordsActions = false  // not actions (a sync, say): undo meets them as conflicts
        other.delete(try #require(try other.existingObject(for: milk.objectID)))
        try other.save()
        let before = try TaskModel.rows(t.store)
        let conflict = try #require(throws: UndoConflict.self) { try c.undo() }
        #expect(conflict.verb == "undo" && conflict.action == "Rename “Milk”" && conflict.object == milk.objectID)
        #expect(conflict.entity == "Task" && conflict.reason == "was deleted elsewhere")
        #expect(conflict.description == "cannot undo “Rename “Milk””: Task \(milk.objectID) was deleted elsewhere")
        #expect(try TaskModel.rows(t.store) == before)
        #expect(!c.hasChanges)
        #expect(c.undoHistory.undoActionName == "Add “Milk”")
        // Redo was not touched by the failed undo.
        #expect(c.undoHistory.redoActionName == "Mark “a” done")
        // The add undoes as a no-op: its task is gone already.
        #expect(try c.undo() == "Add “Milk”")
        #expect(try TaskModel.rows(t.store) == before)
        // New steps undo and redo as usual.
        try c.addTask("Bread", to: t.home, at: 70)
        try c.save(actionName: "Add “Bread”")
        #expect(try c.undo() == "Add “Bread”")
        #expect(try c.redo() == "Add “Bread”")
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e", "Bread"])
    }

    /// The conflicts a step can run into, each made by another connection (a second `Store` on the file,
    /// as another process): the same property changed, members added to a list the step would delete, a
    /// reference to a list deleted since. A change to another property of the same object is no conflict:
    /// undo restores only what its step changed.
    @Test func conflictsWithAnotherConnection() throws {
        let dir = TemporaryDirectory("objectgraph-undo")
        defer { withExtendedLifetime(dir) {} }
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let c = t.context
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        theirs.undoHistory.recordsActions = false  // not actions (a sync, say): undo meets them as conflicts
        func their(_ o: ManagedObject) throws -> ManagedObject {
            try theirs.store.poll()
            return try #require(try theirs.existingObject(for: o.objectID))
        }

        let errands = try c.addList("Errands")
        try c.save(actionName: "Add “Errands”")
        t.h[0].setObject(t.work, for: "list")
        try c.save(actionName: "Move “a” to Work")
        t.h[1]["title"] = "B"
        try c.save(actionName: "Rename “b”")
        t.h[2]["title"] = "C"
        try c.save(actionName: "Rename “c”")

        try their(t.h[2])["done"] = true  // another property: no conflict
        try theirs.save()
        #expect(try c.undo() == "Rename “c”")
        #expect(t.h[2]["title"] == "c" && t.h[2]["done"] == .bool(true))

        try their(t.h[1])["title"] = "theirs"  // the same property
        try theirs.save()
        let renamed = try #require(throws: UndoConflict.self) { try c.undo() }
        #expect(renamed.reason == "was changed elsewhere (title)" && renamed.verb == "undo")
        #expect(t.h[1]["title"] == "theirs")

        theirs.delete(try their(t.home))  // the list “a” was moved out of
        try theirs.save()
        let gone = try #require(throws: UndoConflict.self) { try c.undo() }
        #expect(gone.reason == "would refer to something deleted elsewhere (list)")
        #expect(gone.object == t.h[0].objectID)

        try theirs.addTask("theirs", to: try their(errands), at: 0)  // a task in the list to un-add
        try theirs.save()
        let members = try #require(throws: UndoConflict.self) { try c.undo() }
        #expect(members.reason == "has 1 more tasks now (added elsewhere)")
        #expect(!c.undoHistory.canUndo && !c.hasChanges)
        try c.store.poll()
        #expect(errands["taskCount"] == .integer(1))
        // “a” stayed where the step put it (in Work, tied with “x” and older); Home went with “b” to “e”.
        #expect(try t.titles(t.work) == ["a", "x", "y"])
        #expect(try c.count(FetchRequest("Task")) == 4)
    }

    /// Redo meets conflicts the same way: a redo that would overwrite a later change made elsewhere is
    /// dropped, and the redo stack goes on with the step after it.
    @Test func aRedoConflictIsDroppedToo() throws {
        let t = try TaskWorld()
        let c = t.context
        t.h[0]["title"] = "A"
        try c.save(actionName: "Rename “a”")
        t.h[1]["title"] = "B"
        try c.save(actionName: "Rename “b”")
        try c.undo()
        try c.undo()
        let other = Context(store: t.store)
        other.undoHistory.recordsActions = false
        try #require(try other.existingObject(for: t.h[0].objectID))["title"] = "theirs"
        try other.save()
        let e = try #require(throws: UndoConflict.self) { try c.redo() }
        #expect(e.verb == "redo" && e.action == "Rename “a”")
        #expect(try c.redo() == "Rename “b”")
        #expect(try t.titles(t.home).prefix(2) == ["theirs", "B"])
        #expect(!c.undoHistory.canRedo && c.undoHistory.undoCount == 1)
    }

    /// Two contexts share the store's history; each knows which actions it recorded, and a unit of work that
    /// failed at its commit (its history row rolled back, its number free again) is not one of them.
    @Test func eachContextKnowsItsOwnActions() throws {
        let dir = TemporaryDirectory("objectgraph-undo")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let mine = t.context
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        t.h[0]["title"] = "mine"
        try mine.save(actionName: "Mine")
        let list = try #require(try theirs.existingObject(for: t.work.objectID))
        _ = try theirs.addTask("theirs", to: list, at: 99)
        try theirs.save(actionName: "Theirs")
        let entries = try mine.undoHistory.entries()
        #expect(entries.map(\.name) == ["Theirs", "Mine"])
        #expect(entries.map(mine.undoHistory.wasRecordedHere) == [false, true])
        #expect(entries.map(theirs.undoHistory.wasRecordedHere) == [true, false])
        // A unit that fails before it records anything takes nothing back.
        struct Refused: Error {}
        #expect(throws: Refused.self) { try mine.transaction { throw Refused() } }
        #expect(entries.map(mine.undoHistory.wasRecordedHere) == [false, true])
        // Mine adds a task to a list they delete meanwhile: the foreign key fails at the commit, after the
        // action was recorded in the transaction; the number it had goes to their next action.
        theirs.delete(list)
        try theirs.saveWithoutUndo()
        _ = try mine.addTask("lost", to: t.work, at: 100)
        #expect(throws: StoreError.self) { try mine.save(actionName: "Lost") }
        mine.rollback()
        t.h[1]["title"] = "again"
        let other = try #require(try theirs.existingObject(for: t.h[1].objectID))
        other["title"] = "theirs again"
        try theirs.save(actionName: "Theirs again")
        let newest = try #require(try mine.undoHistory.nextUndo())
        #expect(newest.name == "Theirs again")
        #expect(!mine.undoHistory.wasRecordedHere(newest))
    }

    /// The history a program keeps outlives the context and store it came from (it holds the store).
    @Test func aHistoryKeptAfterItsContextStillAnswers() throws {
        var history: UndoHistory?
        do {
            let c = Context(store: try Store(inMemoryWith: TaskModel.model))
            _ = try c.addList("Home")
            try c.save(actionName: "Add “Home”")
            history = c.undoHistory
        }
        #expect(history?.undoActionName == "Add “Home”")
        #expect(try history?.entries().map(\.name) == ["Add “Home”"])
    }
}
