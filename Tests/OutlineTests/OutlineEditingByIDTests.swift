import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Edits that name items by ID (what a screen holding `ItemRow` values uses) and the reads that hand out
/// values: each edit resolves its items inside its own write transaction, so an item deleted by someone
/// else is a clear `ItemGone` and the unit of work changes nothing.
@Suite struct OutlineEditingByIDTests {
    /// A fresh outline on an in-memory store, and a second outline on the same store for "someone else".
    private func outlines(_ titles: [String]) throws -> (mine: Outline, other: Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let mine = Outline(context: Context(store: store))
        try mine.append(titles: titles, to: try mine.root())
        try mine.save()
        return (mine, Outline(context: Context(store: store)))
    }

    /// A delete names its action by what it deleted, counted by its own walk of the rows, or (deleted object
    /// by object, when the unit of work has other unsaved changes to items) by the rows still stored below.
    @Test(arguments: [false, true]) func aDeleteNamesItsActionByWhatItDeleted(withOtherChanges: Bool) throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let a = try o.append("A", to: o.root())
        let b = try o.append("B", to: a)
        _ = try o.append("C", to: b)
        _ = try o.append("E", to: try o.append("D", to: b))
        let z = try o.append("Z", to: o.root())
        try o.save()
        #expect(try o.deletionDescription(of: a.objectID) == "“A” and 4 sub-items")
        let what = try o.perform { () throws -> String in
            if withOtherChanges { try o.rename(z.objectID, to: "Z2") }
            return try o.deleteNamingAction(a.objectID)
        }
        #expect(what == "“A” and 4 sub-items")
        #expect(o.undoHistory.undoActionName == "Delete “A” and 4 sub-items")
        #expect(try o.perform { try o.deleteNamingAction(z.objectID) } == (withOtherChanges ? "“Z2”" : "“Z”"))
        try o.context.undo()
        try o.context.undo()
        // The second undo takes back the rename too: it was part of the delete's unit of work.
        #expect(try titles(o) == ["A", "Z"])
        #expect(try o.descendantCount(of: a.objectID) == 4)
    }

    /// A range of items deleted at once goes in one walk of the rows: no object for a row below any of them
    /// (one at a time, every item after the first was deleted object by object), one undo step, the count
    /// of what was below them all.
    @Test func aRangeIsDeletedInOneWalk() throws {
        let dir = TemporaryDirectory()
        let o = Outline(context: Context(store: try Store(path: dir.path("range.sqlite"), model: OutlineModel.model)))
        let root = try o.root()
        var ids: [ObjectID] = []
        for k in 0..<300 {
            let item = try o.append("Item \(k)", to: root)
            try o.append(titles: ["a", "b", "c"], to: item)
            ids.append(item.objectID)
        }
        try o.save()
        let before = o.context.statistics.objectsCreated
        let below = try o.perform("Delete 300") { try o.deleteCountingBelow(ids) }
        #expect(below == 900)
        #expect(o.context.statistics.objectsCreated - before < 10, "no object for a row below")
        #expect(try titles(o).isEmpty)
        #expect(try o.context.store.check().isEmpty)
        try o.context.undo()
        #expect(try titles(o).count == 300)
        #expect(try o.descendantCount(of: ids[299]) == 3)
        #expect(try o.context.store.check().isEmpty)
        // A range of one more than is stored: nothing is deleted, and the item gone is named.
        try o.perform("Delete one") { try o.delete(ids[0]) }
        #expect(throws: ItemGone(id: ids[0])) { try o.perform("Delete two") { _ = try o.deleteCountingBelow([ids[1], ids[0]]) } }
        #expect(try titles(o).count == 299)
    }

    /// Deleted object by object (the unit of work has another unsaved change to items), a range with an item
    /// below another counts each item below once, and not the range's own: as the walk of the rows counts.
    @Test func aRangeDeletedObjectByObjectCountsWhatIsBelowOnce() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let a = try o.append("A", to: o.root())
        let a1 = try o.append("A1", to: a)
        try o.append(titles: ["x", "y"], to: a1)
        let z = try o.append("Z", to: o.root())
        try o.save()
        for withOtherChanges in [true, false] {
            let below = try o.perform { () throws -> Int in
                if withOtherChanges { try o.rename(z.objectID, to: "Z2") }
                return try o.deleteCountingBelow([a.objectID, a1.objectID])
            }
            #expect(below == 2, "x and y (withOtherChanges: \(withOtherChanges))")
            #expect(try titles(o) == [withOtherChanges ? "Z2" : "Z"])
            try o.context.undo()
        }
    }

    private func titles(_ o: Outline, under parent: Item? = nil) throws -> [String] {
        try o.children(of: parent ?? o.root()).map(\.title)
    }

    private func id(_ o: Outline, _ title: String) throws -> ObjectID {
        try #require(try o.children(of: o.root()).first { $0.title == title }).objectID
    }

    @Test func eachEditByIDIsOneNamedUndoStep() throws {
        let (o, _) = try outlines(["A", "B", "C"])
        let (a, b, c) = (try id(o, "A"), try id(o, "B"), try id(o, "C"))
        let root = try o.rootRow().id
        let history = o.context.undoHistory
        let before = history.undoCount

        let d = try o.perform("Add “D”") { try o.append("D", to: root) }
        try o.perform("Add two") { try o.append(titles: ["E", "F"], to: root) }
        let ab = try o.perform("Add “AB”") { try o.insert("AB", after: a) }
        try o.perform("Add “Z”") { try o.insert("Z", before: a) }
        #expect(try titles(o) == ["Z", "A", "AB", "B", "C", "D", "E", "F"])
        #expect(try o.row(d)?.title == "D")
        #expect(try o.parentID(of: ab) == root)

        try o.perform("Rename “B”") { try o.rename(b, to: "B2") }
        try o.perform("Mark done “C”") { try o.setDone(c, to: true) }
        #expect(try o.row(b)?.title == "B2")
        #expect(try o.row(c)?.isDone == true)

        try o.perform("Move “C” up") { try o.move(c, before: a) }
        try o.perform("Move “A” down") { try o.move(a, after: d) }
        #expect(try titles(o) == ["Z", "C", "AB", "B2", "D", "A", "E", "F"])
        try o.perform("Indent “AB”") { try o.move(ab, to: b, at: Int.max) }
        #expect(try o.row(b)?.childCount == 1)
        #expect(try o.ancestors(of: ab).map(\.title) == ["B2"])
        #expect(try o.titles(downTo: ab) == ["Burrow", "B2", "AB"])

        #expect(try o.deletionDescription(of: b) == "“B2” and 1 sub-item")
        try o.perform("Delete “B2”") { try o.delete(b) }
        #expect(try o.row(b) == nil)
        #expect(try o.row(ab) == nil)
        #expect(try o.titles(downTo: ab) == [])
        #expect(try titles(o) == ["Z", "C", "D", "A", "E", "F"])

        #expect(history.undoCount == before + 10)
        #expect(history.undoActionName == "Delete “B2”")
        try o.context.undo()
        #expect(try o.row(b)?.title == "B2")
        #expect(try o.row(ab)?.title == "AB")
    }

    @Test(arguments: ["rename", "done", "delete", "moveBefore", "moveAfter", "moveInto", "append", "insertAfter", "insertBefore"])
    func anEditOnAnItemDeletedElsewhereSaysSoAndChangesNothing(edit: String) throws {
        let (o, other) = try outlines(["A", "B", "C"])
        let (a, b) = (try id(o, "A"), try id(o, "B"))
        let steps = o.context.undoHistory.undoCount
        // Someone else deletes B; this context still has it registered as it was.
        try other.delete(try #require(try other.children(of: other.root()).first { $0.title == "B" }))
        try other.save()
        #expect(o.context.undoHistory.undoCount == steps + 1)  // their delete is an action in the shared history
        let error = #expect(throws: ItemGone.self) {
            try o.perform("Edit") {
                // A change made earlier in the same unit of work goes with it.
                try o.rename(a, to: "A changed")
                switch edit {
                case "rename": try o.rename(b, to: "B2")
                case "done": try o.setDone(b, to: true)
                case "delete": try o.delete(b)
                case "moveBefore": try o.move(a, before: b)
                case "moveAfter": try o.move(b, after: a)
                case "moveInto": try o.move(a, to: b, at: 0)
                case "append": try o.append("new", to: b)
                case "insertAfter": try o.insert("new", after: b)
                default: try o.insert("new", before: b)
                }
            }
        }
        #expect(error == ItemGone(id: b))
        #expect(error?.description == "item \(b) no longer exists (it was deleted elsewhere)")
        #expect(try titles(o) == ["A", "C"])
        #expect(try titles(other) == ["A", "C"])
        #expect(o.context.undoHistory.undoCount == steps + 1)
        #expect(!o.context.hasChanges)
        // Nothing is lost: the outline goes on taking edits, and undo still has every earlier step.
        try o.perform("Rename “A”") { try o.rename(a, to: "A2") }
        #expect(try titles(other) == ["A2", "C"])
    }

    /// Another process's delete that this one has not polled yet: the transaction takes it in first, so the
    /// edit fails instead of writing against the deleted row.
    @Test func anUnpolledDeleteByAnotherProcessIsSeenInsideTheTransaction() throws {
        let dir = TemporaryDirectory("by-id")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        let o = try Outline(path: path)
        try o.append(titles: ["A", "B"], to: try o.root())
        try o.save()
        let a = try id(o, "A")
        #expect(try o.row(a)?.title == "A")
        let other = try Outline(path: path)
        try other.delete(try other.item(at: "A"))
        try other.save()
        #expect(throws: ItemGone(id: a)) {
            try o.perform("Mark done “A”") { try o.setDone(a, to: true) }
        }
        #expect(try o.row(a) == nil)
        #expect(try titles(o) == ["B"])
    }

    @Test func goneSaysTheTitleTheCallerSaw() {
        let gone = ItemGone(id: ObjectID(entity: 0, rowID: 7), title: "Milk")
        #expect(gone.description == "“Milk” no longer exists (it was deleted elsewhere)")
        #expect(ItemGone(id: ObjectID(entity: 0, rowID: 7)).description == "item #7 no longer exists (it was deleted elsewhere)")
    }

    @Test func aLevelReadByIDIsTheLevelReadByItemAndItsRowsAreValues() throws {
        let (o, other) = try outlines(["A", "B"])
        let root = try o.root()
        try o.perform { try o.append(titles: ["1", "2"], to: try id(o, "A")) }
        let byID = ResultsController(context: o.context, request: Outline.level(of: root.objectID))
        try byID.performFetch()
        #expect(byID.objectIDs == (try o.children(of: root).map(\.objectID)))
        let row = byID.itemRow(at: 0)
        #expect(row == ItemRow(id: try id(o, "A"), title: "A", isDone: false, childCount: 2))
        // A row is a snapshot: a later change elsewhere reaches the next read, not the row already read.
        try other.children(of: other.root())[0].title = "A2"
        try other.save()
        #expect(row.title == "A")
        #expect(byID.itemRow(at: 0).title == "A2")
        #expect(try o.rootRow() == ItemRow(id: root.objectID, title: "Burrow", isDone: false, childCount: 2))
        #expect(try o.parentID(of: root.objectID) == nil)
        #expect(try o.ancestors(of: try id(o, "B")) == [])
        #expect(try o.searchIDs("a2") == [try id(o, "A2")])
    }
}
