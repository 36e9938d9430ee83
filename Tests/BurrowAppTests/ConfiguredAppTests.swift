import BurrowSettings
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// The outliner with what a config file gives it: other keys, a theme with colours, a problem to show at start.
@Suite struct ConfiguredAppTests {
    static func key(_ notation: String) -> TerminalKit.Key { try! TerminalKit.Key.parse(notation) }

    static func outline(_ titles: [String]) throws -> Outline {
        let outline = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try outline.append(titles: titles, to: try outline.root())
        try outline.save()
        return outline
    }

    /// A rebound command runs from its new key only; the key it lost does nothing, and undo still names it.
    @Test func aReboundKeyRunsItsCommand() throws {
        let keymap = Keymap.default.rebinding([.delete: [[Self.key("X")]], .moveDown: [[Self.key("<C-n>")]]])
        let h = try AppHarness(width: 30, height: 6, outline: try Self.outline(["Milk", "Eggs", "Bread"]), keymap: keymap)
        try h.press("x")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Milk
             [ ] Eggs
             [ ] Bread
            x does nothing here · ?: help
            """)
        try h.press("<C-n> X")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Milk
             [ ] Bread

            Deleted “Eggs” · u: u… ?: help
            """)
        try h.press("j")
        #expect(h.app.statusText == "j does nothing here · ?: help")
        try h.press("u")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Milk
             [ ] Eggs
             [ ] Bread
            Undid: Delete “Eggs”   ?: help
            """)
    }

    /// The help overlay is drawn from the keymap the app has, so it shows the user's keys in the default's places.
    @Test func helpShowsTheUsersKeys() throws {
        let keymap = Keymap.default.rebinding([.moveDown: [[Self.key("<C-n>")], [.down]], .first: []])
        let h = try AppHarness(width: 44, height: 8, keymap: keymap)
        try h.press("?")
        h.expect(
            """
            Burrow
             Keys — j/k scroll, any other key closes

