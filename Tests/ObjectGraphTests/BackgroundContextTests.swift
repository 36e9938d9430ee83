import Foundation
import ObjectGraph
import Synchronization
import TestSupport
import Testing

/// Background contexts: a context on its own connection and thread saves while the drawing thread's context
/// reads, polls and saves too; every batch its controllers deliver matches a fresh fetch, nothing saved in
/// the background is missed or doubled, and a stale save on either side is refused, never written over.
/// Public API only.
@Suite struct BackgroundContextTests {
    /// The background thread imports tasks in slices (adding, toggling done, deleting some of its own) while
    /// this thread polls, draws from its controllers, and marks tasks done in transactions of its own. Every
    /// other slice waits, between its reads and its save, for this thread to take a turn: half of those turns
    /// mark one of the tasks the slice read done, so that its save is stale and must be refused (left to
    /// timing alone, the case almost never happens: a slice takes a millisecond).
    @Test(arguments: TestSeed.seeds([1, 2, 3]))
    func aBackgroundImportReachesTheControllersAsConsistentBatches(seed: UInt64) async throws {
        let dir = TemporaryDirectory("objectgraph-background")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let byPosition = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        let byDone = try ResultsRecorder(
            ResultsController(context: t.context, request: SectionedResultsTests.byDone(t), sectionKey: "done"))
        let saves = Atomic<Int>(0), refusals = Atomic<Int>(0), finished = Atomic<Bool>(false)
        let background = try BackgroundContext(sharingFileOf: t.store) { saves.add(1, ordering: .relaxed) }
        let home = t.home.objectID
        let slices = 100, perSlice = 50
        // The tasks a waiting slice read, handed to this thread; `turnTaken` lets the slice go on.
        let handoff = Mutex<[ObjectID]?>(nil), turnTaken = DispatchSemaphore(value: 0)
        background.perform(
            { context in
                var random = SeededRandom(seed: seed)
                let list = try #require(try context.existingObject(for: home))
                var mine: [ManagedObject] = []
                for slice in 0..<slices {
                    for k in 0..<perSlice {
                        mine.append(try context.addTask("bg \(slice).\(k)", to: list, at: Int64(random.below(1_000))))
                    }
                    var read: [ObjectID] = []
                    for _ in 0..<5 {
                        let task = mine[random.below(mine.count)]
                        task["done"] = !(task["done"] as Bool)  // read, then written: stale if changed meanwhile
                        read.append(task.objectID)
                    }
                    if random.below(3) == 0 {
                        let gone = mine.remove(at: random.below(mine.count))
                        context.delete(gone)
                    }
                    if slice % 2 == 0 {
                        // Only tasks the slice will write: one toggled twice is changed back, and nothing of it is saved.
                        let written = read.filter { context.object(for: $0).hasChanges }
                        handoff.withLock { $0 = written }
                        if turnTaken.wait(timeout: .now() + 30) == .timedOut { throw StoreError(.busy, "no turn taken") }
                    }
                    // The drawing thread may have changed one of these since this slice read it: refused as
                    // stale, the slice is rolled back and the import goes on with the next.
                    do {
                        try context.saveWithoutUndo()
                    } catch let error as StoreError where error.code == .conflict {
                        refusals.add(1, ordering: .relaxed)
                        context.rollback()
                        mine.removeAll { $0.context == nil }
                    }
                }
                finished.store(true, ordering: .releasing)
            },
            failed: { error in
                Issue.record("the background import failed: \(error)")
                finished.store(true, ordering: .releasing)
            })
        var random = SeededRandom(seed: seed &+ 100)
        var polls = 0, coalesced = 0, emptyPolls = 0, ourSaves = 0, staled = 0, batches = 0
        while !finished.load(ordering: .acquiring) {
            let taken = try t.store.poll()
            polls += 1
            if taken > 1 { coalesced += 1 }
            if taken == 0 { emptyPolls += 1 }
            batches += byPosition.take().count
            _ = byDone.take()
            // Draw: read the first screenful, as a list view would.
            for k in 0..<min(20, byPosition.controller.objectIDs.count) {
                _ = byPosition.controller.object(at: ResultIndex(0, k))["title"] as String
            }
            if random.below(4) == 0, let victim = random.pick(byPosition.controller.objectIDs) {
                // (A task the background deleted since this thread's last poll is gone for the transaction, which
                // reads what is stored: renaming it would be an error of this test's, not of the import's.)
                try t.context.transaction { try t.context.existingObject(for: victim)?["title"] = "touched" }
                ourSaves += 1
            }
            if let read = handoff.withLock({ (h: inout [ObjectID]?) in
                defer { h = nil }; return h
            }) {
                // (Only a task saved before: the slice's own new ones do not exist for this thread yet.)
                let shown = Set(byPosition.controller.objectIDs)
                if random.below(2) == 0, let victim = random.pick(read.filter { shown.contains($0) }) {
                    try t.context.transaction {
                        let task = t.context.object(for: victim)
                        task["done"] = !(task["done"] as Bool)
                    }
                    staled += 1
                }
                turnTaken.signal()
            }
            #expect(byPosition.failures == [] && byDone.failures == [], "\(random.note)")
            if !byPosition.failures.isEmpty || !byDone.failures.isEmpty { break }
        }
        try t.store.poll()
        for r in [byPosition, byDone] {
            try r.checkAgainstFetch(t.store)
            #expect(r.failures == [], "\(random.note)")
        }
        let count = try background.performAndWait { try $0.count(TaskModel.tasks(of: $0.object(for: home))) }
        #expect(byPosition.controller.objectIDs.count == count)
        #expect(saves.load(ordering: .relaxed) >= 1 && count >= 5 + perSlice)
        // Every slice whose read was changed meanwhile was refused (others may be too: one that read a task
        // this thread renamed, as the check is by object).
        #expect(refusals.load(ordering: .relaxed) >= staled && staled >= 5, "\(random.note)")
        print(
            "BackgroundContextTests seed \(seed): \(saves.load(ordering: .relaxed)) background saves, \(polls) polls "
                + "(\(coalesced) took in several commits at once, \(emptyPolls) found none), \(batches) batches, "
                + "\(ourSaves) saves of our own meanwhile, \(staled) changing what a waiting slice read, "
                + "\(refusals.load(ordering: .relaxed)) slices refused as stale; "
                + "\(count) tasks")
    }

