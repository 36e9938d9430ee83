import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Moving and copying several items at once by ID: only the outermost go, the place is among the anchor's
/// own siblings, an item deleted meanwhile is left out, a destination inside what moves is refused with
/// nothing changed, and a copy into its own subtree copies the subtree as it was.
@Suite struct TransferTests {
    /// Burrow › A (note, A1 › A1x, A2 done), B, C; and a second outline on the same store.
    private func outlines() throws -> (Outline, Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        let top = try o.append(titles: ["A", "B", "C"], to: try o.root())
        top[0].note = "note of A"
        let subs = try o.append(titles: ["A1", "A2"], to: top[0])
        subs[1].isDone = true
        try o.append("A1x", to: subs[0])
        try o.save()
        return (o, Outline(context: Context(store: store)))
    }

    /// The whole outline as indented lines (`*` for done, `¶` for a note): what a test compares exactly.
    private func tree(_ o: Outline) throws -> [String] {
        try o.subtree(under: o.root()).map {
            String(repeating: "  ", count: $0.depth) + $0.title + ($0.isDone ? " *" : "") + ($0.note == nil ? "" : " ¶")
        }
    }

    private func id(_ o: Outline, _ path: String) throws -> ObjectID { try o.item(at: path).objectID }

    @Test func copiesSeveralSubtreesBetweenTwoSiblingsAsOneUndoStep() throws {
        let (o, _) = try outlines()
        let before = try tree(o)
        let (a, b) = (try id(o, "A"), try id(o, "B"))
        let result = try o.perform("Copy") { try o.copy([a, b], to: .after(b)) }
        #expect(result.sources == [a, b] && result.items.count == 2 && result.subItems == 3 && result.missing.isEmpty)
        #expect(
            try tree(o) == [
                "A ¶", "  A1", "    A1x", "  A2 *", "B", "A ¶", "  A1", "    A1x", "  A2 *", "B", "C"
            ])
        #expect(try o.row(result.items[0])?.title == "A" && result.items[0] != a)
        #expect(try o.check().isEmpty, "keys, counts and parents right in the store")
        try o.context.undo()
        #expect(try tree(o) == before)
        try o.context.redo()
        #expect(try tree(o).count == before.count + 5)
    }

    @Test func pastesAboveAndAtTheEnd() throws {
        let (o, _) = try outlines()
        let (a, c, a1) = (try id(o, "A"), try id(o, "C"), try id(o, "A/A1"))
        try o.perform("Copy") { try o.copy([c], to: .before(a)) }
        try o.perform("Copy") { try o.copy([c], to: .before(a1)) }
        try o.perform("Copy") { try o.copy([c], to: .last(under: a1)) }
        #expect(try tree(o) == ["C", "A ¶", "  C", "  A1", "    A1x", "    C", "  A2 *", "B", "C"])
    }

    @Test func onlyTheOutermostAreCopiedAndAnItemGoneMeanwhileIsLeftOut() throws {
        let (o, other) = try outlines()
        let (a, a1x, b, c) = (try id(o, "A"), try id(o, "A/A1/A1x"), try id(o, "B"), try id(o, "C"))
        #expect(try o.outermost([a1x, a, a, b, a1x]) == [a, b])
        try other.perform("Delete “B”") { try other.delete(b) }
        let result = try o.perform("Copy") { try o.copy([a1x, b, a], to: .after(c)) }
        #expect(result.sources == [a] && result.missing == [b] && result.subItems == 3)
        #expect(try tree(o) == ["A ¶", "  A1", "    A1x", "  A2 *", "C", "A ¶", "  A1", "    A1x", "  A2 *"])
        // Nothing left to copy: nothing is written and no step is recorded.
        let steps = o.context.undoHistory.undoCount
        let none = try o.perform("Copy") { try o.copy([b], to: .after(c)) }
        #expect(none.items.isEmpty && none.missing == [b])
        #expect(o.context.undoHistory.undoCount == steps)
    }

    /// Copying an item into its own subtree copies what was there before the paste: no copy of the copy.
    @Test func aCopyIntoItsOwnSubtreeCopiesItAsItWas() throws {
        let (o, _) = try outlines()
        let (a, a1x) = (try id(o, "A"), try id(o, "A/A1/A1x"))
        let result = try o.perform("Copy") { try o.copy([a], to: .last(under: a1x)) }
        #expect(result.subItems == 3)
        #expect(
            try tree(o) == [
                "A ¶", "  A1", "    A1x", "      A ¶", "        A1", "          A1x", "        A2 *", "  A2 *", "B", "C"
            ])
        #expect(try o.check().isEmpty)
    }

    @Test func movesSeveralItemsTogetherInTheOrderGiven() throws {
        let (o, _) = try outlines()
        let before = try tree(o)
        let (a, a2, b, c) = (try id(o, "A"), try id(o, "A/A2"), try id(o, "B"), try id(o, "C"))
        try o.perform("Move") { try o.move([c, a2], to: .last(under: b)) }
        #expect(try tree(o) == ["A ¶", "  A1", "    A1x", "B", "  C", "  A2 *"])
        // Beside an item that moves itself: they land where it was, together.
        try o.perform("Move") { try o.move([a, c], to: .after(a)) }
        #expect(try tree(o) == ["A ¶", "  A1", "    A1x", "C", "B", "  A2 *"])
        // A2 is inside B now: it goes with B, not beside it.
        let result = try o.perform("Move") { try o.move([a2, b], to: .before(a)) }
        #expect(result.sources == [b])
        #expect(try tree(o) == ["B", "  A2 *", "A ¶", "  A1", "    A1x", "C"])
        #expect(try o.check().isEmpty)
        try o.context.undo()
        try o.context.undo()
        try o.context.undo()
        #expect(try tree(o) == before)
    }

    @Test func aDestinationInsideWhatMovesIsRefusedAndNothingChanges() throws {
        let (o, _) = try outlines()
        let before = try tree(o)
        let (a, a1x, c) = (try id(o, "A"), try id(o, "A/A1/A1x"), try id(o, "C"))
        #expect(throws: OutlineError.moveIntoItself("A")) { try o.perform("Move") { try o.move([c, a], to: .last(under: a1x)) } }
        #expect(throws: OutlineError.moveIntoItself("A")) { try o.perform("Move") { try o.move([a], to: .last(under: a)) } }
        #expect(throws: OutlineError.moveIntoItself("A")) { try o.perform("Move") { try o.move([a], to: .after(a1x)) } }
        #expect(try tree(o) == before)
        #expect(!o.context.hasChanges)
    }

    /// What the other window did arrives inside the transaction: a move it made meanwhile that puts the
    /// destination inside a moving item is refused then, not judged on the stale tree.
    @Test func aDestinationMovedInsideMeanwhileIsRefused() throws {
        let (o, other) = try outlines()
        let (b, c) = (try id(o, "B"), try id(o, "C"))
        _ = try o.row(c)
        try other.perform("Move “C” into “B”") { try other.move(c, to: b, at: 0) }
        #expect(throws: OutlineError.moveIntoItself("B")) { try o.perform("Move") { try o.move([b], to: .last(under: c)) } }
        #expect(try tree(o) == ["A ¶", "  A1", "    A1x", "  A2 *", "B", "  C"])
    }

    @Test func duplicateIsACopyRightAfter() throws {
        let (o, _) = try outlines()
        let a1 = try id(o, "A/A1")
        let (copy, count) = try o.perform("Duplicate") { try o.duplicate(a1) }
        #expect(count == 1 && copy != a1)
        #expect(try tree(o) == ["A ¶", "  A1", "    A1x", "  A1", "    A1x", "  A2 *", "B", "C"])
        #expect(throws: OutlineError.noParent) { try o.perform("Duplicate") { try o.duplicate(try o.rootRow().id) } }
    }

    @Test func rowsWithSubtreesForTheClipboard() throws {
        let (o, other) = try outlines()
        let (a1, c) = (try id(o, "A/A1"), try id(o, "C"))
        let rows = try o.rowsWithSubtrees(of: [c, a1])
        #expect(rows.map { "\($0.depth) \($0.title)" } == ["0 C", "0 A1", "1 A1x"])
        #expect(try o.countBelow([c, a1, try id(o, "A")]) == 4)
        try other.perform("Delete “C”") { try other.delete(c) }
        #expect(try o.rowsWithSubtrees(of: [c, a1]).map(\.title) == ["A1", "A1x"])
    }

    @Test func manyKeysBetweenTwoNeighboursStayShortAndInOrder() {
        for (a, b) in [("a0", "a1"), ("a0", "a0V"), (nil, "a0"), ("Zz", "a0")] as [(String?, String)] {
            let keys = OrderKey.keys(between: a, and: b, count: 10_000)
            #expect(keys.count == 10_000)
            #expect(keys.allSatisfy(OrderKey.isValid))
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "increasing")
            #expect(a.map { $0 < keys[0] } ?? true && keys[keys.count - 1] < b, "strictly between")
            #expect(keys.map(\.count).max()! <= 10, "\(keys.map(\.count).max()!)")
        }
        #expect(OrderKey.keys(between: "a0", and: nil, count: 3) == OrderKey.keys(after: "a0", count: 3))
        #expect(OrderKey.keys(between: "a0", and: "a1", count: 0).isEmpty)
    }
}
