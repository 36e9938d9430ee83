import ObjectGraph
import Outline
import Testing
import TerminalKit
@testable import BurrowApp

/// Changes saved by a second context on the same store (as another window or process would) reach the levels
/// as batches; the selection stays on its item whether the level is on top or paused.
struct LiveUpdateTests {
    /// The app on `store`, and a second outline on the same store for "someone else".
    private func setUp(_ titles: [String]) throws -> (AppHarness, Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let mine = Outline(context: Context(store: store))
        try mine.append(titles: titles, to: try mine.root())
        try mine.save()
        let other = Outline(context: Context(store: store))
        return (try AppHarness(outline: mine), other)
    }

    private func otherItem(_ o: Outline, _ title: String, under parent: String? = nil) throws -> Item {
        var level = try o.root()
        if let parent { level = try #require(try o.children(of: level).first { $0.title == parent }) }
        return try #require(try o.children(of: level).first { $0.title == title })
    }

    @Test func selectionFollowsItsItemThroughChangesOnTop() throws {
        let (h, other) = try setUp(["A", "B", "C", "D"])
        try h.press("j j")
        #expect(h.app.top.selectedItem?.title == "C")
        // Inserted above: the selection stays on C, one row down.
        try other.insert("X", into: try other.root(), at: 0)
        try other.save()
        h.draw()
        #expect(h.app.top.selectedItem?.title == "C")
        #expect(h.app.top.list.selected == 3)
        // Deleted above, moved, renamed.
        try other.delete(try otherItem(other, "A"))
        try other.save()
        try other.move(try otherItem(other, "C"), before: try otherItem(other, "X"))
        try other.save()
        try otherItem(other, "C").title = "C2"
        try other.save()
        h.draw()
        h.expect("""
            Burrow
            + Add to Burrow…
             [ ] C2
             [ ] X
             [ ] B
             [ ] D

                                             ?: help
            """)
        #expect(h.app.top.selectedItem?.title == "C2")
        #expect(h.backend.cell(x: 2, y: 2).style.attributes == .reverse)
        // The selected item itself deleted: the selection goes to the item that took its place.
        try other.delete(try otherItem(other, "C2"))
        try other.save()
        h.draw()
        #expect(h.app.top.selectedItem?.title == "X")
    }

    @Test func aPausedLevelCatchesUpInOneBatchWithTheSelectionOnItsItem() throws {
        let (h, other) = try setUp(["A", "B", "C"])
        try h.press("j j")
        try h.press("<Enter>")
        let before = h.app.stack[0].controller.batchesDelivered
        // While the top level is paused: three changes around the selected "C".
        try other.insert("X", into: try other.root(), at: 0)
        try other.save()
        try other.append("Y", to: try other.root())
        try other.save()
        try other.delete(try otherItem(other, "A"))
        try other.save()
        #expect(h.app.stack[0].controller.batchesDelivered == before)
        try h.press("h")
        #expect(h.app.stack[0].controller.batchesDelivered == before + 1)
        #expect(h.app.top.selectedItem?.title == "C")
        h.expect("""
            Burrow
            + Add to Burrow…
             [ ] X
             [ ] B
             [ ] C
             [ ] Y

                                             ?: help
            """)
    }

    @Test func theLevelOnScreenDeletedElsewherePopsToTheNearestSurvivor() throws {
        let (h, other) = try setUp(["Groceries", "Work"])
        try h.press("<Enter> a")
        h.type("Dairy")
        try h.press("<Enter> <Esc> <Enter> a")
        h.type("Milk")
        try h.press("<Enter> <Esc>")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries", "Dairy"])
        try other.delete(try otherItem(other, "Groceries"))
        try other.save()
        h.send(.key(.character("j")))
        #expect(h.app.breadcrumbs == ["Burrow"])
        // The outermost item that went is named: "Dairy" went with it.
        #expect(h.app.statusText == "“Groceries” was deleted elsewhere: back in “Burrow”")
        h.expect("""
            Burrow
            + Add to Burrow…
             [ ] Work




            “Groceries” was deleted elsewhe… ?: help
            """)
    }

    @Test func undoThatConflictsWithAnotherChangeFailsAndKeepsTheStack() throws {
        let (h, other) = try setUp(["A"])
        try h.press("e <C-u> B <Enter>")
        try other.delete(try otherItem(other, "B"))
        try other.save()
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("u")
        #expect(h.app.statusText?.contains("was deleted elsewhere") == true)
        #expect(h.outline.context.undoHistory.undoCount == steps)
        #expect(try h.titles() == [])
    }
}
