import Foundation
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// An edit key acts on the item the selection is on, by ID, however rows moved under it since the last frame
/// (another window's batch, or another process's commit that only the action's own transaction takes in), and
/// the status line names that same item.
struct ActingByIDTests {
    private func shared(_ titles: [String]) throws -> (AppHarness, Outline) { try AppHarness.withSecondContext(titles) }

    /// The app on a file, and another connection to it whose commits arrive only by polling, as another
    /// process's; and the folder, removed when it is released.
    private func twoProcesses(_ titles: [String]) throws -> (AppHarness, Outline, TemporaryDirectory) {
        let dir = TemporaryDirectory("by-id")
        let path = dir.path()
        let mine = try Outline(path: path)
        try mine.append(titles: titles, to: try mine.root())
        try mine.save()
        return (try AppHarness(outline: mine), try Outline(path: path), dir)
    }

    private func item(_ o: Outline, _ title: String) throws -> Item {
        try #require(try o.children(of: o.root()).first { $0.title == title })
    }

    private func done(_ h: AppHarness) throws -> [String] {
        try h.outline.children(of: h.outline.root()).filter(\.isDone).map(\.title)
    }

    @Test func editKeysAfterAnInsertAboveActOnTheSelectedItem() throws {
        let (h, other) = try shared(["A", "B", "C", "D"])
        try h.press("j j")
        try other.insert("X", into: try other.root(), at: 0)
        try other.insert("Y", into: try other.root(), at: 1)
        try other.save()
        h.draw()
        // Row 2, where C was drawn before, now holds A: the keys must still act on C.
        try h.press("<Space>")
        #expect(h.app.statusText == "Done: “C”")
        #expect(try done(h) == ["C"])
        // X arrived above the rows shown (the selection kept its line): out of sight, and counted.
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Y
             [ ] A
             [ ] B
             [x] C
             [ ] D
            Done: “C”    1 new above · 5/6 · ?: help
            """)
        try h.press("e")
        #expect(h.backend.lines[5] == " [x] C")
        #expect(h.backend.cursor == Position(x: 6, y: 5))
        try h.press("<Esc>")
        try other.insert("Z", into: try other.root(), at: 0)
        try other.save()
        try h.press("J")
        #expect(try h.titles() == ["Z", "X", "Y", "A", "B", "D", "C"])
        try other.insert("W", into: try other.root(), at: 0)
        try other.save()
        try h.press("x")
        #expect(h.app.statusText == "Deleted “C” · u: undo")
        #expect(try h.titles() == ["W", "Z", "X", "Y", "A", "B", "D"])
        try h.press("u")
        #expect(h.app.statusText == "Undid: Delete “C”")
        #expect(h.app.top.selectedRow?.title == "C")
    }

    /// Another process inserts above the selection and renames it; nothing is polled before the key, so the
    /// frame on screen is stale. The action's transaction takes the commit in first and acts on the item by
    /// ID; the status line names it as the user saw it, and the next frame shows it where it now is.
    @Test func anUnpolledChangeAboveTheSelectionDoesNotRedirectTheEdit() throws {
        let (h, other, dir) = try twoProcesses(["A", "B", "C", "D"])
        defer { withExtendedLifetime(dir) {} }
        try h.press("j j")
        try other.insert("X", into: try other.root(), at: 0)
        try other.insert("Y", into: try other.root(), at: 0)
        try item(other, "C").title = "C2"
        try other.save()
        try h.press("<Space>")
        // Named as it was on screen when the key was pressed; the frame then shows its new title.
        #expect(h.app.statusText == "Done: “C”")
        #expect(try done(h) == ["C2"])
        #expect(h.app.top.selectedRow?.title == "C2")
        // Y arrived above the rows shown: out of sight, and counted.
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] X
             [ ] A
             [ ] B
             [x] C2
             [ ] D
            Done: “C”    1 new above · 5/6 · ?: help
            """)
        // The neighbour K moves past is the one above C now, read before the key: B.
        try other.insert("Q", into: try other.root(), at: 0)
        try other.save()
        try h.press("K")
        #expect(try h.titles() == ["Q", "Y", "X", "A", "C2", "B", "D"])
        #expect(h.app.top.selectedRow?.title == "C2")
    }

    /// An open editor is tied to its item by ID: rows inserted above while typing do not move the rename or
    /// the new row onto another item.
    @Test func editorsStayOnTheirItemThroughAnInsertAbove() throws {
        let (h, other) = try shared(["A", "B", "C"])
        try h.press("j j e")
        h.type("!")
        try other.insert("X", into: try other.root(), at: 0)
        try other.save()
        h.draw()
        try h.press("<Enter>")
        #expect(h.app.statusText == "Renamed “C” to “C!”")
        #expect(try h.titles() == ["X", "A", "B", "C!"])
        try h.press("o")
        h.type("after C")
        try other.insert("Y", into: try other.root(), at: 0)
        try other.save()
        h.draw()
        try h.press("<Enter>")
        #expect(h.app.statusText == "Added “after C”")
        #expect(try h.titles() == ["Y", "X", "A", "B", "C!", "after C"])
        #expect(h.app.top.selectedRow?.title == "after C")
    }

    /// The selected item itself was moved into another level elsewhere: the selection goes to the row that
    /// took its place, and the next key acts on that row's item, named on the status line.
    @Test func whenTheSelectedItemLeavesTheLevelKeysActOnTheOneNowSelected() throws {
        let (h, other) = try shared(["A", "B", "C"])
        try h.press("j")
        try other.move(try item(other, "B"), to: try item(other, "A"), at: 0)
        try other.save()
        h.draw()
        #expect(h.app.top.selectedRow?.title == "C")
        try h.press("<Space>")
        #expect(h.app.statusText == "Done: “C”")
        #expect(try done(h) == ["C"])
        #expect(try h.titles(under: ["A"]) == ["B"])
    }

    /// J moves past the item below, which another process deleted a moment ago: the failure names that item,
    /// nothing changes and no step is recorded; the next J goes past the item that is below now.
    @Test func aMoveWhoseNeighbourWasDeletedElsewhereNamesTheNeighbour() throws {
        let (h, other, dir) = try twoProcesses(["A", "B", "C"])
        defer { withExtendedLifetime(dir) {} }
        let steps = h.outline.context.undoHistory.undoCount
        try other.delete(try item(other, "B"))
        try other.save()
        try h.press("J")
        #expect(h.app.statusText == "Cannot move “A” down: “B” no longer exists (it was deleted elsewhere)")
        #expect(try h.titles() == ["A", "C"])
        #expect(h.outline.context.undoHistory.undoCount == steps + 1)  // their delete only
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] A
             [ ] C



            Cannot move “A” down: “B” no lo… ?: help
            """)
        try h.press("J")
        #expect(try h.titles() == ["C", "A"])
        #expect(h.app.statusText == nil)
        #expect(h.app.top.selectedRow?.title == "A")
    }

    /// Indent into the item above, deleted elsewhere since the frame: refused, naming it, and the level on
    /// screen stays (nothing opened).
    @Test func anIndentIntoAnItemDeletedElsewhereNamesItAndStaysHere() throws {
        let (h, other, dir) = try twoProcesses(["A", "B"])
        defer { withExtendedLifetime(dir) {} }
        try h.press("j")
        try other.delete(try item(other, "A"))
        try other.save()
        try h.press(">")
        #expect(h.app.statusText == "Cannot indent “B”: “A” no longer exists (it was deleted elsewhere)")
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(try h.titles() == ["B"])
    }
}
