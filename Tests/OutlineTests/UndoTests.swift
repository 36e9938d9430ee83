import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// Undo and redo restore the whole graph exactly (values, relationships, order keys, IDs).
@Suite struct UndoTests {
    func makeOutline(_ store: Store? = nil) throws -> Outline {
        Outline(context: Context(store: try store ?? Store(inMemoryWith: OutlineModel.model)))
    }

    /// Every row of the store, by ID: the whole graph as the store holds it.
    func graph(_ o: Outline) throws -> [Int64: [Value]] {
        let fresh = Context(store: o.context.store)
        var out: [Int64: [Value]] = [:]
        let all = try fresh.fetch(FetchRequest("Item"))
        for (i, item) in all.enumerated() {
            out[all.rowIDs[i]] = item.entity.storedSlots.map { item.values[$0] }
        }
        return out
    }

    func titles(_ o: Outline, _ parent: Item) throws -> [String] { try o.children(of: parent).map(\.title) }

    /// Each edit, undone then redone, gives back exactly the graph before and after it.
    @Test func everyEditUndoesAndRedoesExactly() throws {
        let o = try makeOutline()
        let root = try o.root()
        let items = try o.append(titles: ["a", "b", "c", "d"], to: root)
        try o.append(titles: ["b1", "b2"], to: items[1])
        try o.save(actionName: "Setup")
        let edits: [(String, () throws -> Void)] = [
            ("Add “e”", { try o.append("e", to: root) }),
            ("Insert “top”", { try o.insert("top", into: root, at: 0) }),
            ("Rename “a”", { items[0].title = "A!" }),
            ("Toggle “c”", { items[2].isDone.toggle() }),
            ("Move “d” up", { try o.move(items[3], before: items[0]) }),
            ("Indent “c”", { try o.move(items[2], to: items[1], at: 0) }),
            ("Move “b1” out", { try o.move(try o.child(of: items[1], at: 0)!, after: items[0]) }),
            ("Delete “b”", { try o.delete(items[1]) })
        ]
        for (name, edit) in edits {
            let before = try graph(o)
            try edit()
            try o.save(actionName: name)
            let after = try graph(o)
            #expect(before != after, "\(name)")
            #expect(o.context.undoHistory.undoActionName == name)
            #expect(try o.context.undo() == name)
            #expect(try graph(o) == before, "undo \(name)")
            #expect(o.context.undoHistory.redoActionName == name)
            #expect(try o.context.redo() == name)
            #expect(try graph(o) == after, "redo \(name)")
        }
        // And all the way back, in order.
        for _ in edits { try o.context.undo() }
        #expect(try titles(o, root) == ["a", "b", "c", "d"])
        #expect(try titles(o, items[1]) == ["b1", "b2"])
        #expect(root.childCount == 4 && items[1].childCount == 2)
    }

    @Test func theSeedStory() throws {
        let o = try makeOutline()
        let root = try o.root()
        let groceries = try o.append("Groceries", to: root)
        try o.save(actionName: "Add “Groceries”")
        try o.append("Milk", to: groceries)
        try o.save(actionName: "Add “Milk”")
        try o.append("Eggs", to: groceries)
        try o.save(actionName: "Add “Eggs”")
        let ids = try o.children(of: groceries).map(\.objectID)
        try o.delete(groceries)
        try o.save(actionName: "Delete “Groceries” and 2 sub-items")
        #expect(try titles(o, root) == [])
        #expect(try o.context.undo() == "Delete “Groceries” and 2 sub-items")
        #expect(try titles(o, root) == ["Groceries"])
        let back = try #require(try o.child(of: root, at: 0))
        #expect(back.objectID == groceries.objectID)
        #expect(try o.children(of: back).map(\.objectID) == ids)
        #expect(try titles(o, back) == ["Milk", "Eggs"])
        #expect(back.childCount == 2 && root.childCount == 1)
        try o.context.redo()
        #expect(try titles(o, root) == [])
        #expect(root.childCount == 0)
    }

    @Test func undoingACascadeOfTenThousandIsOneStep() throws {
        let o = try makeOutline()
        let root = try o.root()
        let top = try o.append("big", to: root)
        for chunk in try o.append(titles: (0..<100).map { "c\($0)" }, to: top) {
            try o.append(titles: (0..<99).map { "leaf \($0)" }, to: chunk)
        }
        try o.save(actionName: "Build")
        let before = try graph(o)
        #expect(before.count == 1 + 1 + 100 + 9900)
        try o.delete(top)
        try o.save(actionName: "Delete “big”")
        #expect(try graph(o).count == 1)
        try o.context.undo()
        #expect(try graph(o) == before)
        #expect(o.context.undoHistory.undoCount == 1)
    }

