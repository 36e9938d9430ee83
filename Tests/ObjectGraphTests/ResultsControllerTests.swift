import ObjectGraph
import TestSupport
import Testing

/// What a results controller delivers for each kind of change, on the task model: every batch exactly,
/// and every batch applied to the list before it gives the controller's list, which is a fresh fetch.
@Suite struct ResultsControllerTests {
    /// Recorders of Home's tasks, Work's tasks and the lists.
    func recorders(_ t: TaskWorld) throws -> (home: ResultsRecorder, work: ResultsRecorder, lists: ResultsRecorder) {
        (
            try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home))),
            try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.work))),
            try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.lists))
        )
    }

    /// Each edit, and the batch each controller gets: rows that leave, arrive, move or change in place, and
    /// a list's row when the count the store keeps for it changes.
    @Test func eachEditGivesItsBatch() throws {
        typealias Edit = (TaskWorld) throws -> Void
        let table: [(String, Edit, home: [String], work: [String], lists: [String])] = [
            (
                "add at the end", { t in try t.context.addTask("f", to: t.home, at: 60) },
                ["insert [0.5]"], [], ["update [0.0->0.0]"]
            ),
            (
                "add between", { t in try t.context.addTask("new", to: t.home, at: 25) },
                ["insert [0.2]"], [], ["update [0.0->0.0]"]
            ),
            (
                "add on a tie: after the older task", { t in try t.context.addTask("tie", to: t.home, at: 30) },
                ["insert [0.3]"], [], ["update [0.0->0.0]"]
            ),
            ("delete the first", { t in t.context.delete(t.h[0]) }, ["delete [0.0]"], [], ["update [0.0->0.0]"]),
            ("delete the last", { t in t.context.delete(t.h[4]) }, ["delete [0.4]"], [], ["update [0.0->0.0]"]),
            (
                "move to the other list",
                { t in
                    t.h[0].setObject(t.work, for: "list")
                    t.h[0]["position"] = 15
                }, ["delete [0.0]"], ["insert [0.1]"], ["update [0.0->0.0, 0.1->0.1]"]
            ),
            ("reorder up", { t in t.h[3]["position"] = 5 }, ["move [0.3->0.0]"], [], []),
            ("reorder down", { t in t.h[0]["position"] = 45 }, ["move [0.0->0.3]"], [], []),
            ("a new position in the same place", { t in t.h[0]["position"] = 11 }, ["update [0.0->0.0]"], [], []),
            ("rename", { t in t.h[2]["title"] = "C" }, ["update [0.2->0.2]"], [], []),
            ("mark done", { t in t.h[1]["done"] = true }, ["update [0.1->0.1]"], [], []),
            ("a change in the other list only", { t in t.w[0]["title"] = "X" }, [], ["update [0.0->0.0]"], []),
            (
                "two changes, one batch",
                { t in
                    t.h[1]["title"] = "B"
                    try t.context.addTask("f", to: t.home, at: 60)
                }, ["insert [0.5]; update [0.1->0.1]"], [], ["update [0.0->0.0]"]
            ),
            ("rename a list past the other", { t in t.home["name"] = "Zoo" }, [], [], ["move [0.0->0.1]"]),
            (
                "delete a list: its tasks go with it", { t in t.context.delete(t.work) },
                [], ["delete [0.0, 0.1]; invalidated"], ["delete [0.1]"]
            ),
            (
                "a new list: only the lists change", { t in _ = try t.context.addList("Empty") },
                [], [], ["insert [0.0]"]
            ),
            // Many more tasks touched than Home's and Work's controllers hold: they read their lists again
            // and compare, and still report what changed among their rows.
            (
                "a hundred tasks in a new list, a rename here",
                { t in
                    let big = try t.context.addList("Big")
                    for k in 0..<100 { try t.context.addTask("n\(k)", to: big, at: Int64(k)) }
                    t.h[2]["title"] = "C"
                }, ["update [0.2->0.2]"], [], ["insert [0.0]"]
            ),
            (
                "a hundred tasks in a new list, a task moved here from there",
                { t in
                    let big = try t.context.addList("Big")
                    for k in 0..<100 { try t.context.addTask("n\(k)", to: big, at: Int64(k)) }
                    t.w[0].setObject(t.home, for: "list")
                    t.w[0]["position"] = 60
                }, ["insert [0.5]"], ["delete [0.0]"], ["insert [0.0]; update [0.0->0.1, 0.1->0.2]"]
            ),
            (
                "a hundred tasks deleted with their list, a reorder here",
                { t in
                    let big = try t.context.addList("Big")
                    for k in 0..<100 { try t.context.addTask("n\(k)", to: big, at: Int64(k)) }
                    try t.context.save()
                    t.context.delete(big)
                    t.h[3]["position"] = 5
                }, ["move [0.3->0.0]"], [], ["insert [0.0]", "delete [0.0]"]
            )
        ]
        for (name, edit, home, work, lists) in table {
            let t = try TaskWorld()
            let r = try recorders(t)
            try edit(t)
            try t.context.save()
            #expect(r.home.take() == home, "\(name): Home")
            #expect(r.work.take() == work, "\(name): Work")
            #expect(r.lists.take() == lists, "\(name): lists")
            for recorder in [r.home, r.work, r.lists] {
                try recorder.checkAgainstFetch(t.store)
                #expect(recorder.failures == [], "\(name)")
            }
        }
    }

    /// Unsaved changes are not shown: a controller shows what is saved, and a save that changes nothing it
    /// shows delivers nothing.
    @Test func onlySavedChangesAndOnlyRealOnesArrive() throws {
        let t = try TaskWorld()
        let r = try recorders(t)
        t.h[0]["title"] = "unsaved"
        try t.context.addTask("unsaved", to: t.home, at: 1)
        #expect(r.home.controller.count == 5)
        #expect(r.home.take() == [])
        t.context.rollback()
        #expect(r.home.take() == [])
        t.h[0]["title"] = "a"  // the value it has
        try t.context.save()
        #expect(r.home.take() + r.work.take() + r.lists.take() == [])
    }

    @Test func rowsLeaveAndEnterThePredicate() throws {
        let t = try TaskWorld()
        let open = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home, openOnly: true)))
        t.h[1]["done"] = true
        try t.context.save()
        t.h[3]["done"] = true
        t.h[1]["done"] = false
        try t.context.save()
        #expect(open.take() == ["delete [0.1]", "delete [0.2]; insert [0.1]"])
        // Changed and still outside: nothing.
        t.h[3]["title"] = "D"
        try t.context.save()
        #expect(open.take() == [])
        try open.checkAgainstFetch(t.store)
        #expect(open.failures == [])
    }

    /// With a section key the rows are grouped by its value (sorted by it first): a row whose value
    /// changes moves across sections, a section that empties goes, and one that gets its first row comes.
    @Test func sectionsMoveRowsAndComeAndGo() throws {
        let t = try TaskWorld()
        t.h[1]["done"] = true
        try t.context.save()
        let c = ResultsController(context: t.context, request: SectionedResultsTests.byDone(t), sectionKey: "done")
        let r = try ResultsRecorder(c)
        #expect(ResultsRecorder.sections(of: c).map(\.count) == [4, 1])
        #expect(c.sectionValue(0) == .bool(false) || c.sectionValue(0) == .integer(0))
        t.h[3]["done"] = true
        try t.context.save()
        #expect(r.take() == ["move [0.2->1.1]"])
        t.h[1]["done"] = false
        t.h[3]["done"] = false
        try t.context.save()
        #expect(r.take() == ["deleteSections [1]; insert [0.1, 0.3]"])
        t.h[4]["done"] = true
        try t.context.save()
        #expect(r.take() == ["insertSections [1]; move [0.4->1.0]"])
        try r.checkAgainstFetch(t.store)
        #expect(r.failures == [])
    }

    /// A paused controller delivers nothing; resuming delivers one batch from what its observer last saw
    /// to now, and nothing when nothing changed. Deleting the list its request names invalidates it: one
    /// last batch empties it, and nothing comes after.
    @Test func pauseResumeCoalescesAndInvalidates() throws {
        let t = try TaskWorld()
        let r = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.work)))
        r.controller.pause()
        try t.context.addTask("z", to: t.work, at: 15)
        try t.context.save()
        t.w[0]["title"] = "X"
        try t.context.save()
        t.context.delete(t.w[1])
        try t.context.save()
        #expect(r.take() == [])
        try r.controller.resume()
        #expect(r.take() == ["delete [0.1]; insert [0.1]; update [0.0->0.0]; reload"])
        try r.controller.resume()
        #expect(r.take() == [])
        r.controller.pause()
        t.context.delete(t.work)
        try t.context.save()
        try r.controller.resume()
        #expect(r.take() == ["delete [0.0, 0.1]; invalidated; reload"])
        #expect(r.controller.isInvalidated && r.controller.count == 0)
        _ = try t.context.addList("Work")
        try t.context.save()
        #expect(r.take() == [])
        #expect(r.failures == [])
    }

    /// Another context on the same store: its saves reach this context's controllers at once, and the
    /// objects they show carry its values.
    @Test func anotherContextsSavesArriveAtOnce() throws {
        let t = try TaskWorld()
        let r = try recorders(t)
        let other = Context(store: t.store)
        let theirHome = try #require(try other.existingObject(for: t.home.objectID))
        try other.addTask("theirs", to: theirHome, at: 35)
        try other.save()
        #expect(r.home.take() == ["insert [0.3]"])
        #expect(r.lists.take() == ["update [0.0->0.0]"])
        try #require(try other.existingObject(for: t.h[1].objectID))["title"] = "renamed elsewhere"
        try other.save()
        #expect(r.home.take() == ["update [0.1->0.1]"])
        #expect(r.home.controller.object(at: 1)["title"] == "renamed elsewhere")
        #expect(t.home["taskCount"] == .integer(6))
        for recorder in [r.home, r.work, r.lists] {
            try recorder.checkAgainstFetch(t.store)
            #expect(recorder.failures == [])
        }
    }

    /// Sorted the other way, ties are broken by ID the other way too, so the list is exactly reversed.
    @Test func aReversedOrderIsTheExactReverse() throws {
        let t = try TaskWorld()
        for title in ["t1", "t2"] { try t.context.addTask(title, to: t.home, at: 30) }
        try t.context.save()
        var reversed = TaskModel.tasks(of: t.home)
        reversed.sortKeys = [SortKey("position", ascending: false)]
        let r = try ResultsRecorder(ResultsController(context: t.context, request: reversed))
        let forward = try t.titles(t.home)
        #expect(forward == ["a", "b", "c", "t1", "t2", "d", "e"])
        #expect(r.controller.objectIDs.map { r.controller.context.object(for: $0)["title"] as String } == forward.reversed())
        try t.context.addTask("t3", to: t.home, at: 30)
        try t.context.save()
        #expect(r.take() == ["insert [0.2]"])
        try r.checkAgainstFetch(t.store)
        #expect(r.failures == [])
    }
}
