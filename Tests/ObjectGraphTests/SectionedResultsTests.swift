import ObjectGraph
import TestSupport
import Testing

/// Results controllers with sections, through the public API only: the request's first sort key must be the
/// section key (as Core Data's fetched results controller requires), and every batch (a section emptied as
/// its last row leaves, one made as its first arrives, rows crossing between them in the same unit) takes
/// the observer's sections to exactly the controller's, which are a fresh fetch's.
@Suite struct SectionedResultsTests {
    /// Home's tasks by done, then position.
    static func byDone(_ t: TaskWorld, descending: Bool = false) -> FetchRequest {
        FetchRequest("Task", where: Property("list") == t.home, sortedBy: [SortKey("done", ascending: !descending), SortKey("position")])
    }

    /// A section key that is not the request's first sort key cannot give contiguous sections: the fetch
    /// fails with a configuration error that says what to change, and the controller delivers nothing.
    @Test func aSectionKeyThatIsNotTheFirstSortKeyFailsToFetch() throws {
        let t = try TaskWorld()
        let positionFirst = ResultsController(context: t.context, request: TaskModel.tasks(of: t.home), sectionKey: "done")
        let error = try #require(storeError { try positionFirst.performFetch() })
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains("first sort key") && error.message.contains("done"))
        let unsorted = ResultsController(context: t.context, request: FetchRequest("Task"), sectionKey: "done")
        #expect(storeError { try unsorted.performFetch() }?.code == .invalidRequest)
        let unknown = ResultsController(context: t.context, request: FetchRequest("Task", sortedBy: [SortKey("colour")]), sectionKey: "colour")
        #expect(storeError { try unknown.performFetch() }?.code == .unknownProperty)
        var delivered = 0
        positionFirst.onChange = { _ in delivered += 1 }
        t.h[0]["done"] = true
        try t.context.save()
        #expect(delivered == 0)
        // As asked: the section key first.
        let right = try ResultsRecorder(ResultsController(context: t.context, request: Self.byDone(t), sectionKey: "done"))
        #expect(ResultsRecorder.sections(of: right.controller).map(\.count) == [4, 1])
    }

    /// The last done task leaving its section: one batch deletes the section and places the task among
    /// the open ones, and the same with the open section emptied.
    @Test func theLastRowLeavingItsSectionDeletesItInTheSameBatch() throws {
        let t = try TaskWorld()
        t.h[2]["done"] = true
        try t.context.save()
        let r = try ResultsRecorder(ResultsController(context: t.context, request: Self.byDone(t), sectionKey: "done"))
        t.h[2]["done"] = false
        try t.context.save()
        #expect(r.take() == ["deleteSections [1]; insert [0.2]"])
        for task in t.h { task["done"] = true }
        try t.context.save()
        #expect(r.take() == ["deleteSections [0]; insertSections [0]; insert [0.0, 0.1, 0.2, 0.3, 0.4]"])
        try r.checkAgainstFetch(t.store)
        #expect(r.failures == [])
    }

    /// Random units of work on a short list whose tasks keep crossing between the two sections, saved
    /// here, by a sibling context, and by another connection (taken in by a poll), with controllers paused
    /// and resumed: every batch applied to the old sections gives the new ones, which are a fresh fetch's.
    /// The dangerous cases are counted: a section deleted while a row of it stays in the result, and a
    /// section made in the same batch as another goes.
    @Test(arguments: TestSeed.seeds([41, 42, 43]))
    func randomCrossingsKeepEveryBatchConsistent(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-sections")
        defer { withExtendedLifetime(dir) {} }
        let sibling = Context(store: t.store)
        for c in [t.context, sibling, theirs] { c.mergePolicy = .overwrite }
        let recorders = try [false, true].map { descending in
            try ResultsRecorder(ResultsController(context: t.context, request: Self.byDone(t, descending: descending), sectionKey: "done"))
        }
        var rowsLeavingDeletedSections = 0, sectionsSwapped = 0, batches = 0
        /// Counts the dangerous cases in the batches delivered since `before`, then checks each controller.
        func check(since before: [[[Int64]]]) throws -> [String] {
            for (k, r) in recorders.enumerated() {
                var old = before[k]
                for batch in r.batches {
                    batches += 1
                    let new = batch.apply(to: old) { r.controller.objectID(at: $0).rowID }
                    let kept = Set(new.flatMap { $0 })
                    if batch.deletedSections.contains(where: { s in old[s].contains(where: kept.contains) }) { rowsLeavingDeletedSections += 1 }
                    if !batch.deletedSections.isEmpty && !batch.insertedSections.isEmpty { sectionsSwapped += 1 }
                    old = new
                }
                _ = r.take()
                guard !r.controller.isPaused else { continue }
                try r.checkAgainstFetch(t.store)
                // Each section's value is the done flag of every row in it, as stored.
                let reader = Context(store: t.store)
                for s in 0..<r.controller.numberOfSections {
                    for row in 0..<r.controller.numberOfRows(inSection: s) {
                        let task = try #require(try reader.existingObject(for: r.controller.objectID(at: ResultIndex(s, row))))
                        let value = r.controller.sectionValue(s)
                        if value != task["done"] && value != .integer(task["done"] as Bool ? 1 : 0) {
                            r.failures.append(
                                "section \(s) is for \(value.map { "\($0)" } ?? "nil") but #\(task.objectID.rowID) has \(task["done"] as Value)")
                        }
                    }
                }
            }
            return recorders.flatMap(\.failures)
        }
        func sections() -> [[[Int64]]] { recorders.map { ResultsRecorder.sections(of: $0.controller) } }
        for step in 0..<400 {
            if rng.below(8) == 0, let r = rng.pick(recorders) {
                let before = sections()
                if r.controller.isPaused { try r.controller.resume() } else { r.controller.pause() }
                let failures = try check(since: before)
                if !failures.isEmpty {
                    Issue.record("seed \(seed), step \(step), resuming: \(failures)")
                    return
                }
            }
            let before = sections()
            let editor = [t.context, sibling, theirs][rng.below(3)]
            let home = try #require(try editor.existingObject(for: t.home.objectID))
            let tasks = try editor.fetch(TaskModel.tasks(of: home))
            for _ in 0..<(rng.below(3) + 1) {
                switch rng.below(10) {
                case 0..<6:
                    if let task = rng.pick(tasks), !task.isDeleted { task["done"] = .bool(!(task["done"] as Bool)) }
                case 6, 7:
                    if let task = rng.pick(tasks), !task.isDeleted { task["position"] = .integer(Int64(rng.below(60))) }
                case 8:
                    if tasks.count < 6 { try editor.addTask("n\(step)", to: home, at: Int64(rng.below(60)))["done"] = .bool(rng.below(2) == 0) }
                default:
                    if tasks.count > 1, let task = rng.pick(tasks) { editor.delete(task) }
                }
            }
            try editor.save()
            if editor === theirs { _ = try t.store.poll() }
            let failures = try check(since: before)
            if !failures.isEmpty {
                Issue.record("seed \(seed), step \(step): \(failures)")
                return
            }
        }
        print(
            "sections, seed \(seed): \(batches) batches, \(rowsLeavingDeletedSections) with rows leaving a deleted section, \(sectionsSwapped) with sections deleted and made"
        )
        #expect(rowsLeavingDeletedSections > 20 && sectionsSwapped > 5)
    }
}
