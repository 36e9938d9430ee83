import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// `M`: typing filters every item by title, best first with its path; ↑/↓ choose; Enter moves the selection
/// to the end of the chosen item's sub-items as one undoable action; a destination inside what moves is
/// refused; a destination gone or moved meanwhile changes nothing.
@Suite struct MovePickerTests {
    /// Burrow › Groceries (Milk, Eggs), Work (Projects), Home; the app beside a second outline on the store.
    private func harness(width: Int = 40, height: Int = 8) throws -> (AppHarness, Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        let top = try o.append(titles: ["Groceries", "Work", "Home"], to: try o.root())
        try o.append(titles: ["Milk", "Eggs"], to: top[0])
        try o.append(titles: ["Projects"], to: top[1])
        try o.save()
        return (try AppHarness(width: width, height: height, outline: o), Outline(context: Context(store: store)))
    }

    /// The whole outline as indented titles, straight from the store.
    private func tree(_ o: Outline) throws -> [String] {
        try o.subtree(under: o.root()).map { String(repeating: "  ", count: $0.depth) + $0.title }
    }

    private let start = ["Groceries", "  Milk", "  Eggs", "Work", "  Projects", "Home"]

    @Test func typingFiltersAndEnterMovesUnderTheChosenItem() throws {
        let (h, _) = try harness()
        try h.press("j j M")
        h.expect(
            """
            Burrow
            Move to:
             Burrow  top level
             Groceries  Burrow
             Milk  Burrow › Groceries
             Eggs  Burrow › Groceries
             Work  Burrow
            Moving “Home”  Enter: move · Esc: cancel
            """)
        #expect(h.backend.cell(x: 1, y: 2).style.attributes == .reverse, "the first match is chosen")
        // Letters go to the filter, j and k included: the best match first.
        h.type("jk")
        h.expect(
            """
            Burrow
            Move to: jk
             No item matches “jk”




            Moving “Home”  Enter: move · Esc: cancel
            """)
        try h.press("<BS> <BS>")
        h.type("po")
        h.expect(
            """
            Burrow
            Move to: po
             Projects  Burrow › Work




            Moving “Home”  Enter: move · Esc: cancel
            """)
        try h.press("<BS> <BS>")
        h.type("r")
        h.expect(
            """
            Burrow
            Move to: r
             Groceries  Burrow
             Projects  Burrow › Work
             Burrow  top level
             Work  Burrow

            Moving “Home”  Enter: move · Esc: cancel
            """)
        // Ties (the r second in Groceries and in Projects) keep outline order.
        try h.press("<Down> <C-n> <C-p>")
        #expect(h.backend.cell(x: 1, y: 3).style.attributes == .reverse, "Projects chosen")
        try h.press("<Up>")
        #expect(h.backend.cell(x: 1, y: 2).style.attributes == .reverse, "Groceries chosen")
        try h.press("<Enter>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      3 ›
             [ ] Work                           1 ›



            Moved “Home” to “Groceries”      ?: help
            """)
        #expect(try tree(h.outline) == ["Groceries", "  Milk", "  Eggs", "  Home", "Work", "  Projects"])
        #expect(try h.outline.check().isEmpty)
        // One undoable step, which puts it back exactly; redo moves it again.
        try h.press("u")
        #expect(h.app.statusText == "Undid: Move “Home” to “Groceries”")
        #expect(try tree(h.outline) == start)
        #expect(h.app.top.selectedRow?.title == "Home")
        try h.press("<C-r>")
        #expect(try tree(h.outline) == ["Groceries", "  Milk", "  Eggs", "  Home", "Work", "  Projects"])
    }

    @Test func escCancelsAndNothingChanges() throws {
        let (h, _) = try harness()
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("M")
        h.type("work")
        try h.press("<Esc>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ›
             [ ] Work                           1 ›
             [ ] Home


                                             ?: help
            """)
        #expect(try tree(h.outline) == start)
        #expect(h.outline.context.undoHistory.undoCount == steps)
        // A paste goes into the filter, line breaks as spaces.
        try h.press("M")
        h.send(.paste("pro\njects"))
        h.expect(
            """
            Burrow
            Move to: pro jects
             Projects  Burrow › Work




            Moving “Groce… Enter: move · Esc: cancel
            """)
    }

    /// The items that move and everything below them are not offered (the picker offered them, drawn dim,
    /// and refused them on Enter).
    @Test func aDestinationInsideWhatMovesIsRefused() throws {
        let (h, _) = try harness()
        try h.press("M")
        h.type("milk")
        h.expect(
            """
            Burrow
            Move to: milk
             No item matches “milk”




            Moving “Groce… Enter: move · Esc: cancel
            """)
        try h.press("<Enter>")
        #expect(h.app.statusText == "No item matches: nothing to move to")
        guard h.app.mode.panel(MovePicker.self) != nil else {
            Issue.record("the picker stays open")
            return
        }
        try h.press("<C-u>")
        h.type("groc")
        #expect(h.backend.lines[2] == " No item matches “groc”")
        #expect(try tree(h.outline) == start)
        try h.press("<C-u>")
        h.type("proj")
        try h.press("<Enter>")
        #expect(h.app.statusText == "Moved “Groceries” to “Projects”")
        #expect(try tree(h.outline) == ["Work", "  Projects", "    Groceries", "      Milk", "      Eggs", "Home"])
    }

