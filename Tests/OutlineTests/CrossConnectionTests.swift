import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// Commits made through another connection (another process, or another `Store` on the same file, which
/// shares no memory with this one) reach this store's controllers when it polls.
@Suite struct CrossConnectionTests {
    /// A folder for the store file, and the file's path; the folder goes when the test drops it.
    func paths() -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory("burrow-cross")
        return (dir, dir.path())
    }

    /// Three connections open a new file at the same moment, each looks for the root and finds none, and then
    /// each asks for it: each gets the one root, none fails. Made with a plain save, a connection that had looked
    /// and found none was refused (`StoreError.conflict`: its look was asked again and answered otherwise) when
    /// another made it first. Every connection looks before any asks (a barrier): left to the scheduler, the
    /// looks overlapped in 10–23 rounds of 24 on a quiet machine and in 0–5 in a full run on a busy one
    /// (2026-12-02: a run with none failed the count below), so the case is made, not hoped for.
    @Test func connectionsOpeningANewFileAtOnceShareOneRoot() throws {
        var raced = 0
        for round in 0..<24 {
            let (dir, path) = paths()
            defer { withExtendedLifetime(dir) {} }
            let start = DispatchSemaphore(value: 0)
            let results = Outcomes()
            let group = DispatchGroup(), ready = DispatchGroup(), looked = DispatchGroup()
            for _ in 0..<3 {
                group.enter()
                ready.enter()
                looked.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    let outline: Outline
                    do { outline = try Outline(path: path) } catch {
                        ready.leave()
                        looked.leave()
                        results.entries.withLock { $0.append((false, .failure(error))) }
                        return
                    }
                    // All three opened before any looks: their looks start together.
                    ready.leave()
                    start.wait()
                    // What the root's first look finds; root() looks again (and, finding none, inside the write
                    // lock) only once all three have looked.
                    let sawNone = (try? outline.findRoot()) == nil
                    looked.leave()
                    looked.wait()
                    let root = Result { try outline.root().objectID.rowID }
                    results.entries.withLock { $0.append((sawNone, root)) }
                }
            }
            ready.wait()
            for _ in 0..<3 { start.signal() }
            group.wait()
            let all = results.entries.withLock { $0 }
            if all.filter(\.sawNone).count > 1 { raced += 1 }
            for r in all { if case .failure(let e) = r.root { Issue.record("round \(round): \(e)") } }
            #expect(Set(all.compactMap { try? $0.root.get() }).count == 1, "round \(round)")
            let check = try Outline(path: path)
            #expect(try check.context.count(FetchRequest(Item.entityName, where: Property("rootMarker") == Int64(1))) == 1)
        }
        print("CrossConnectionTests: \(raced) of 24 rounds had two or more connections find no root at once")
        // The case the test is for, in every round (the barrier makes it: a round without it is a broken test).
        #expect(raced == 24)
    }

    /// What each thread of `connectionsOpeningANewFileAtOnceShareOneRoot` found.
    private final class Outcomes: Sendable {
        let entries = Mutex<[(sawNone: Bool, root: Result<Int64, any Error>)]>([])
    }

    @Test func foreignCommitsArriveAsBatchesAndOwnOnesNeverTwice() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let mine = try Outline(path: path)
        let root = try mine.root()
        try mine.append(titles: ["a", "b", "c"], to: root)
        try mine.save()
        let r = try ResultsRecorder(ResultsController(context: mine.context, request: Outline.level(of: root)))
        #expect(try mine.context.store.poll() == 0)  // our own commits are not news

        let theirs = try Outline(path: path)  // a second connection, nothing shared
        let theirRoot = try theirs.root()
        try theirs.insert("from elsewhere", into: theirRoot, at: 1)
        try theirs.save()
        #expect(r.take() == [])  // nothing until we look
        #expect(try mine.context.store.poll() == 1)
        #expect(r.take() == ["insert [0.1]"])
        #expect((r.controller.object(at: 1) as! Item).title == "from elsewhere")
        #expect(root.childCount == 4)  // the merged parent reloads

        // Ours and theirs interleaved; each arrives once.
        try mine.append("ours", to: root)
        try mine.save()
        #expect(r.take() == ["insert [0.4]"])
        let b = try #require(try theirs.context.existingObject(for: try theirs.child(of: theirRoot, at: 2)!.objectID) as? Item)
        b.title = "renamed elsewhere"
        try theirs.save()
        try theirs.delete(try #require(try theirs.child(of: theirRoot, at: 0)))
        try theirs.save()
        // Two commits found by one poll arrive as one batch (read on one snapshot).
        #expect(try mine.context.store.poll() == 2)
        #expect(r.take() == ["delete [0.0]; update [0.2->0.1]"])
        #expect(try mine.context.store.poll() == 0)
        try r.checkAgainstFetch(mine.context.store)
        #expect(r.failures == [])
        // The undo history is the store's: our two saves and their three commits are five actions.
        #expect(mine.context.undoHistory.undoCount == 5)
        #expect(theirs.context.undoHistory.undoCount == 5)
    }

    /// Commits found by one poll are one change set: delivered one by one, the first one's diff read rows
    /// the second had already moved (C, moved to the top by the second, misled the binary search that
    /// placed X from the first), and the level stayed out of order.
    @Test func severalCommitsInOnePollLeaveTheLevelInOrder() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let setUp = try Outline(path: path)
        try setUp.append(titles: ["A", "B", "C", "D", "E"], to: try setUp.root())
        try setUp.save()
        // A watcher that has made no objects of the level: its diff reads their rows from the store.
        let mine = try Outline(path: path)
        let root = try mine.root()
        let r = try ResultsRecorder(ResultsController(context: mine.context, request: Outline.level(of: root)))
        let theirs = try Outline(path: path)
        let theirRoot = try theirs.root()
        try theirs.insert("X", into: theirRoot, at: 1)
        try theirs.save()
        let level = try theirs.children(of: theirRoot)
        try theirs.move(level[3], before: level[0])  // C first
        try theirs.save()
        #expect(try mine.context.store.poll() == 2)
        try r.checkAgainstFetch(mine.context.store)
        #expect(r.failures == [])
        #expect((0..<6).map { (r.controller.object(at: $0) as! Item).title } == ["C", "A", "X", "B", "D", "E"])
    }

    /// A save of this connection's delivered while another process committed just before it (not polled
    /// yet): both reach the controllers together, on one snapshot.
    @Test func anOwnSaveCarriesCommitsMadeElsewhereBeforeIt() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let mine = try Outline(path: path)
        let root = try mine.root()
        try mine.append(titles: ["A", "B", "C", "D", "E"], to: root)
        try mine.save()
        let r = try ResultsRecorder(ResultsController(context: mine.context, request: Outline.level(of: root)))
        let theirs = try Outline(path: path)
        let level = try theirs.children(of: try theirs.root())
        try theirs.move(level[2], before: level[0])  // C first
        try theirs.save()
        try mine.insert("X", into: root, at: 1)  // between A and B as this context last saw them
        try mine.save()
        #expect(r.take().count == 1)
        try r.checkAgainstFetch(mine.context.store)
        #expect(r.failures == [])
    }

    @Test func missedEntriesResynchronize() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let mine = try Outline(path: path)
        let root = try mine.root()
        try mine.append(titles: ["a", "b"], to: root)
        try mine.save()
        let r = try ResultsRecorder(ResultsController(context: mine.context, request: Outline.level(of: root)))
        let theirs = try Outline(path: path)
        try theirs.append("c", to: try theirs.root())
        try theirs.save()
        try theirs.append("d", to: try theirs.root())
        try theirs.save()
        // The log entries we have not read are pruned before we poll (those of actions are in their history rows).
        try theirs.context.store.queue.write { db in
            try db.execute(sql: "DELETE FROM og_changes")
            try db.execute(sql: "UPDATE og_history SET changes = NULL")
        }
        try theirs.append("e", to: try theirs.root())
        try theirs.save()
        try mine.context.store.poll()
        #expect(r.take() == ["insert [0.2, 0.3, 0.4]; update [0.0->0.0, 0.1->0.1]"])
        try r.checkAgainstFetch(mine.context.store)
        #expect(r.failures == [])
    }
}