    /// A context that has read nothing deletes a tree of 10,000 in one walk of the store: no read of an
    /// object's members per object (there were 10,101 before), every row read once (the top and the 10,000 below), and undo brings all back.
    @Test func aTreeIsDeletedInOneWalk() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try makeOutline(store)
        let top = try o.append("big", to: try o.root())
        for chunk in try o.append(titles: (0..<100).map { "c\($0)" }, to: top) {
            try o.append(titles: (0..<99).map { "leaf \($0)" }, to: chunk)
        }
        try o.save(actionName: "Build")
        let before = try graph(o)
        let fresh = try makeOutline(store)
        let id = top.objectID
        let start = fresh.context.statistics
        try fresh.perform("Delete “big”") { try fresh.delete(id) }
        #expect(fresh.context.statistics.relationReads - start.relationReads == 0)
        #expect(fresh.context.statistics.rowsLoaded - start.rowsLoaded == 10_001)  // the top and the 10,000 below it, each once
        #expect(try graph(fresh).count == 1)
        try fresh.context.undo()
        #expect(try graph(fresh) == before)
    }

    @Test func aConflictWithAnotherContextChangesNothingAndIsSkipped() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try makeOutline(store)
        let root = try o.root()
        let milk = try o.append("Milk", to: root)
        try o.save(actionName: "Add “Milk”")
        milk.title = "Oat milk"
        try o.save(actionName: "Rename “Milk”")
        // Another context deletes the item.
        let other = try makeOutline(store)
        other.context.undoHistory.recordsActions = false  // as a sync: its changes are not actions here
        try other.delete(try #require(try other.context.existingObject(for: milk.objectID) as? Item))
        try other.save()
        let before = try graph(o)
        #expect(throws: UndoConflict(verb: "undo", action: "Rename “Milk”", object: milk.objectID, entity: "Item", reason: "was deleted elsewhere")) {
            try o.context.undo()
        }
        #expect(try graph(o) == before)
        #expect(!o.context.hasChanges)
        // The step is skipped for good; the one before it undoes, as a no-op: its item is gone already.
        #expect(o.context.undoHistory.undoActionName == "Add “Milk”")
        #expect(try o.context.undo() == "Add “Milk”")
        #expect(try graph(o) == before)
        // The stack stays usable: new steps undo fine.
        let bread = try o.append("Bread", to: root)
        try o.save(actionName: "Add “Bread”")
        #expect(try o.context.undo() == "Add “Bread”")
        #expect(bread.isDeleted || bread.context == nil)
    }

    /// Rename, then another process renames too: undo reports the conflict once and skips that step; every
    /// earlier step still undoes (the old code repeated the conflict on every `u` forever).
    @Test func oneConflictNeverBlocksTheRestOfHistory() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try makeOutline(store)
        let root = try o.root()
        let a = try o.append("a", to: root)
        try o.save(actionName: "Add “a”")
        let b = try o.append("b", to: root)
        try o.save(actionName: "Add “b”")
        a.title = "A"
        try o.save(actionName: "Rename “a”")
        let other = try makeOutline(store)
        other.context.undoHistory.recordsActions = false  // as a sync: its changes are not actions here
        (try other.context.existingObject(for: a.objectID) as! Item).title = "theirs"
        try other.save()
        #expect(throws: UndoConflict.self) { try o.context.undo() }
        #expect(try titles(o, root) == ["theirs", "b"])
        #expect(try o.context.undo() == "Add “b”")
        #expect(try titles(o, root) == ["theirs"])
        #expect(try o.context.redo() == "Add “b”")
        #expect(try o.context.undo() == "Add “b”")
        #expect(b.context == nil || b.isDeleted || b.isInaccessible)
        // Removing "a" would throw away their rename: skipped too, and "a" stays.
        let e = try #require(throws: UndoConflict.self) { try o.context.undo() }
        #expect(e.reason == "was changed elsewhere (title)")
        #expect(try titles(o, root) == ["theirs"])
        #expect(!o.context.undoHistory.canUndo)
        // Redo brings "b" back with its ID; the skipped steps are not on the redo stack.
        #expect(try o.context.redo() == "Add “b”")
        #expect(o.context.undoHistory.redoCount == 0)
        #expect(try titles(o, root) == ["theirs", "b"])
        #expect(try o.child(of: root, at: 1)?.objectID == b.objectID)
    }

    /// Undoing an add whose item got sub-items elsewhere would delete their work, and undoing a move out of
    /// a level deleted elsewhere would point to a missing parent: both are conflicts, skipped, with nothing
    /// half-done left behind.
    @Test func stepsThatWouldLoseWorkDoneElsewhereAreSkipped() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try makeOutline(store)
        let root = try o.root()
        let src = try o.append("src", to: root)
        let x = try o.append("x", to: src)
        try o.save(actionName: "Add")
        try o.move(x, to: root, at: 0)
        try o.save(actionName: "Move “x”")
        let p = try o.append("p", to: root)
        try o.save(actionName: "Add “p”")
        let other = try makeOutline(store)
        other.context.undoHistory.recordsActions = false  // as a sync: its changes are not actions here
        try other.append("theirs", to: try #require(try other.context.existingObject(for: p.objectID) as? Item))
        try other.delete(try #require(try other.context.existingObject(for: src.objectID) as? Item))
        try other.save()

        let e = try #require(throws: UndoConflict.self) { try o.context.undo() }
        #expect(e.reason == "has 1 more children now (added elsewhere)")
        #expect(try titles(o, p) == ["theirs"])
        let f = try #require(throws: UndoConflict.self) { try o.context.undo() }
        #expect(f.description == "cannot undo “Move “x””: Item \(x.objectID) would refer to something deleted elsewhere (parent)")
        #expect(try titles(o, root) == ["x", "p"])
        #expect(!o.context.hasChanges)
        #expect(try o.check() == [])
        #expect(o.context.undoHistory.undoActionName == "Add")
    }

    @Test func aChangeElsewhereToTheSamePropertyIsAConflict() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try makeOutline(store)
        let item = try o.append("Draft", to: try o.root())
        try o.save()
        item.title = "Final"
        try o.save(actionName: "Rename")
        let other = try makeOutline(store)
        other.context.undoHistory.recordsActions = false  // as a sync: its changes are not actions here
        (try other.context.existingObject(for: item.objectID) as! Item).title = "Theirs"
        try other.save()
        let e = try #require(throws: UndoConflict.self) { try o.context.undo() }
        #expect(e.reason == "was changed elsewhere (title)")
        #expect(e.description == "cannot undo “Rename”: Item \(item.objectID) was changed elsewhere (title)")
    }

    /// An undo that puts an item back at a key a sibling took meanwhile (another process here) gives it a
    /// free key just after, before the next sibling; one whose key is free keeps it. Either way the undo
    /// makes no object of the siblings it does not put back: a few items put back ask the (parent, order)
    /// index about their keys (it made an object of every sibling, 3.3 s for an undo of one delete among a
    /// million), many read the level's keys once as values (asking the index for each of 10,000 siblings put
    /// back took 100 s).
    @Test(arguments: [false, true], [1, 200]) func anUndoOntoATakenKeyTakesOneJustAfterWithoutReadingTheLevel(taken: Bool, deleted: Int)
        throws
    {
        let dir = TemporaryDirectory("burrow-undo-key")
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: dir.path())
        let root = try o.root().objectID
        let ids = try o.perform("Import") { try o.add((0..<3_000).map { OutlineNode("item \($0)") }, under: root) }
        let victim = ids[1_500]
        let key = try #require(try o.context.existingObject(for: victim) as? Item).order
        let next = try #require(try o.context.existingObject(for: ids[1_501]) as? Item).order
        let gone = ids[(1_501 - deleted)...1_500]
        try o.perform("Delete") { for id in gone { try o.delete(id) } }
        if taken {
            // Elsewhere: a new item at the deleted one's key.
            let other = try Outline(path: dir.path())
            other.context.undoHistory.recordsActions = false
            _ = try other.perform("Squat") {
                let id = try other.insert("squatter", before: ids[1_501])
                try #require(try other.context.existingObject(for: id) as? Item).order = key
            }
        }
        _ = try o.poll()
        o.context.reset()
        let made = o.context.statistics.objectsCreated
        #expect(try o.context.undo() == "Delete")
        #expect(o.context.statistics.objectsCreated - made < deleted + 50, "objects made by the undo")
        #expect(try o.context.count(FetchRequest(Item.entityName)) == 3_001 + (taken ? 1 : 0))
        let back = try #require(try o.context.existingObject(for: victim) as? Item)
        let level = try o.context.fetchValues(Outline.level(of: root), keys: ["order"]).compactMap { row -> String? in
            if case .string(let k) = row.values[0] { return k }
            return nil
        }
        #expect(Set(level).count == level.count, "siblings never share a key")
        if taken {
            #expect(back.order > key && back.order < next, "just after the key taken, before the next sibling")
        } else {
            #expect(back.order == key)
        }
    }
}