    @Test func eachBlockStartsOnWhatIsCommittedAndHandsBackIDs() async throws {
        let dir = TemporaryDirectory("objectgraph-background-ids")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let background = try BackgroundContext(sharingFileOf: t.store)
        let work = t.work.objectID
        // Saved here after the background context opened: its next block sees it without being told.
        let z = try t.context.addTask("z", to: t.work, at: 30)
        try t.context.save()
        let titles = try background.performAndWait { context in
            try context.fetch(TaskModel.tasks(of: context.object(for: work))).map { $0["title"] as String }
        }
        #expect(titles == ["x", "y", "z"])
        let recorder = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.work)))
        let made = try await background.perform { context in
            let task = try context.addTask("from the background", to: context.object(for: work), at: 40)
            try context.save()
            return task.objectID
        }
        #expect(made != z.objectID)
        // Saved, and not taken in here until this thread polls: no batch lands between two reads of a frame.
        #expect(recorder.take() == [] && recorder.controller.numberOfRows(inSection: 0) == 3)
        #expect(try t.store.poll() == 1)
        #expect(recorder.take() == ["insert [0.3]"] && recorder.failures == [])
        #expect(try t.context.existingObject(for: made)?["title"] as String? == "from the background")
        #expect(recorder.controller.objectIDs.last == made)
        // A block given to the context from inside one of its own runs at once.
        let nested = try background.performAndWait { _ in try background.performAndWait { try $0.count(FetchRequest("Task")) } }
        #expect(nested == 9)
    }

    /// The context is not thread-safe: blocks given from many threads at once, waited for or not, run one at a
    /// time on the context's own thread (a block that overlapped another, or ran on the caller's thread, is
    /// counted), and every save of each lands.
    @Test func blocksFromManyThreadsRunOneAtATime() async throws {
        let dir = TemporaryDirectory("objectgraph-background-threads")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let background = try BackgroundContext(sharingFileOf: t.store)
        let work = t.work.objectID
        let inside = Atomic<Bool>(false), overlaps = Atomic<Int>(0), blocks = Atomic<Int>(0)
        let threads = 6, each = 40
        let block: @Sendable (Context, String) throws -> Void = { context, title in
            if inside.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
            defer { inside.store(false, ordering: .releasing) }
            try context.addTask(title, to: context.object(for: work), at: 100)
            try context.save()
            blocks.add(1, ordering: .relaxed)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<threads {
                group.addTask {
                    for k in 0..<each {
                        if k % 2 == 0 {
                            try background.performAndWait { try block($0, "t\(n).\(k)") }
                        } else {
                            try await background.perform { try block($0, "t\(n).\(k)") }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(overlaps.load(ordering: .relaxed) == 0 && blocks.load(ordering: .relaxed) == threads * each)
        try t.store.poll()
        #expect(try t.context.count(TaskModel.tasks(of: t.work)) == 2 + threads * each)
    }

    @Test func aStaleSaveIsRefusedOnEitherSide() throws {
        let dir = TemporaryDirectory("objectgraph-background-stale")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let background = try BackgroundContext(sharingFileOf: t.store)
        let a = t.h[0].objectID
        // The background reads a and changes what it read, unsaved; this thread renames it and saves. (A
        // write of what was never read is a blind write, which the last writer wins: see OBJECTGRAPH §10.)
        try background.performAndWait { context in
            let task = context.object(for: a)
            task["title"] = .string(task["title"] as String + " (background)")
        }
        t.h[0]["title"] = "drawing"
        try t.context.save()
        let refused = try background.performAndWait { context in
            let error = storeError { try context.save() }
            context.rollback()
            return error?.code
        }
        #expect(refused == .conflict)
        #expect(try background.performAndWait { $0.object(for: a)["title"] as String } == "drawing")
        // And the other way round: the background saves first, this thread's save of what it read before is
        // refused, and its rollback shows the background's value.
        t.h[1]["title"] = .string(t.h[1]["title"] as String + " (drawing)")
        let b = t.h[1].objectID
        try background.performAndWait { context in
            context.object(for: b)["done"] = true
            try context.save()
        }
        try t.store.poll()
        #expect(storeError { try t.context.save() }?.code == .conflict)
        t.context.rollback()
        #expect(t.h[1]["title"] as String == "b" && t.h[1]["done"] as Bool)
    }

    /// Paced, each save waits until the drawing thread's store has taken it in: however long this thread
    /// takes between polls, no poll takes in two slices, and every slice arrives as a batch that matches a
    /// fresh fetch. (Unpaced, the same loop takes in several slices at a poll: counted, not asserted.)
    @Test func aPacedContextHandsOverOneSliceAtATime() throws {
        let dir = TemporaryDirectory("objectgraph-background-paced")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let home = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        let homeID = t.home.objectID
        let slices = 12
        var perPoll: [Bool: [Int]] = [:]
        for paced in [true, false] {
            let background = try BackgroundContext(sharingFileOf: t.store, paced: paced)
            let base = paced ? 1000 : 2000
            background.perform { context in
                for k in 0..<slices {
                    for j in 0..<10 { try context.addTask("s\(k).\(j)", to: context.object(for: homeID), at: Int64(base + 10 * k + j)) }
                    try context.saveWithoutUndo()
                }
            }
            var taken: [Int] = []
            while taken.reduce(0, +) < slices {
                // A slow frame: the background has time for several slices before the next poll.
                usleep(3000)
                let commits = try t.store.poll()
                if commits > 0 { taken.append(commits) }
            }
            perPoll[paced] = taken
            _ = try background.performAndWait { try $0.count(FetchRequest("Task")) }
        }
        print("BackgroundContextTests paced: slices per poll \(perPoll[true]!); unpaced \(perPoll[false]!)")
        #expect(perPoll[true]! == Array(repeating: 1, count: slices))
        #expect(home.controller.count == 5 + 2 * slices * 10)
        try home.checkAgainstFetch(t.store)
        #expect(home.failures == [])
    }

    @Test func storesItCannotShareAreRefused() throws {
        let memory = try Store(inMemoryWith: TaskModel.model)
        #expect(storeError { _ = try BackgroundContext(sharingFileOf: memory) }?.code == .invalidRequest)
        let dir = TemporaryDirectory("objectgraph-background-refused")
        _ = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let reading = try Store(readingAt: dir.path(), model: TaskModel.model)
        #expect(storeError { _ = try BackgroundContext(sharingFileOf: reading) }?.code == .invalidRequest)
        try "not a store".write(toFile: dir.path("other"), atomically: true, encoding: .utf8)
        #expect(storeError { _ = try BackgroundContext(path: dir.path("other"), model: TaskModel.model) }?.code == .notADatabase)
    }

    @Test func whenSavedRunsOncePerSaveThatWroteAndFailuresAreHandedOver() async throws {
        let dir = TemporaryDirectory("objectgraph-background-saved")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let saves = Mutex(0)
        let background = try BackgroundContext(path: dir.path(), model: TaskModel.model) { saves.withLock { $0 += 1 } }
        let work = t.work.objectID
        try background.performAndWait { context in
            try context.save()  // nothing to write
            try context.addTask("w", to: context.object(for: work), at: 50)
            try context.save()
            try context.transaction { try context.addTask("v", to: context.object(for: work), at: 60) }
        }
        #expect(saves.withLock { $0 } == 2)
        let failure = Mutex<String?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            background.perform(
                { context in _ = try context.insert("NoSuchEntity") },
                failed: { error in
                    failure.withLock { $0 = (error as? StoreError)?.code == .unknownEntity ? "unknownEntity" : "\(error)" }
                    done.resume()
                })
        }
        #expect(failure.withLock { $0 } == "unknownEntity")
    }
}
