import Foundation
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// Changes saved by a second context on the same store (as another window or process would) reach the levels
/// as batches; the selection stays on its item whether the level is on top or paused.
struct LiveUpdateTests {
    /// The app on `store`, and a second outline on the same store for "someone else".
    private func setUp(_ titles: [String]) throws -> (AppHarness, Outline) { try AppHarness.withSecondContext(titles) }

    private func otherItem(_ o: Outline, _ title: String, under parent: String? = nil) throws -> Item {
        var level = try o.root()
        if let parent { level = try #require(try o.children(of: level).first { $0.title == parent }) }
        return try #require(try o.children(of: level).first { $0.title == title })
    }

    @Test func selectionFollowsItsItemThroughChangesOnTop() throws {
        let (h, other) = try setUp(["A", "B", "C", "D"])
        try h.press("j j")
        #expect(h.app.top.selectedRow?.title == "C")
        // Inserted above: the selection stays on C, one row down.
        try other.insert("X", into: try other.root(), at: 0)
        try other.save()
        h.draw()
        #expect(h.app.top.selectedRow?.title == "C")
        #expect(h.app.top.list.selected == 3)
        // Deleted above, moved, renamed.
        try other.delete(try otherItem(other, "A"))
        try other.save()
        try other.move(try otherItem(other, "C"), before: try otherItem(other, "X"))
        try other.save()
        try otherItem(other, "C").title = "C2"
        try other.save()
        h.draw()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] C2
             [ ] X
             [ ] B
             [ ] D

                                             ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "C2")
        #expect(h.backend.cell(x: 2, y: 2).style.attributes == .reverse)
        // The selected item itself deleted: the selection goes to the item that took its place.
        try other.delete(try otherItem(other, "C2"))
        try other.save()
        h.draw()
        #expect(h.app.top.selectedRow?.title == "X")
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
        #expect(h.app.top.selectedRow?.title == "C")
        h.expect(
            """
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
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Work




            “Groceries” was deleted elsewhe… ?: help
            """)
    }

    /// A step that conflicts with a change made elsewhere is reported once and skipped; the next `u` goes
    /// on with the step before it (the old code repeated the conflict forever).
    @Test func undoThatConflictsIsSkippedAndHistoryGoesOn() throws {
        let (h, other) = try setUp(["A", "Z"])
        other.context.undoHistory.recordsActions = false  // as a sync: its changes are not actions
        try h.press("j <Space> k e <C-u> B <Enter>")
        try otherItem(other, "B").title = "theirs"
        try other.save()
        try h.press("u")
        #expect(h.app.statusText == "Skipped: cannot undo “Rename “A” to “B””: Item #2 was changed elsewhere (title) · u: the one before")
        #expect(try h.titles() == ["theirs", "Z"])
        try h.press("u")
        #expect(h.app.statusText == "Undid: Mark done “Z”")
        #expect(h.app.top.row(at: 1).isDone == false)
        try h.press("<C-r>")
        #expect(h.app.statusText == "Redid: Mark done “Z”")
    }

    /// Renaming while another process deletes the item: the editor closes with a message instead of
    /// typing into a row that is gone, and no step is recorded.
    @Test func anEditorWhoseItemIsDeletedElsewhereCloses() throws {
        let (h, other) = try setUp(["A", "B"])
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("e")
        h.type("X")
        try other.delete(try otherItem(other, "A"))
        try other.save()
        h.tick()
        #expect(h.app.statusText == "The item being renamed was deleted or moved elsewhere: rename cancelled")
        #expect(try h.titles() == ["B"])
        #expect(h.outline.context.undoHistory.undoCount == steps + 1)  // theirs only
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] B




            The item being renamed was dele… ?: help
            """)
    }

    /// An action whose item another process deleted a moment before (not polled yet) fails with a message,
    /// records nothing, and leaves the rest of history usable (the old code wiped history on a failed save).
    @Test func anActionOnAnItemDeletedElsewhereFailsAndKeepsHistory() throws {
        let dir = TemporaryDirectory("burrow-live")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        let mine = try Outline(path: path)
        try mine.append(titles: ["A", "B"], to: try mine.root())
        try mine.save()
        let h = try AppHarness(outline: mine)
        try h.press("<Space>")
        let steps = h.outline.context.undoHistory.undoCount
        let other = try Outline(path: path)  // another connection: its commits arrive only by polling
        other.context.undoHistory.recordsActions = false  // as a sync: its changes are not actions
        try other.delete(try otherItem(other, "A"))
        try other.save()
        try h.press("<Space>")
        #expect(h.app.statusText == "Cannot mark not done “A”: “A” no longer exists (it was deleted elsewhere)")
        #expect(h.outline.context.undoHistory.undoCount == steps)
        #expect(try h.titles() == ["B"])
        // Undoing "Mark done “A”" would restore a field of a deleted item: skipped; history goes on.
        try h.press("u")
        #expect(h.app.statusText?.hasPrefix("Skipped: cannot undo “Mark done “A””") == true)
        #expect(h.outline.context.undoHistory.undoCount == steps - 1)
    }
}
