import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// Random units of work from two contexts, with undo, redo and paused controllers. After each one, every
/// live controller's batch applied to its old list must give a fresh fetch, and the outline must be
/// intact (keys ordered and unique per level, child counts right). A failure names its seed, to replay.
@Suite struct RandomizedResultsTests {
    @Test(arguments: TestSeed.seeds([11, 12, 13]))
    func randomUnitsOfWork(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store(inMemoryWith: OutlineModel.model)
        let a = Outline(context: Context(store: store))
        let b = Outline(context: Context(store: store))
        let root = try a.root()
        try a.append(titles: ["a", "b", "c", "d"], to: root)
        try a.save()
        var recorders: [ResultsRecorder] = []
        // Half the reads make partial faults, so every edit also runs on objects that hold only a title;
        // the titles they read must be what the store holds (both contexts have saved everything here).
        var staleTitles: [String] = []
        func allItems(_ o: Outline) throws -> [Item] {
            var r = FetchRequest("Item")
            guard rng.next() % 2 == 0 else { return try o.context.fetch(r).map { $0 as! Item } }
            r.propertiesToFetch = ["title"]
            let items = try o.context.fetch(r).map { $0 as! Item }
            let stored = try o.context.fetchValues(FetchRequest("Item"), keys: ["title"]).map { $0.values[0] }
            if items.map({ Value.string($0.title) }) != stored { staleTitles.append("\(items.map(\.title)) != \(stored)") }
            return items
        }
        func pick<T>(_ xs: [T]) -> T? { xs.isEmpty ? nil : xs[Int(rng.next() % UInt64(xs.count))] }
        func refillControllers() throws {
            recorders.removeAll { $0.controller.isInvalidated }
            while recorders.count < 4 {
                let parent = pick(try allItems(a)) ?? root
                let sectioned = rng.next() % 3 == 0
                var request = Outline.level(of: parent)
                if rng.next() % 2 == 0 { request.propertiesToFetch = ["title", "done"] }
                if sectioned { request.sortKeys.insert(SortKey("done"), at: 0) }
                // Some unsectioned levels show a window: a limit, sometimes after an offset.
                if !sectioned && rng.next() % 3 == 0 {
                    request.limit = Int(rng.next() % 4) + 1
                    request.offset = Int(rng.next() % 3)
                }
                let c = ResultsController(context: a.context, request: request, sectionKey: sectioned ? "done" : nil)
                recorders.append(try ResultsRecorder(c))
            }
        }
        try refillControllers()
        var log: [String] = []
        for step in 0..<1500 {
            let items = try allItems(a)
            let nonRoot = items.filter { !$0.isRoot }
            let op = rng.next() % 13
            do {
                switch op {
                case 0, 1, 12:
                    let parent = pick(items)!
                    try a.insert("n\(step)", into: parent, at: Int(rng.next() % UInt64(parent.childCount + 2)))
                    log.append("insert under \(parent.objectID)")
                case 2:
                    // Deletes take whole subtrees: only once the outline has grown, and prefer small ones.
                    if nonRoot.count > 25, let x = pick(nonRoot.filter { $0.childCount < 3 }) {
                        try a.delete(x)
                        log.append("delete \(x.objectID)")
                    }
                case 3:
                    if let x = pick(nonRoot), let p = pick(items) {
                        try? a.move(x, to: p, at: Int(rng.next() % UInt64(p.childCount + 1)))
                        log.append("move \(x.objectID) into \(p.objectID)")
                    }
                case 4:
                    if let x = pick(nonRoot), let y = pick(nonRoot), x !== y {
                        if rng.next() % 2 == 0 { try? a.move(x, before: y) } else { try? a.move(x, after: y) }
                        log.append("reorder \(x.objectID) beside \(y.objectID)")
                    }
                case 5:
                    if let x = pick(nonRoot) { x.title = "r\(step)"; log.append("rename \(x.objectID)") }
                case 6:
                    if let x = pick(nonRoot) { x.isDone.toggle(); log.append("toggle \(x.objectID)") }
                case 7:
                    try a.context.undo()
                    log.append("undo")
                case 8:
                    try a.context.redo()
                    log.append("redo")
                case 9:
                    if let r = pick(recorders) {
                        if r.controller.isPaused { try r.controller.resume() } else { r.controller.pause() }
                        log.append("pause/resume")
                    }
                case 10:
                    // A commit from the second context.
                    let theirs = try allItems(b)
                    if let p = pick(theirs) {
                        switch rng.next() % 3 {
                        case 0: try b.insert("b\(step)", into: p, at: Int(rng.next() % UInt64(p.childCount + 1)))
                        case 1: if !p.isRoot { p.title = "b\(step)" }
                        default: if !p.isRoot && theirs.count > 25 && p.childCount < 3 { try b.delete(p) }
                        }
                        try b.save()
                        log.append("other context")
                    }
                default:
                    // Two edits in one unit of work.
                    if let x = pick(nonRoot), let p = pick(items) {
                        x.title = "two\(step)"
                        try a.append("t\(step)", to: p)
                        log.append("two edits")
                    }
                }
                if a.context.hasChanges { try a.save(actionName: "step \(step)") }
            } catch is UndoConflict {
                log.append("undo conflict")
            } catch {
                a.context.discardChanges()
                log.append("failed: \(error)")
            }
            for r in recorders where !r.controller.isPaused && !r.controller.isInvalidated {
                try r.checkAgainstFetch(store)
            }
            let failures = recorders.flatMap(\.failures) + staleTitles
            if !failures.isEmpty {
                Issue.record("\(rng.note), step \(step): \(failures.first!)\nlast ops: \(log.suffix(5))")
                return
            }
            if let problem = try checkOutline(store) {
                Issue.record("\(rng.note), step \(step): \(problem)\nlast ops: \(log.suffix(6))")
                return
            }
            if rng.next() % 10 == 0 { try refillControllers() }
        }
    }

    /// Every level's keys are valid and distinct, and every stored child count is right.
    func checkOutline(_ store: Store) throws -> String? {
        let c = Context(store: store)
        let all = try c.fetch(FetchRequest("Item")).map { $0 as! Item }
        var children: [ObjectID: [String]] = [:]
        for item in all { if let p = item.parent { children[p.objectID, default: []].append(item.order) } }
        for item in all {
            let keys = children[item.objectID] ?? []
            if item.childCount != keys.count { return "child count of \(item.objectID) is \(item.childCount), it has \(keys.count)" }
            if !keys.allSatisfy(OrderKey.isValid) { return "invalid key under \(item.objectID): \(keys)" }
        }
        return nil
    }
}