    /// The destination deleted by another window while the picker is open: the move is refused in its unit
    /// of work, names the destination, and records nothing.
    @Test func aDestinationDeletedMeanwhileChangesNothing() throws {
        let (h, other) = try harness()
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("j j M")
        h.type("proj")
        try other.perform("Delete “Work”") { try other.delete(try other.item(at: "Work").objectID) }
        h.tick()
        try h.press("<Enter>")
        #expect(h.app.statusText == "Cannot move “Home” to “Projects”: “Projects” no longer exists (it was deleted elsewhere)")
        #expect(try tree(h.outline) == ["Groceries", "  Milk", "  Eggs", "Home"])
        #expect(h.outline.context.undoHistory.undoCount == steps + 1)  // theirs only
        guard case .browse = h.app.mode else {
            Issue.record("the picker closes: its list is stale")
            return
        }
    }

    /// Another window moved the destination inside the item that moves while the picker was open: refused
    /// as stored, not judged on the picker's stale list.
    @Test func aDestinationMovedInsideMeanwhileIsRefused() throws {
        let (h, other) = try harness()
        try h.press("j M")
        h.type("groc")
        try other.perform("Move") {
            try other.move(try other.item(at: "Groceries").objectID, to: try other.item(at: "Work/Projects").objectID, at: 0)
        }
        h.tick()
        try h.press("<Enter>")
        #expect(h.app.statusText == "Cannot move “Work” to “Groceries”: “Work” cannot be moved into itself")
        #expect(try tree(h.outline) == ["Work", "  Projects", "    Groceries", "      Milk", "      Eggs", "Home"])
    }

    /// The item that moves deleted meanwhile: nothing to move, said with its title, nothing recorded.
    @Test func theItemThatMovesDeletedMeanwhile() throws {
        let (h, other) = try harness()
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("j j M")
        h.type("groc")
        try other.perform("Delete “Home”") { try other.delete(try other.item(at: "Home").objectID) }
        h.tick()
        try h.press("<Enter>")
        #expect(h.app.statusText == "Cannot move “Home” to “Groceries”: “Home” no longer exists (it was deleted elsewhere)")
        #expect(h.outline.context.undoHistory.undoCount == steps + 1)  // theirs only
    }

    @Test func theTopLevelIsADestinationFromANestedLevel() throws {
        let (h, _) = try harness()
        try h.press("l j M")
        #expect(h.app.statusText == "Moving “Eggs”")
        try h.press("<Enter>")
        #expect(h.app.statusText == "Moved “Eggs” to the top level")
        #expect(try tree(h.outline) == ["Groceries", "  Milk", "Work", "  Projects", "Home", "Eggs"])
        try h.press("u")
        #expect(h.app.statusText == "Undid: Move “Eggs” to the top level")
        #expect(try tree(h.outline) == start)
    }

    /// Titles from the store are drawn with visible stand-ins, paths cut from the left, at every size.
    @Test func hostileTitlesAndATinyTerminal() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.append("Other", to: try o.root())
        let evil = try o.append("Evil\u{1B}[2J\u{202E}txt", to: try o.root())
        let deep = try o.append("A rather long parent title here", to: evil)
        try o.append("日本語のタイトル", to: deep)
        try o.save()
        let h = try AppHarness(width: 24, height: 5, outline: o)
        try h.press("M")
        h.type("日")
        h.expect(
            """
            Burrow
            Move to: 日
             日本語のタイトル  …here

            Enter: move · Esc: canc…
            """)
        try h.press("<BS>")
        h.type("ev")
        h.expect(
            """
            Burrow
            Move to: ev
             Evil^[[2J<U+202E>txt  …

            Enter: move · Esc: canc…
            """)
        #expect(h.backend.unsafeCellsReceived == 0)
        h.resize(30, 9)
        h.expect(
            """
            Burrow
            Move to: ev
             Evil^[[2J<U+202E>txt  Burrow





            Mov… Enter: move · Esc: cancel
            """)
    }

    /// Every title is read once when the picker opens; typing narrows the matches in memory, and only the
    /// best rows are kept to scroll through.
    @Test func aLargeOutline() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let nodes = (0..<50).map { i in OutlineNode("Group \(i)", children: (0..<400).map { OutlineNode("Task \(i)-\($0)") }) }
        try o.add(nodes, under: try o.root())
        try o.save()
        let h = try AppHarness(width: 40, height: 8, outline: o)
        try h.press("M")
        guard let picker = h.app.mode.panel(MovePicker.self) else {
            Issue.record("the picker is open")
            return
        }
        #expect(picker.index.count == 20_051)
        #expect(picker.shown.count == MovePicker.rowLimit)
        h.type("task 49-399")
        #expect(picker.shown.first.map { picker.index.titles[Int($0.position)] } == "Task 49-399")
        try h.press("<Enter>")
        #expect(h.app.statusText == "Moved “Group 0” to “Task 49-399”")
        #expect(try h.outline.check().isEmpty)
    }
}
