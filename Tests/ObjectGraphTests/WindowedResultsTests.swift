import ObjectGraph
import TestSupport
import Testing

/// A request's limit and offset hold through changes: rows pushed past the window leave it, rows pulled
/// into it arrive, and each batch applied to the old window gives a fresh fetch of the window.
@Suite struct WindowedResultsTests {
    @Test func aWindowKeepsItsLimitAndOffset() throws {
        typealias Edit = (TaskWorld) throws -> Void
        // Home holds a b c d e at 10 … 50.
        let table: [(String, limit: Int?, offset: Int, Edit, [String])] = [
            ("limit 2, add first", 2, 0, { t in try t.context.addTask("new", to: t.home, at: 5) }, ["delete [0.1]; insert [0.0]"]),
            ("limit 2, add past it", 2, 0, { t in try t.context.addTask("new", to: t.home, at: 60) }, []),
            ("limit 2, delete inside", 2, 0, { t in t.context.delete(t.h[0]) }, ["delete [0.0]; insert [0.1]"]),
            ("limit 2, delete past it", 2, 0, { t in t.context.delete(t.h[3]) }, []),
            ("limit 2, move in from below", 2, 0, { t in t.h[4]["position"] = 5 }, ["delete [0.1]; insert [0.0]"]),
            ("limit 2, rename inside", 2, 0, { t in t.h[1]["title"] = "B" }, ["update [0.1->0.1]"]),
            ("limit 2, rename past it", 2, 0, { t in t.h[3]["title"] = "D" }, []),
            ("limit 3, reorder inside", 3, 0, { t in t.h[0]["position"] = 25 }, ["move [0.0->0.1]"]),
            ("limit 3, reorder out", 3, 0, { t in t.h[0]["position"] = 55 }, ["delete [0.0]; insert [0.2]"]),
            ("offset 1 limit 2, add first", 2, 1, { t in try t.context.addTask("new", to: t.home, at: 5) }, ["delete [0.1]; insert [0.0]"]),
            ("offset 2, delete before it", nil, 2, { t in t.context.delete(t.h[0]) }, ["delete [0.0]"]),
            (
                "offset 2 limit 2, a row leaves for the other list", 2, 2, { t in t.h[2].setObject(t.work, for: "list") },
                ["delete [0.0]; insert [0.1]"]
            ),
            ("offset 1 limit 10, add at the end", 10, 1, { t in try t.context.addTask("new", to: t.home, at: 60) }, ["insert [0.4]"]),
            (
                "offset 5: empty until a row is added before it", nil, 5, { t in try t.context.addTask("new", to: t.home, at: 5) },
                ["insert [0.0]"]
            ),
            ("limit 2, the list is deleted", 2, 0, { t in t.context.delete(t.home) }, ["delete [0.0, 0.1]; invalidated"])
        ]
        for (name, limit, offset, edit, batches) in table {
            let t = try TaskWorld()
            var request = TaskModel.tasks(of: t.home)
            request.limit = limit
            request.offset = offset
            let r = try ResultsRecorder(ResultsController(context: t.context, request: request))
            try edit(t)
            try t.context.save()
            #expect(r.take() == batches, "\(name)")
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [], "\(name)")
        }
    }

    /// A window is a slice of the whole ordered list, whatever reads just the properties a loop needs.
    @Test func aWindowIsASliceOfTheWholeList() throws {
        let t = try TaskWorld()
        let whole = try t.context.fetch(TaskModel.tasks(of: t.home)).rowIDs
        for (limit, offset) in [(1, 0), (2, 3), (3, 4), (10, 2), (0, 0)] {
            var request = TaskModel.tasks(of: t.home)
            request.limit = limit
            request.offset = offset
            request.propertiesToFetch = ["title"]
            let c = ResultsController(context: t.context, request: request)
            try c.performFetch()
            let slice = Array(whole.dropFirst(offset).prefix(limit))
            #expect(c.objectIDs.map(\.rowID) == slice, "limit \(limit) offset \(offset)")
        }
    }
}