             Moving
               Ctrl-N ↓              Move down
               k ↑                   Move up
                                     First item
                                              Esc: close
            """)
    }

    /// Every editor reads its keys from its own section of the keymap: rebound there, a key does the editor's
    /// command, the old key types itself (or does nothing), and the status line's hints say the new keys.
    @Test func theEditorsKeysAreRebound() throws {
        let keymap = Keymap.default
            .rebinding([.confirm: [[Self.key("<C-j>")]], .finish: [[Self.key("<C-x>")]]], in: .editor)
            .rebinding([.cursorLeft: [[Self.key("<C-o>")]], .deleteToLineStart: []], in: .text)
            .rebinding([.confirm: [[Self.key("<Tab>")]]], in: .search)
            .rebinding([.saveNote: [[Self.key("<C-s>")]], .newLine: [[Self.key("<C-j>")], [.enter]]], in: .note)
            .rebinding([.leaveRange: [[Self.key("<C-x>")]]], in: .visual)
        let h = try AppHarness(width: 40, height: 16, outline: try Self.outline(["Milk", "Eggs"]), keymap: keymap)
        try h.press("a")
        #expect(h.backend.lines[15].hasSuffix("Ctrl-J: add · Ctrl-X: done"))
        // Enter is no key of the editor now; Ctrl-O moves left, Ctrl-U no longer deletes.
        try h.press("Bred <C-o> a <Enter> <C-u> <C-j>")
        #expect(h.app.statusText == "Added “Bread”")
        #expect(try h.app.outline.subtree(under: try h.app.outline.root()).map(\.title) == ["Milk", "Eggs", "Bread"])
        try h.press("<Esc> <C-x>")
        #expect(h.backend.lines[1] == "+ Add to Burrow…", "Ctrl-X leaves; Esc did nothing")
        // The search line: Tab goes to the hit, Enter does not.
        try h.press("/ Eggs <Enter>")
        guard h.app.mode.panel(Search.self) != nil else { Issue.record("Enter left the search line"); return }
        try h.press("<Tab>")
        #expect(h.app.top.selectedRow?.title == "Eggs")
        // The note editor: Enter and Ctrl-J both start a line, Ctrl-S saves, Esc does nothing.
        try h.press("A one <C-j> two <Enter> three <Esc>")
        #expect(h.app.statusText == "Esc does nothing in a note · Ctrl-S: save · Ctrl-G: cancel")
        try h.press("<C-s>")
        #expect(try h.app.outline.note(of: try #require(h.app.top.selectedRow?.id)) == "one\ntwo\nthree")
        // A range: Ctrl-X leaves it, and the hint says so.
        try h.press("v")
        #expect(h.backend.lines[15].hasSuffix("1 row · Ctrl-X: leave"))
        try h.press("<C-x>")
        guard case .browse = h.app.mode else { Issue.record("Ctrl-X did not leave the range"); return }
    }

    /// The move picker's keys come from its own table: Tab moves, Enter (bound to nothing there) does nothing.
    @Test func theMovePickersKeysAreRebound() throws {
        let keymap = Keymap.default.rebinding([.confirm: [[Self.key("<Tab>")]], .moveDown: [[Self.key("<C-j>")]]], in: .picker)
        let h = try AppHarness(width: 40, height: 8, outline: try Self.outline(["Milk", "Eggs", "Bread"]), keymap: keymap)
        try h.press("M <Enter>")
        #expect(h.app.mode.panel(MovePicker.self) != nil, "Enter is no key of the picker now")
        // Milk, which moves, is not offered: the first row down is Eggs.
        try h.press("<C-j> <Tab>")
        #expect(h.app.mode.panel(MovePicker.self) == nil)
        #expect(h.app.statusText == "Moved “Milk” to “Eggs”")
        #expect(try h.app.outline.subtree(under: try h.app.outline.root()).map(\.title) == ["Eggs", "Milk", "Bread"])
    }

    /// `?` lists every editor's keys as they are bound now, under each editor's own heading.
    @Test func helpListsTheEditorsKeysAsBound() throws {
        let keymap = Keymap.default.rebinding([.confirm: [[Self.key("<C-j>")]]], in: .picker)
        let h = try AppHarness(width: 60, height: 200, keymap: keymap)
        try h.press("?")
        let lines = h.backend.lines.map { $0.trimmingCharacters(in: .whitespaces) }
        let picker = try #require(lines.firstIndex(of: "In the move picker (M)"))
        #expect(lines[picker + 1].hasPrefix("Ctrl-J") && lines[picker + 1].contains("Move the selection to the end"))
        for title in Keymap.default.sections.map(\.title) { #expect(lines.contains(title), "\(title)") }
    }

    /// Colours from the theme reach the cells: the selected row in the selection's colours (without reverse
    /// once a background is given), done titles in theirs, the rest as before.
    @Test func theThemesColoursAreDrawn() throws {
        var theme = Theme.standard.colored(.selection, foreground: .black, background: .cyan)
        theme = theme.colored(.done, foreground: .palette(8), background: nil)
        theme = theme.colored(.status, foreground: .blue, background: nil)
        let h = try AppHarness(width: 30, height: 6, outline: try Self.outline(["Milk", "Eggs"]), theme: theme)
        try h.press("j <Space> k")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Milk
             [x] Eggs

                                   ?: help
            """)
        let selected = h.backend.cell(x: 6, y: 2)
        #expect(selected.style == Style(foreground: .black, background: .cyan))
        let done = h.backend.cell(x: 6, y: 3)
        #expect(done.style == Style(foreground: .palette(8), attributes: .dim))
        let status = h.backend.cell(x: 0, y: 5)
        #expect(status.style == Style(foreground: .blue, attributes: .reverse))
        // The standard theme draws as it always did.
        let plain = try AppHarness(width: 30, height: 6, outline: try Self.outline(["Milk"]))
        #expect(plain.backend.cell(x: 6, y: 2).style == Style(attributes: .reverse))
        #expect(theme.withoutColors == .standard)
    }

    /// A problem shown at start (a bad config file) stays until the next key, drawn as an error and sanitised.
    @Test func aProblemShownAtStart() throws {
        let h = try AppHarness(width: 40, height: 5)
        h.app.showProblem("config.toml:3:1: unknown command “\u{1B}[2J”")
        h.draw()
        h.expect(
            """
            Burrow
            + Add to Burrow…
              a: add an item · ?: help

            config.toml:3:1: unknown comman… ?: help
            """)
        #expect(h.backend.cell(x: 0, y: 4).style == Theme.standard.error)
        try h.press("j")
        h.expect(
            """
            Burrow
            + Add to Burrow…
              a: add an item · ?: help

                                             ?: help
            """)
    }
}
