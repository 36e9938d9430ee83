import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

@Suite struct OutlineTests {
    func makeOutline() throws -> Outline {
        Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
    }

    func titles(_ o: Outline, _ parent: Item) throws -> [String] {
        try o.children(of: parent).map(\.title)
    }

    @Test func rootIsCreatedOnceEvenAcrossOpens() throws {
        let dir = TemporaryDirectory("burrow-outline")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        let a = try Outline(path: path)
        let r1 = try a.root(), r2 = try a.root()
        #expect(r1 === r2)
        let b = try Outline(path: path)
        #expect(try b.root().objectID == r1.objectID)
        #expect(try b.context.count(FetchRequest("Item", where: Property("parent").isNil)) == 1)
        // A second root is refused by the store itself.
        let rogue = try b.context.insert(Item.self, entity: "Item")
        rogue["rootMarker"] = 1
        #expect(throws: StoreError.self) { try b.save() }
    }

    @Test func appendGivesTheNextPosition() throws {
        let o = try makeOutline()
        let root = try o.root()
        for t in ["Groceries", "Work", "Ideas"] { try o.append(t, to: root) }
        try o.save()
        #expect(try titles(o, root) == ["Groceries", "Work", "Ideas"])
        #expect(root.childCount == 3)
        let work = try #require(try o.child(of: root, at: 1))
        #expect(try o.position(of: work) == 1)
        try o.append(titles: ["a", "b", "c"], to: work)
        try o.save()
        #expect(try titles(o, work) == ["a", "b", "c"])
        #expect(work.childCount == 3)
    }

    @Test func insertAtPositionsAndBesideItems() throws {
        let o = try makeOutline()
        let root = try o.root()
        try o.append(titles: ["b", "d"], to: root)
        try o.insert("a", into: root, at: 0)
        try o.insert("c", into: root, at: 2)
        try o.insert("e", into: root, at: 99)
        #expect(try titles(o, root) == ["a", "b", "c", "d", "e"])
        let c = try #require(try o.child(of: root, at: 2))
        try o.insert("c+", after: c)
        try o.insert("c-", before: c)
        try o.save()
        #expect(try titles(o, root) == ["a", "b", "c-", "c", "c+", "d", "e"])
        #expect(root.childCount == 7)
    }

    @Test func deleteKeepsLaterSiblingsInOrderWithNoGaps() throws {
        let o = try makeOutline()
        let root = try o.root()
        let items = try o.append(titles: ["a", "b", "c", "d"], to: root)
        try o.append(titles: ["b1", "b2"], to: items[1])
        try o.append("b1x", to: try o.child(of: items[1], at: 0)!)
        try o.save()
        try o.delete(items[1])
        try o.save()
        #expect(try titles(o, root) == ["a", "c", "d"])
        #expect(try (0..<3).map { try o.child(of: root, at: $0)!.title } == ["a", "c", "d"])
        #expect(root.childCount == 3)
        // The whole subtree went.
        #expect(try o.context.count(FetchRequest("Item")) == 4)
        #expect(throws: OutlineError.cannotDeleteRoot) { try o.delete(root) }
    }

    @Test func movesReorderIndentAndOutdent() throws {
        let o = try makeOutline()
        let root = try o.root()
        let it = try o.append(titles: ["a", "b", "c", "d"], to: root)
        try o.save()
        try o.move(it[3], to: root, at: 0)
        #expect(try titles(o, root) == ["d", "a", "b", "c"])
        try o.move(it[3], to: root, at: 3)
        #expect(try titles(o, root) == ["a", "b", "c", "d"])
        try o.move(it[0], after: it[2])
        #expect(try titles(o, root) == ["b", "c", "a", "d"])
        try o.move(it[3], before: it[1])
        #expect(try titles(o, root) == ["d", "b", "c", "a"])
        // Indent "c" under "b", then outdent it after "b".
        try o.move(it[2], to: it[1], at: 0)
        #expect(try titles(o, root) == ["d", "b", "a"])
        #expect(try titles(o, it[1]) == ["c"])
        try o.save()
        #expect(it[1].childCount == 1 && root.childCount == 3)  // the store's counts, read back by the save
        try o.move(it[2], after: it[1])
        #expect(try titles(o, root) == ["d", "b", "c", "a"])
        try o.save()
        #expect(it[1].childCount == 0 && root.childCount == 4)
        #expect(throws: OutlineError.moveIntoItself("b")) { try o.move(it[1], to: it[1], at: 0) }
    }

    /// One edit in a level writes one item row (plus the parent's count), however big the level.
    @Test func oneEditWritesOneRow() throws {
        let o = try makeOutline()
        let root = try o.root()
        let level = try o.append(titles: (0..<2000).map { "item \($0)" }, to: root)
        try o.save()
        var sets: [ChangeSet] = []
        o.context.observeChanges { sets.append($0) }
        try o.insert("top", into: root, at: 0)
        try o.save()
        try o.delete(try #require(try o.child(of: root, at: 1)))
        try o.save()
        try o.move(level[1500], before: level[10])
        try o.save()
        #expect(sets.map { [$0.insertedCount, $0.updatedCount, $0.deletedCount] } == [[1, 1, 0], [0, 1, 1], [0, 1, 0]])
        #expect(try o.child(of: root, at: 11)?.title == "item 10")
        #expect(try o.child(of: root, at: 10)?.title == "item 1500")
    }

    /// Counts are the store's: kept by each save from what it deletes, whatever the cascade reaches.
    @Test func deletesAndCascadesKeepStoredCounts() throws {
        let o = try makeOutline()
        let root = try o.root()
        let a = try o.append("a", to: root)
        let kids = try o.append(titles: ["k1", "k2"], to: a)
        try o.append("g", to: kids[0])
        try o.save()
        #expect(a.childCount == 2 && kids[0].childCount == 1 && root.childCount == 1)
        try o.delete(kids[1])
        try o.save()
        #expect(a.childCount == 1)
        try o.delete(a)
        try o.save()
        #expect(root.childCount == 0)
        #expect(try o.context.count(FetchRequest("Item")) == 1)
    }

    /// A count is the store's alone: setting it is a programming error, caught before anything is written.
    @Test func maintainedCountsAreReadOnlyAndNotValidated() throws {
        let o = try makeOutline()
        let root = try o.root()
        try o.append(titles: ["a", "b"], to: root)
        try o.save()
        let item = Item.Slot.entity
        #expect(item.isMaintained(Item.Slot.childCount))
        #expect(!item.isMaintained(Item.Slot.title))
    }
}
