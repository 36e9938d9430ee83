import BurrowSettings
import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline
@testable import TerminalKit

/// `A` edits the selected item's note in place, in the detail pane: Enter adds a line, Esc saves (one
/// undoable action, only when it changed), Ctrl-G drops the edit; a note changed or an item deleted elsewhere
/// meanwhile loses neither text; resizing, tiny terminals and quitting keep what was typed.
@Suite struct NoteDraftTests {
    private func outline(note: String?) throws -> Outline {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let items = try o.append(titles: ["Plan", "Other"], to: try o.root())
        items[0].note = note
        try o.save()
        return o
    }

    private func harness(note: String?, width: Int = 40, height: Int = 12) throws -> AppHarness {
        try AppHarness(width: width, height: height, outline: try outline(note: note))
    }

    private func note(_ h: AppHarness, _ index: Int = 0) throws -> String? {
        try h.outline.children(of: h.outline.root())[index].note
    }

    @Test func typingWrapsAndEnterAddsALineThenEscSavesOneUndoableAction() throws {
        let h = try harness(note: "Saturday, before ten")
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("A")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan ¶
             [ ] Other



            ─ Note of “Plan” ───────────────────────
            Saturday, before ten


                          Esc: save · Ctrl-G: cancel
            """)
        #expect(h.backend.cursor == Position(x: 20, y: 8), "the cursor starts at the end of the note")
        h.type(", at the market by the station")
        try h.press("<Enter>")
        h.type("bring bags")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan ¶
             [ ] Other



            ─ Note of “Plan” ───────────────────────
            Saturday, before ten, at the market by
            the station
            bring bags
                          Esc: save · Ctrl-G: cancel
            """)
        #expect(h.backend.cursor == Position(x: 10, y: 10))
        #expect(try note(h) == "Saturday, before ten", "nothing is saved while typing")
        try h.press("<Esc>")
        #expect(try note(h) == "Saturday, before ten, at the market by the station\nbring bags")
        #expect(h.app.statusText == "Saved the note of “Plan”")
        #expect(h.outline.context.undoHistory.undoCount == steps + 1)
        #expect(h.backend.cursor == nil)
        try h.press("u")
        #expect(try note(h) == "Saturday, before ten")
        #expect(h.app.statusText?.hasPrefix("Undid: Edit the note of “Plan”") == true, "\(h.app.statusText ?? "")")
        try h.press("<C-r>")
        #expect(try note(h) == "Saturday, before ten, at the market by the station\nbring bags")
    }

    @Test func theTextScrollsToKeepTheCursorInView() throws {
        let h = try harness(note: (1...6).map { "line \($0)" }.joined(separator: "\n"))
        try h.press("A")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan ¶
             [ ] Other



            ─ Note of “Plan” ───────────────────────
            line 4
            line 5
            line 6
                          Esc: save · Ctrl-G: cancel
            """)
        try h.press("<Up> <Up> <Up> <Up>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan ¶
             [ ] Other



            ─ Note of “Plan” ───────────────────────
            line 2
            line 3
            line 4
                          Esc: save · Ctrl-G: cancel
            """)
        #expect(h.backend.cursor == Position(x: 6, y: 8))
        // Keys that mean something else while browsing are text here.
        try h.press("<BS> d u q")
        #expect(h.app.isRunning)
        try h.press("<Esc>")
        #expect(try note(h) == "line 1\nline duq\nline 3\nline 4\nline 5\nline 6")
    }

    @Test func ctrlGDropsTheEditAndNoChangeIsNoAction() throws {
        let h = try harness(note: "keep me")
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("A")
        h.type(" and more")
        try h.press("<C-g>")
        #expect(try note(h) == "keep me")
        #expect(h.app.statusText == "Edit dropped: the note of “Plan” is as it was")
        try h.press("A <Esc>")
        #expect(h.app.statusText == "The note of “Plan” is unchanged")
        // Typing then deleting it again is no change either.
        try h.press("A x <BS> <Esc>")
        #expect(h.app.statusText == "The note of “Plan” is unchanged")
        #expect(h.outline.context.undoHistory.undoCount == steps)
        #expect(h.backend.lines[7] == String(repeating: "─", count: 40), "the pane shows the details again")
        #expect(h.backend.lines[11] == "The note of “Plan” is unchanged  ?: help")
    }

    @Test func aNoteWrittenForAnItemWithoutOneMarksIt() throws {
        let h = try harness(note: nil)
        try h.press("A")
        #expect(h.backend.lines[8] == "", "an empty editor")
        h.type("new")
        try h.press("<Esc>")
        #expect(try note(h) == "new")
        #expect(h.backend.lines[2] == " [ ] Plan ¶")
        // Emptying a note removes it.
        try h.press("A <BS> <BS> <BS> <Esc>")
        #expect(try note(h) == nil)
        #expect(h.backend.lines[2] == " [ ] Plan")
    }

    @Test func pastedEscapeSequencesAreShownAsStandInsAndKeptAsPasted() throws {
        let h = try harness(note: "")
        try h.press("A")
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}\rsecond\u{9B}1m"
        h.send(.paste(hostile))
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan
             [ ] Other



            ─ Note of “Plan” ───────────────────────
            ^[[2J^[]0;pwned^G
            second<U+009B>1m

                          Esc: save · Ctrl-G: cancel
            """)
        #expect(h.backend.unsafeCellsReceived == 0)
        try h.press("<Esc>")
        #expect(try note(h) == "\u{1B}[2J\u{1B}]0;pwned\u{07}\nsecond\u{9B}1m", "the pasted line break is a new line")
    }

    @Test func aTitleWithControlsIsDrawnSanitisedOnTheRule() throws {
        let o = try outline(note: nil)
        try o.perform("Rename") { try o.children(of: o.root())[0].title = "x\u{1B}[31m" }
        let h = try AppHarness(width: 40, height: 12, outline: o)
        try h.press("A")
        #expect(h.backend.lines[7] == "─ Note of “x^[[31m” ────────────────────")
    }

    @Test func anItemDeletedElsewhereWhileEditingKeepsTheTextInANewItem() throws {
        let (h, other) = try AppHarness.withSecondContext(["Plan", "Other"])
        h.resize(40, 12)
        try h.press("A")
        h.type("ours")
        let plan = try #require(try other.children(of: other.root()).first)
        try other.perform("Delete") { try other.delete(plan) }
        h.tick()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Other




            ─ Note of “Plan” ───────────────────────
            ours


            “Plan” was d… Esc: save · Ctrl-G: cancel
            """)
        #expect(h.app.statusText == "“Plan” was deleted elsewhere: Esc keeps your text in a new item, Ctrl-G drops it")
        h.type("!")
        try h.press("<Esc>")
        #expect(try h.titles() == ["Other", "Edited note of “Plan”"])
        #expect(try note(h, 1) == "ours!")
        #expect(h.app.statusText == "“Plan” was deleted elsewhere while you edited its note: your text is in a new item at the end")
        try h.press("u")
        #expect(try h.titles() == ["Other"], "keeping it was one undoable action")
    }

    @Test func aNoteChangedElsewhereWhileEditingKeepsBothTexts() throws {
        let (h, other) = try AppHarness.withSecondContext(["Plan", "Other"])
        h.resize(40, 12)
        try h.press("A")
        h.type("ours")
        let plan = try #require(try other.children(of: other.root()).first)
        try other.perform("Theirs") { plan.note = "theirs" }
        h.tick()
        #expect(h.app.statusText == "The note was changed elsewhere: Esc keeps both (yours in a new item below), Ctrl-G keeps theirs")
        // The editor keeps what the user typed, not what arrived.
        #expect(h.backend.lines[8] == "ours")
        try h.press("<Esc>")
        #expect(plan.note == "theirs")
        #expect(try h.titles() == ["Plan", "Edited note of “Plan”", "Other"])
        #expect(try note(h, 1) == "ours")
        #expect(h.app.statusText == "The note of “Plan” changed elsewhere while you edited it: your text is in the item below it")
    }

    @Test func noRoomForThePaneSaysSoAndOpensNothing() throws {
        let h = try harness(note: "n", width: 40, height: 9)
        try h.press("A")
        #expect(h.app.statusText == "No room to edit the note here: make the terminal taller, or press E for your editor")
        if h.app.mode.panel(NoteDraft.self) != nil { Issue.record("the editor opened") }
        #expect(!h.app.detailsPane.isShown)
        let empty = try harness(note: nil)
        try empty.press("j dd j dd A")
        #expect(empty.app.statusText == "No item to write a note for")
    }

    @Test func resizingAndATooSmallTerminalKeepTheText() throws {
        let h = try harness(note: "Saturday, before ten")
        try h.press("A")
        h.type(" at the market")
        // Too short for the pane: the editor takes the list's place.
        h.resize(30, 8)
        h.expect(
            """
            Burrow
            + Add to Burrow…
            ─ Note of “Plan” ─────────────
            Saturday, before ten at the
            market


                Esc: save · Ctrl-G: cancel
            """)
        #expect(h.backend.cursor == Position(x: 6, y: 4))
        h.resize(20, 4)
        h.type("ignored")
        h.resize(40, 12)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan ¶
             [ ] Other



            ─ Note of “Plan” ───────────────────────
            Saturday, before ten at the market


            Keys did not… Esc: save · Ctrl-G: cancel
            """)
        try h.press("<Esc>")
        #expect(try note(h) == "Saturday, before ten at the market")
    }

    /// Every change is kept when the outliner ends: Ctrl-C, q in a terminal too small to show the editor,
    /// and a signal all save the note being edited first.
    @Test(arguments: ["ctrl-c", "q while too small", "signal"])
    func leavingTheOutlinerSavesTheNote(how: String) throws {
        let h = try harness(note: "first")
        try h.press("A")
        h.type(" and second")
        switch how {
        case "ctrl-c": try h.press("<C-c>")
        case "q while too small":
            h.resize(10, 3)
            try h.press("q")
        default: h.send(.terminate(signal: SIGTERM))
        }
        #expect(!h.app.isRunning)
        #expect(try note(h) == "first and second")
    }

    /// A megabyte of note: opening it, typing and moving cost what the rows on screen cost, not the note's
    /// length (the pane re-wraps its whole note when it changes; the editor does not, key by key): the editor
    /// wraps a few lines per key, never the whole note again.
    @Test func aHugeNoteStaysResponsive() throws {
        let line = "the quick brown fox jumps over the lazy dog, again and again. "
        let text = String(repeating: line + "\n", count: 1_000_000 / (line.count + 1))
        let o = try outline(note: text)
        let h = try AppHarness(width: 40, height: 12, outline: o)
        try h.press("A")
        for _ in 0..<10 { try h.press("x <Enter> <BS> <Up> <Up> y <Down> <PgUp> <C-End>") }
        guard let draft = h.app.mode.panel(NoteDraft.self) else {
            Issue.record("the note is not being edited")
            return
        }
        // 90 keys in 15,873 lines: opening wraps what the screen shows, each key what is near the cursor.
        #expect(draft.area.linesWrapped < 90 * 20, "\(draft.area.linesWrapped) lines wrapped")
        try h.press("<Esc>")
        #expect(try note(h)?.count == text.count + 20)
    }
}
