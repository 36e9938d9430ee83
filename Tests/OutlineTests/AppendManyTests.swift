import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// `append(titles:to:)` of many titles inside `perform` writes rows, not objects: what it stores, what undo
/// and redo do with it, what a results controller and another connection see, must be what the object path
/// gives.
@Suite struct AppendManyTests {
    let many = (0..<(Outline.rowsAtOnce + 44)).map { "item \($0) ü" }

    func paths() -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory("append-many")
        return (dir, dir.path("o.sqlite"))
    }

    /// Every stored value of every item but the times and the IDs, in level order, with each item's
    /// parent by title: what the two paths must agree on.
    func shape(_ o: Outline) throws -> [[String]] {
        let fresh = Outline(context: Context(store: o.context.store))
        var out: [[String]] = []
        func walk(_ parent: Item) throws {
            for child in try fresh.children(of: parent) {
                let slots = child.entity.storedSlots.filter { ![Item.Slot.created, Item.Slot.modified, child.entity.slot("parent")!].contains($0) }
                out.append([parent.title] + slots.map { "\(child.values[$0])" })
                try walk(child)
            }
        }
        try walk(try fresh.root())
        return out
    }

    /// The same appends, once as objects (below the threshold, one at a time) and once as rows, store the
    /// same items; rows and objects appended to one level in one unit of work keep their order (a second
    /// append sees the first's rows).
    @Test func rowsStoreWhatObjectsStore() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let byRows = try Outline(path: path)
        let byObjects = try Outline(context: Context(store: Store(inMemoryWith: OutlineModel.model)))
        for o in [byRows, byObjects] {
            let top = try o.perform("Set up") { try o.append(titles: ["A", "B"], to: try o.root().objectID) }
            try o.perform("Add") {
                if o === byRows {
                    let ids = try o.append(titles: many, to: top[0])
                    #expect(o.context.registeredObject(for: ids[0]) == nil, "not the rows path")
                    try o.append("between", to: top[0])
                    _ = try o.append(titles: many.map { $0 + " again" }, to: top[0])
                } else {
                    for t in many { try o.append(t, to: top[0]) }
                    try o.append("between", to: top[0])
                    for t in many { try o.append(t + " again", to: top[0]) }
                }
            }
        }
        let rowsShape = try shape(byRows), objectsShape = try shape(byObjects)
        #expect(rowsShape.count == 2 + 2 * many.count + 1)
        #expect(rowsShape == objectsShape)
        let a = try #require(try byRows.child(of: try byRows.root(), at: 0))
        #expect(a.childCount == 2 * many.count + 1)
        let level = try byRows.children(of: a).map(\.title)
        #expect(level == many + ["between"] + many.map { $0 + " again" })
        let created = try byRows.children(of: a).compactMap(\.created)
        #expect(created.count == 2 * many.count + 1 && created.allSatisfy { abs($0.timeIntervalSinceNow) < 60 })
        #expect(try byRows.context.count(FetchRequest(Item.entityName, where: Property("title") == "item 7 ü")) == 1)
    }

    /// Undo removes the rows and their count from the parent, redo brings back the same items with the same
    /// IDs, in one step each, and the history says what was done.
    @Test func undoAndRedoTheRows() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: path)
        let top = try o.perform("Set up") { try o.append(titles: ["A"], to: try o.root().objectID) }
        let before = try shape(o)
        let ids = try o.perform("Add many") { try o.append(titles: many, to: top[0]) }
        let after = try shape(o)
        #expect(after.count == 1 + many.count)
        #expect(try o.undoAction()?.name == "Add many")
        #expect(try shape(o) == before)
        #expect((try o.context.existingObject(for: top[0]) as? Item)?.childCount == 0)
        #expect(try o.redoAction()?.name == "Add many")
        #expect(try shape(o) == after)
        let level = try o.children(of: try #require(try o.context.existingObject(for: top[0]) as? Item))
        #expect(level.map(\.objectID) == ids)
        #expect(level.first?.childCount == 0)
        let parent = try o.context.existingObject(for: top[0]) as? Item
        #expect(parent?.childCount == many.count)
    }

    /// Appended as rows, then renamed, made a task, moved and deleted in the same unit of work: one action
    /// that undo takes back whole (not "changed elsewhere", which skipped it and undid the action before) and
    /// redo brings back as it was.
    @Test func rowsEditedInTheSameUnitUndoAsOne() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: path)
        let top = try o.perform("Set up") { try o.append(titles: ["A", "B"], to: try o.root().objectID) }
        let before = try shape(o)
        try o.perform("Add and edit") {
            let ids = try o.append(titles: many, to: top[0])
            #expect(o.context.registeredObject(for: ids[0]) == nil, "not the rows path")
            try o.rename(ids[0], to: "renamed")
            try o.setTask(ids[1], CaptureLine("TODO task !A", today: "2026-12-04").extras!)
            try o.move(ids[2], to: top[1], at: 0)
            try o.delete(ids[3])
        }
        let after = try shape(o)
        #expect(after.count == before.count + many.count - 1)
        let a = try #require(try o.context.existingObject(for: top[0]) as? Item)
        #expect(try o.children(of: a).contains { $0.title == "renamed" })
        #expect(try o.undoAction()?.name == "Add and edit")
        #expect(try shape(o) == before)
        #expect(try o.redoAction()?.name == "Add and edit")
        #expect(try shape(o) == after)
        #expect(try o.undoAction()?.name == "Add and edit")
        #expect(try shape(o) == before)
    }

    /// Random units of work that append rows and then rename, make a task of, move, delete or append beside
    /// some of them (each unit hits the case: a row both fingerprinted and edited in its own save), each undone
    /// and redone whole: the stored shape before, then after, every time. Prints how many rows were edited in
    /// their own unit, by edit.
    @Test func randomEditsOfFreshRowsUndoAsOne() throws {
        var hits = ["rename": 0, "task": 0, "move": 0, "delete": 0, "append": 0]
        for seed in 0..<24 {
            var g = SeededRandom(seed: UInt64(seed))
            let o = try Outline(context: Context(store: Store(inMemoryWith: OutlineModel.model)))
            let top = try o.perform("Set up") { try o.append(titles: ["A", "B"], to: try o.root().objectID) }
            let before = try shape(o)
            try o.perform("Unit \(seed)") {
                var ids = try o.append(titles: many.map { "\(seed) \($0)" }, to: top[Int(g.next() % 2)])
                #expect(o.context.registeredObject(for: ids[0]) == nil, "not the rows path")
                for _ in 0..<(1 + Int(g.next() % 6)) {
                    let k = Int(g.next() % UInt64(ids.count))
                    switch g.next() % 5 {
                    case 0:
                        try o.rename(ids[k], to: "renamed \(g.next() % 1000)")
                        hits["rename", default: 0] += 1
                    case 1:
                        try o.setTask(ids[k], CaptureLine("TODO x !B", today: "2026-12-04").extras!)
                        hits["task", default: 0] += 1
                    case 2:
                        try o.move(ids[k], to: top[Int(g.next() % 2)], at: Int(g.next() % 3))
                        hits["move", default: 0] += 1
                    case 3:
                        try o.delete(ids[k])
                        ids.remove(at: k)
                        hits["delete", default: 0] += 1
                    default:
                        ids += try o.append(titles: ["extra \(g.next() % 100)"], to: ids[k])
                        hits["append", default: 0] += 1
                    }
                }
            }
            let after = try shape(o)
            #expect(try o.undoAction()?.name == "Unit \(seed)", "seed \(seed)")
            #expect(try shape(o) == before, "seed \(seed): undo")
            #expect(try o.redoAction()?.name == "Unit \(seed)", "seed \(seed)")
            #expect(try shape(o) == after, "seed \(seed): redo")
        }
        print("AppendManyTests: fresh rows edited in their own unit, by edit: \(hits.sorted { $0.key < $1.key })")
        #expect(hits.values.allSatisfy { $0 >= 5 }, "\(hits)")
    }

    /// The rows are in the search index, as objects' titles are.
    @Test func rowsAreFound() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: path)
        let root = try o.root()
        let ids = try o.perform { try o.append(titles: many, to: root.objectID) }
        #expect(try o.searchIDs("ITEM 7 U") == [ids[7]])
        #expect(try o.searchIDs("item 29 ü").count == 1)
        #expect(try o.searchIDs("item 29").count == 11)
    }

    /// Rows an import left waiting (under an item made in the same unit) are not written with these: objects
    /// then, and no trap.
    @Test func rowsWaitingFromAnImportMakeObjects() throws {
        let o = try Outline(context: Context(store: Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let ids = try o.perform {
            let fresh = try o.append("fresh", to: root.objectID)
            _ = try o.add([OutlineNode("imported")], under: fresh)
            return try o.append(titles: many, to: root.objectID)
        }
        #expect(ids.allSatisfy { o.context.registeredObject(for: $0) != nil })
        #expect(try o.children(of: root).count == 1 + many.count)
    }

    /// A unit that appended rows and then failed leaves nothing, and no object stands for a row that went
    /// with it: the IDs it took are given to the next rows, which read as what they are.
    @Test func aFailedUnitLeavesNoRowsAndNoStaleObjects() throws {
        struct Stop: Error {}
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: path)
        let root = try o.root()
        var first: [ObjectID] = []
        #expect(throws: Stop.self) {
            try o.perform {
                first = try o.append(titles: many, to: root.objectID)
                #expect((try o.context.existingObject(for: first[0]) as? Item)?.title == many[0])
                throw Stop()
            }
        }
        #expect(try o.children(of: root).isEmpty)
        let again = try o.perform { try o.append(titles: many.map { "new " + $0 }, to: root.objectID) }
        for id in [again[0], first[0]] {
            let item = try o.context.existingObject(for: id) as? Item
            #expect(item == nil || item?.title.hasPrefix("new ") == true, "\(id): \(item?.title ?? "none")")
        }
        #expect(try o.children(of: root).map(\.title) == many.map { "new " + $0 })
    }

    /// A controller on the level gets one batch that applied to its old list gives a fresh fetch, and a
    /// second connection sees every row at its next poll.
    @Test func watchersSeeTheRows() throws {
        let (dir, path) = paths()
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: path)
        let root = try o.root()
        try o.perform { _ = try o.append(titles: ["first", "last"], to: root.objectID) }
        let r = try ResultsRecorder(ResultsController(context: o.context, request: Outline.level(of: root)))
        let other = try Outline(path: path)
        let theirs = try ResultsRecorder(ResultsController(context: other.context, request: Outline.level(of: try other.root())))
        try o.perform { _ = try o.append(titles: many, to: root.objectID) }
        #expect(r.batches.count == 1)
        try r.checkAgainstFetch(o.context.store)
        #expect(r.failures == [])
        #expect(try other.context.store.poll() == 1)
        try theirs.checkAgainstFetch(other.context.store)
        #expect(theirs.failures == [])
        #expect(theirs.controller.objectIDs.count == 2 + many.count)
        #expect(try other.children(of: try other.root()).map(\.title) == ["first", "last"] + many)
    }

    /// Under an item made in the same unit of work, or below the threshold: objects, as before (a row
    /// cannot be written before the object it points to).
    @Test func otherwiseObjects() throws {
        let o = try Outline(context: Context(store: Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        try o.perform {
            let fresh = try o.append("fresh", to: root.objectID)
            let under = try o.append(titles: many, to: fresh)
            #expect(under.allSatisfy { o.context.registeredObject(for: $0) != nil })
        }
        let few = try o.perform { try o.append(titles: ["x", "y"], to: root.objectID) }
        #expect(few.allSatisfy { o.context.registeredObject(for: $0) != nil })
        let rows = try o.perform { try o.append(titles: many, to: root.objectID) }
        #expect(rows.allSatisfy { o.context.registeredObject(for: $0) == nil })
        #expect(try o.children(of: root).map(\.title) == ["fresh", "x", "y"] + many)
    }
}
