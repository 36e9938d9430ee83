import Foundation
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// `I` shows the selected item's details under the list: path, what is below, times, the note wrapped;
/// `]`/`[` scroll it; it follows the selection and changes made elsewhere.
@Suite struct DetailPaneTests {
    /// 2026-11-22 09:15 UTC.
    static let morning = Date(timeIntervalSince1970: 1_795_338_900)

    private func outline() throws -> Outline {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let top = try o.append(titles: ["Groceries", "Work"], to: try o.root())
        let subs = try o.append(titles: ["Milk", "Eggs"], to: top[0])
        _ = try o.append(titles: ["Oat", "Cow", "Soy"], to: subs[0])
        top[0].note = "Saturday, before ten, at the market by the station"
        for item in top + subs {
            item["created"] = Self.morning
            item["modified"] = Self.morning.addingTimeInterval(25 * 60)
        }
        try o.save()
        return o
    }

    private func harness(width: Int = 30, height: Int = 12) throws -> AppHarness {
        let h = try AppHarness(width: width, height: height, outline: try outline())
        h.app.timeZone = TimeZone(identifier: "UTC")!
        return h
    }

    @Test func showsTheSelectedItemAndFollowsTheSelection() throws {
        let h = try harness()
        try h.press("I")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶          2 ›
             [ ] Work



            ──────────────────────────────
            Burrow › Groceries
            2 sub-items · 5 below in all
            Created 2026-11- ↓ 2 more · ]
                                   ?: help
            """)
        try h.press("j")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶          2 ›
             [ ] Work



            ──────────────────────────────
            Burrow › Work
            No sub-items
            Created 2026-11- ↓ 1 more · ]
                                   ?: help
            """)
        try h.press("I")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶          2 ›
             [ ] Work







                                   ?: help
            """)
    }

    @Test func theNoteWrapsAndScrolls() throws {
        let h = try harness(width: 30, height: 12)
        try h.press("I ] ]")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶          2 ›
             [ ] Work



            ──────────────────────────────
            Created 2026-11-22 09:15 · ch…
            Saturday, before ten, at the
            market by the station
                                   ?: help
            """)
        // Past the end it stops, and back at the top it stops too.
        try h.press("] ] ] ]")
        #expect(h.app.detailsPane.scroll == 2)
        try h.press("[ [ [ [ [ [")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶          2 ›
             [ ] Work



            ──────────────────────────────
            Burrow › Groceries
            2 sub-items · 5 below in all
            Created 2026-11- ↓ 2 more · ]
                                   ?: help
            """)
        // All of it fits on a taller screen: nothing to scroll.
        h.resize(30, 16)
        try h.press("]")
        #expect(h.app.detailsPane.scroll == 0)
        #expect(h.backend.text.contains("market by the station"))
    }

    @Test func followsChangesMadeElsewhere() throws {
        let h = try harness()
        try h.press("I")
        let other = Outline(context: Context(store: h.outline.context.store))
        let groceries = try #require(try other.children(of: other.root()).first)
        try other.perform("Edit") {
            groceries.title = "Food"
            groceries.note = "New note"
            try other.append("Bread", to: groceries)
        }
        h.app.poll()
        h.draw()
        #expect(h.app.detailsPane.details?.path == ["Burrow", "Food"])
        #expect(h.app.detailsPane.details?.below == 6 && h.app.detailsPane.details?.row.childCount == 3)
        #expect(h.app.detailsPane.details?.note == "New note")
    }

    @Test func noRoomSaysSoAndKeepsTheList() throws {
        let h = try harness(width: 30, height: 8)
        try h.press("I")
        #expect(h.app.statusText == "No room for the details here: make the terminal taller")
        #expect(h.app.layout.details == nil && h.app.layout.list.height == 5)
        try h.press("]")
        #expect(h.app.statusText == "The details are hidden · I: show them")
        // Made taller, the pane appears with no key pressed.
        h.resize(30, 12)
        #expect(h.app.layout.details != nil)
        #expect(h.backend.text.contains("Burrow › Groceries"))
    }

    @Test func anEmptyLevelAndHostileText() throws {
        let o = try outline()
        let work = try #require(try o.children(of: o.root()).last)
        try o.perform("Hostile") { work.note = "\u{1B}]0;pwned\u{07}\ttab" }
        let h = try AppHarness(width: 30, height: 16, outline: o)
        try h.press("j I")
        #expect(!h.backend.text.contains("\u{1B}"))
        #expect(h.backend.text.contains("^[]0;pwned^G^Itab"))
        try h.press("l")  // an empty level: nothing selected
        #expect(h.backend.text.contains("No item selected"))
    }

    /// A title too long for its row is read whole in the pane, wrapped (it could be read only in rename).
    @Test func aLongTitleIsReadWholeInThePane() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        _ = try o.append(titles: ["Call the landlord about the broken heating before the weekend"], to: try o.root())
        try o.save()
        let h = try AppHarness(width: 30, height: 14, outline: o)
        try h.press("I")
        #expect(h.backend.lines[2].hasSuffix("…"), "the row is cut: \(h.backend.lines[2])")
        #expect(Array(h.backend.lines[9...11]) == ["Burrow › Call the landlord", "about the broken heating", "before the weekend"])
    }

    /// `}` and `{` scroll the pane a page at a time (`]` and `[` a line).
    @Test func braceKeysScrollAPage() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let item = try o.append("Long note", to: try o.root())
        item.note = (1...40).map { "line \($0)" }.joined(separator: "\n")
        try o.save()
        let h = try AppHarness(width: 30, height: 14, outline: o)
        try h.press("I")
        let area = try #require(h.app.layout.details)
        try h.press("}")
        #expect(h.app.detailsPane.scroll == area.height - 2)
        try h.press("] {")
        #expect(h.app.detailsPane.scroll == 1)
        try h.press("{")
        #expect(h.app.detailsPane.scroll == 0)
    }
}
