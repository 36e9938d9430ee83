import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp

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
            x does nothing here ·… ?: help
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
