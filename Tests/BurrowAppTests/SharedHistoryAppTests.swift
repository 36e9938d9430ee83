import Foundation
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import ObjectGraph
@testable import Outline

/// `u` and Ctrl-R in the outliner on the history it shares with every other program (issue 16): another
/// program's action is undone where it happened and the status line says who made it; hostile names and
/// origins are drawn as visible stand-ins; a conflict with a sync is skipped; another's new action cuts redo.
struct SharedHistoryAppTests {
    /// The app (`width`×8) on Groceries (Milk, Eggs), Work, and a second outline on the same store whose
    /// actions are recorded as `origin`'s.
    private func setUp(width: Int = 60, origin: String = "command line") throws -> (AppHarness, Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let mine = Outline(context: Context(store: store))
        let top = try mine.append(titles: ["Groceries", "Work"], to: try mine.root())
        try mine.append(titles: ["Milk", "Eggs"], to: top[0])
        try mine.context.saveWithoutUndo()
        let other = Outline(context: Context(store: store))
        other.context.undoHistory.origin = origin
        return (try AppHarness(width: width, height: 8, outline: mine), other)
    }

    private func id(_ o: Outline, _ path: String) throws -> ObjectID {
        try o.item(at: path).objectID
    }

    @Test func anotherProgramsDeleteIsUndoneAtItsPlace() throws {
        let (h, other) = try setUp(width: 72)
        let groceries = try id(other, "Groceries"), eggs = try id(other, "Groceries/Eggs")
        try h.press("j")
        try other.perform("Delete “Eggs”") {
            other.context.setActionPlace(ActionPlace(container: groceries, focus: eggs))
            try other.delete(eggs)
        }
        h.draw()
        try h.press("u")
        h.expect(
            """
            Burrow › Groceries
            + Add to Groceries…
             [ ] Milk
             [ ] Eggs



            Undid: Delete “Eggs” (command line, just now, in Burrow › Groce… ?: help
            """)
        #expect(h.app.top.selectedID == eggs)
        // Redo goes back there too, and a second undo of the same action is not there to take.
        try h.press("h <C-r>")
        #expect(h.app.statusText == "Redid: Delete “Eggs” (command line, just now, in Burrow › Groceries)")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries"])
        #expect(try h.titles(under: ["Groceries"]) == ["Milk"])
    }

