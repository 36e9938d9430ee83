import ObjectGraph
import TestSupport
import Testing

/// Results controllers taking in big change sets (a background import's slices, a poll that found many
/// commits): many rows arriving at once are placed among the list in one pass, on sort keys the controller
/// keeps from earlier changes or reads. Random batches from another connection and from this context (a few
/// rows, dozens, hundreds; inserts, moves, deletes, with ties on the sort key) into lists that start with
/// thousands of rows whose keys the controller never read; every batch applied to the old list must be a fresh
/// fetch. Public API only.
@Suite struct LargeBatchResultsTests {
    @Test(arguments: TestSeed.seeds([41, 42, 43]))
    func bigBatchesArePlacedAsAFetchWouldPlaceThem(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-large-batches")
        defer { withExtendedLifetime(dir) {} }
        let theirHome = try #require(try theirs.existingObject(for: t.home.objectID))
        // Thousands of rows before any controller exists: their keys are read only if a change needs them.
        for k in 0..<3_000 { try theirs.addTask("t\(k)", to: theirHome, at: Int64(random.below(500))) }
        try theirs.saveWithoutUndo()
        try t.store.poll()
        let byPosition = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        // (Ties, after a rename to the same title, are broken by ID, descending as the last key is.)
        let descending = FetchRequest("Task", sortedBy: [SortKey("title", ascending: false)])
        let byTitle = try ResultsRecorder(ResultsController(context: t.context, request: descending))
        let open = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home, openOnly: true)))
        var sizes: [String: Int] = [:]
        var made = 3_000
        for step in 0..<60 {
            let local = random.below(4) == 0
            let context = local ? t.context : theirs
            let home = local ? t.home : theirHome
            let adds = [0, 1, 3, 12, 40, 150, 400][random.below(7)]
            let moves = [0, 2, 30, 200][random.below(4)]
            let deletes = [0, 1, 20, 150][random.below(4)]
            try context.transactionWithoutUndo {
                for _ in 0..<adds {
                    try context.addTask("n\(made)", to: home, at: Int64(random.below(500)))
                    made += 1
                }
                let tasks = try context.fetch(TaskModel.tasks(of: home)).objectIDs
                for _ in 0..<moves {
                    let task = context.object(for: tasks[random.below(tasks.count)])
                    task["position"] = .integer(Int64(random.below(500)))
                    if random.below(3) == 0 { task["done"] = !(task["done"] as Bool) }
                    if random.below(5) == 0 { task["title"] = .string("m\(random.below(10_000))") }
                }
                for _ in 0..<deletes {
                    let task = context.object(for: tasks[random.below(tasks.count)])
                    if !task.isDeleted { context.delete(task) }
                }
            }
            if !local { try t.store.poll() }
            let size = adds + moves > 64 ? "over 64 in" : adds + moves > 4 ? "5 to 64 in" : "up to 4 in"
            sizes[size, default: 0] += 1
            for r in [byPosition, byTitle, open] {
                _ = r.take()
                try r.checkAgainstFetch(t.store)
                #expect(r.failures == [], "step \(step) (\(local ? "here" : "there"): +\(adds) ~\(moves) -\(deletes)) \(random.note)")
            }
            if !byPosition.failures.isEmpty || !byTitle.failures.isEmpty || !open.failures.isEmpty { break }
        }
        #expect(sizes["over 64 in", default: 0] >= 10 && sizes["5 to 64 in", default: 0] >= 5)
        print(
            "LargeBatchResultsTests seed \(seed): batches by rows coming in: \(sizes.sorted { $0.key < $1.key }); \(byPosition.controller.numberOfRows(inSection: 0)) rows"
        )
    }
}