/// A controller on a file store reads its IDs in the background and shows its first rows at once.
@Suite struct BackgroundLoadingTests {
    @Test func firstWindowFirstThenTheWholeListBeforeAnyChange() throws {
        let dir = TemporaryDirectory("burrow-loading")
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: dir.path())
        let root = try o.root()
        try o.append(titles: (0..<5000).map { "item \($0)" }, to: root)
        try o.save()
        let c = ResultsController(context: o.context, request: Outline.level(of: root))
        try c.performFetch(window: 16)
        #expect(c.loadedCount >= 16)
        #expect((c.object(at: 15) as! Item).title == "item 15")
        let r = try ResultsRecorder(c)  // reads the whole list: waits for the scan
        #expect(c.isComplete && c.count == 5000)
        try o.insert("new", into: root, at: 4000)
        try o.save()
        #expect(r.take() == ["insert [0.4000]"])
        try r.checkAgainstFetch(o.context.store)
        #expect(r.failures == [])
        // A change that arrives while the scan still runs waits for it, then diffs against the whole list.
        let d = ResultsController(context: o.context, request: Outline.level(of: root))
        var batches: [String] = []
        d.onChange = { batches.append($0.description) }
        try d.performFetch(window: 1)
        try o.delete(try o.child(of: root, at: 4500)!)
        try o.save()
        #expect(batches == ["delete [0.4500]"])
        #expect(d.count == 5000)
    }
}