    /// An action named after a hostile title, recorded by a program whose name is hostile too: the status
    /// line shows both as visible stand-ins, and nothing else on the screen moves.
    @Test func hostileNamesAndOriginsAreDrawnVisibly() throws {
        let (h, other) = try setUp(width: 80, origin: "\u{1B}]2;x\u{07}evil\n")
        try other.perform("Add “\u{1B}[2Jz\u{9B}1m”") { _ = try other.append("\u{1B}[2Jz\u{9B}1m", to: try other.root().objectID) }
        h.draw()
        try h.press("u")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                                                              2 ›
             [ ] Work



            Undid: Add “^[[2Jz<U+009B>1m” (^[]2;x^Gevil^J, just now)                 ?: help
            """)
    }

    @Test func anActionOfAProgramWithNoNameSaysAnotherProgram() throws {
        let (h, other) = try setUp(origin: "")
        try other.perform("Add “Tea”") { _ = try other.append("Tea", to: try other.root().objectID) }
        h.draw()
        try h.press("u")
        #expect(h.app.statusText == "Undid: Add “Tea” (another program, just now)")
    }

    /// An old action of this outliner (recorded ten minutes ago) says how old it is.
    @Test func anOldActionSaysHowOld() throws {
        let (h, _) = try setUp()
        try h.press("a")
        h.type("Tea")
        try h.press("<Enter> <Esc>")
        let store = h.outline.context.store
        try store.queue.writeWithoutTransaction { db in try db.execute(sql: "UPDATE og_history SET at = at - 600") }
        try h.press("u")
        #expect(h.app.statusText == "Undid: Add “Tea” (outliner, 10 min ago)")
    }

    /// A sync (recording no actions) renamed what the outliner added: `u` skips that action with a message
    /// naming what changed, changes nothing, and the next `u` undoes the action before it.
    @Test func aConflictWithASyncIsSkippedAndTheNextUndoGoesOn() throws {
        let (h, other) = try setUp()
        try h.press("a")
        h.type("Tea")
        try h.press("<Enter>")
        h.type("Cake")
        try h.press("<Enter> <Esc>")
        other.context.undoHistory.recordsActions = false
        let cake = try id(other, "Cake")
        try other.perform { try other.rename(cake, to: "Cake (synced)") }
        h.draw()
        try h.press("u")
        #expect(
            h.app.statusText
                == "Skipped: cannot undo “Add “Cake””: Item #\(cake.rowID) was changed elsewhere (title) · u: the one before")
        #expect(try h.titles() == ["Groceries", "Work", "Tea", "Cake (synced)"])
        try h.press("u")
        #expect(h.app.statusText == "Undid: Add “Tea”")
        #expect(try h.titles() == ["Groceries", "Work", "Cake (synced)"])
        try h.press("u")
        #expect(h.app.statusText == "Nothing to undo")
    }

    /// Another program's new action cuts what the outliner could redo.
    @Test func anotherProgramsNewActionCutsRedo() throws {
        let (h, other) = try setUp()
        try h.press("a")
        h.type("Tea")
        try h.press("<Enter> <Esc> u")
        #expect(h.app.statusText == "Undid: Add “Tea”")
        try other.perform("Add “Coffee”") { _ = try other.append("Coffee", to: try other.root().objectID) }
        h.draw()
        try h.press("<C-r>")
        #expect(h.app.statusText == "Nothing to redo")
        #expect(try h.titles() == ["Groceries", "Work", "Coffee"])
    }

    /// The level an action was made in is deleted meanwhile (by a sync): the undo still works, and the
    /// outliner shows the level that holds the item, with the item selected.
    @Test func anUndoWhosePlaceIsGoneShowsTheItemWhereItIs() throws {
        let (h, other) = try setUp(width: 72)
        let work = try id(other, "Work"), milk = try id(other, "Groceries/Milk")
        // Milk renamed while Work was shown (a search, say).
        try other.perform("Rename “Milk” to “Oat milk”") {
            try other.rename(milk, to: "Oat milk")
            other.context.setActionPlace(ActionPlace(container: work, focus: milk))
        }
        other.context.undoHistory.recordsActions = false
        try other.perform { try other.delete(work) }
        h.draw()
        try h.press("u")
        #expect(try h.titles(under: ["Groceries"]) == ["Milk", "Eggs"])
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries"])
        #expect(h.app.top.selectedID == milk)
        #expect(h.app.statusText == "Undid: Rename “Milk” to “Oat milk” (command line, just now, in a deleted item)")
    }

    /// A long undo message on a tiny screen: clipped, never drawn past the edge.
    @Test func aLongUndoMessageOnATinyScreen() throws {
        let (h, other) = try setUp(width: 24)
        let eggs = try id(other, "Groceries/Eggs")
        try other.perform("Delete “Eggs”") {
            other.context.setActionPlace(ActionPlace(container: try other.item(at: "Groceries").objectID, focus: eggs))
            try other.delete(eggs)
        }
        h.draw()
        h.resize(24, 5)
        try h.press("u")
        h.expect(
            """
            Burrow › Groceries
            + Add to Groceries…
             [ ] Milk
             [ ] Eggs
            Undid: Delete “… ?: help
            """)
    }

    /// Two outliners on one outline record as "outliner" both: undoing the other window's action a moment
    /// after it still says whose it was; this window's own says nothing more than its name.
    @Test func anotherOutlinersActionSaysSoAndOursDoesNot() throws {
        let (h, other) = try setUp(origin: App.origin)
        try other.perform("Rename “Work”") { try other.rename(try id(other, "Work"), to: "Office") }
        h.draw()
        try h.press("u")
        #expect(h.app.statusText == "Undid: Rename “Work” (outliner, just now)")
        try h.press("j e <C-u>")
        h.type("Job")
        try h.press("<Enter> u")
        #expect(h.app.statusText == "Undid: Rename “Work” to “Job”")
    }
}
