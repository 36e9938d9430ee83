import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// A row whose item has a note shows `¶` after its title; the mark stays when the title is cut, and it
/// follows the note as another process adds or removes it.
@Suite struct NoteMarkTests {
    private func outline(_ titles: [String], notes: [String: String]) throws -> Outline {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let items = try o.append(titles: titles, to: try o.root())
        for item in items { item.note = notes[item.title] }
        try o.save()
        return o
    }

    @Test func rowsMarkNotesAndKeepTheMarkWhenCut() throws {
        let o = try outline(
            ["Groceries", "A very long title that cannot fit", "Done one", "Plain"],
            notes: ["Groceries": "Saturday", "A very long title that cannot fit": "x", "Done one": "y", "Plain": ""])
        let done = try #require(try o.children(of: o.root()).first { $0.title == "Done one" })
        done.isDone = true
        try o.save()
        try o.append(titles: ["Milk"], to: try #require(try o.children(of: o.root()).first { $0.title == "Groceries" }))
        try o.save()
        let h = try AppHarness(width: 30, height: 8, outline: o)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶          1 ›
             [ ] A very long title that… ¶
             [x] Done one ¶
             [ ] Plain

                                   ?: help
            """)
    }

    @Test func theMarkFollowsNotesSavedElsewhere() throws {
        let o = try outline(["Plan"], notes: [:])
        let h = try AppHarness(width: 30, height: 6, outline: o)
        let other = Outline(context: Context(store: o.context.store))
        let plan = try #require(try other.children(of: other.root()).first)
        try other.perform("Note") { plan.note = "first step" }
        h.draw()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan ¶


                                   ?: help
            """)
        try other.perform("No note") { plan.note = nil }
        h.draw()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Plan


                                   ?: help
            """)
    }

    @Test func aNarrowRowKeepsTheBoxAndTheMark() throws {
        let o = try outline(["Groceries and the market"], notes: ["Groceries and the market": "n"])
        try o.append(titles: ["Milk"], to: try #require(try o.children(of: o.root()).first))
        try o.save()
        let h = try AppHarness(width: 24, height: 5, outline: o)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries a… ¶ 1 ›

                             ?: help
            """)
    }
}
