import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

@Suite struct ResultsControllerTests {
    /// An outline with a root holding `a`…`e`, and `x`, `y` under `a`.
    func world() throws -> (Outline, Item, [Item], [Item]) {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let top = try o.append(titles: ["a", "b", "c", "d", "e"], to: root)
        let sub = try o.append(titles: ["x", "y"], to: top[0])
        try o.save()
        return (o, root, top, sub)
    }

    func recorder(_ o: Outline, _ parent: Item) throws -> ResultsRecorder {
        try ResultsRecorder(ResultsController(context: o.context, request: Outline.level(of: parent)))
    }

    /// Each edit, and the exact batch each level gets.
    @Test func batchTable() throws {
        typealias Edit = (Outline, Item, [Item], [Item]) throws -> Void
        let table: [(String, Edit, [String], [String])] = [
            ("append", { o, r, _, _ in try o.append("f", to: r) }, ["insert [0.5]"], []),
            ("insert at 2", { o, r, _, _ in try o.insert("new", into: r, at: 2) }, ["insert [0.2]"], []),
            ("delete first (its level goes)", { o, _, t, _ in try o.delete(t[0]) }, ["delete [0.0]"], ["delete [0.0, 0.1]; invalidated"]),
            ("delete middle", { o, _, t, _ in try o.delete(t[2]) }, ["delete [0.2]"], []),
            ("delete last", { o, _, t, _ in try o.delete(t[4]) }, ["delete [0.4]"], []),
            ("re-parent (a's count changes)", { o, _, t, s in try o.move(s[1], after: t[1]) }, ["insert [0.2]; update [0.0->0.0]"], ["delete [0.1]"]),
            ("reorder down", { o, _, t, _ in try o.move(t[0], after: t[3]) }, ["move [0.0->0.3]"], []),
            ("reorder up", { o, _, t, _ in try o.move(t[4], before: t[1]) }, ["move [0.4->0.1]"], []),
            ("rename", { _, _, t, _ in t[2].title = "C" }, ["update [0.2->0.2]"], []),
            ("rename in sub-level", { _, _, _, s in s[0].title = "X" }, [], ["update [0.0->0.0]"]),
            (
                "two changes, one batch",
                { o, r, t, _ in
                    t[1].title = "B"
                    try o.append("z", to: r)
                }, ["insert [0.5]; update [0.1->0.1]"], []
            ),
            ("child count changes the parent's row", { o, _, t, _ in try o.append("sub", to: t[3]) }, ["update [0.3->0.3]"], []),
            ("unrelated level", { o, _, t, _ in try o.append("deep", to: t[4]) }, ["update [0.4->0.4]"], [])
        ]
        for (name, edit, topBatches, subBatches) in table {
            let (o, root, top, sub) = try world()
            let rTop = try recorder(o, root), rSub = try recorder(o, top[0])
            try edit(o, root, top, sub)
            try o.save()
            #expect(rTop.take() == topBatches, "\(name): top level")
            #expect(rSub.take() == subBatches, "\(name): level under a")
            try rTop.checkAgainstFetch(o.context.store)
            try rSub.checkAgainstFetch(o.context.store)
            #expect(rTop.failures + rSub.failures == [], "\(name)")
        }
    }

    @Test func leavingAndEnteringThePredicate() throws {
        let (o, root, top, _) = try world()
        let open = FetchRequest("Item", where: Property("parent") == root && Property("done") == false, sortedBy: [SortKey("order")])
        let r = try ResultsRecorder(ResultsController(context: o.context, request: open))
        top[1].isDone = true
        try o.save()
        top[1].isDone = false
        try o.save()
        #expect(r.take() == ["delete [0.1]", "insert [0.1]"])
        // Nothing in the result changed: no batch at all.
        top[1].isDone = false
        try o.save()
        try o.append("deep", to: top[0].parent!.parent ?? root)
        #expect(r.failures == [])
    }

    @Test func pauseResumeCoalescesAndInvalidates() throws {
        let (o, root, top, sub) = try world()
        let level = try recorder(o, top[0])
        level.controller.pause()
        try o.append("z", to: top[0])
        try o.save()
        sub[0].title = "X"
        try o.save()
        try o.delete(sub[1])
        try o.save()
        #expect(level.take() == [])
        try level.controller.resume()
        #expect(level.take() == ["delete [0.1]; insert [0.1]; update [0.0->0.0]; reload"])
        try level.controller.resume()  // nothing more
        #expect(level.take() == [])
        level.controller.pause()
        try o.delete(top[0])
        try o.save()
        try level.controller.resume()
        #expect(level.take() == ["delete [0.0, 0.1]; invalidated; reload"])
        #expect(level.controller.isInvalidated)
        try o.append("after", to: root)
        try o.save()
        #expect(level.take() == [])
        #expect(level.failures == [])
    }

    @Test func otherContextsSaves() throws {
        let (o, root, top, _) = try world()
        let r = try recorder(o, root)
        let other = Outline(context: Context(store: o.context.store))
        let theirRoot = try other.root()
        try other.insert("from elsewhere", into: theirRoot, at: 1)
        try other.save()
        #expect(r.take() == ["insert [0.1]"])
        (try other.context.existingObject(for: top[2].objectID) as! Item).title = "renamed elsewhere"
        try other.save()
        #expect(r.take() == ["update [0.3->0.3]"])
        #expect((r.controller.object(at: 3) as! Item).title == "renamed elsewhere")
        try r.checkAgainstFetch(o.context.store)
        #expect(r.failures == [])
    }

    @Test func oneInsertIntoAHugeLevelIsAConstantBatch() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        try o.append(titles: (0..<20_000).map { "i\($0)" }, to: root)
        try o.save()
        let r = try recorder(o, root)
        try o.insert("top", into: root, at: 0)
        try o.save()
        #expect(r.take() == ["insert [0.0]"])
        try o.move(try o.child(of: root, at: 10_000)!, before: try o.child(of: root, at: 5)!)
        try o.save()
        #expect(r.take() == ["move [0.10000->0.5]"])
        try r.checkAgainstFetch(o.context.store)
        #expect(r.failures == [])
    }
}
