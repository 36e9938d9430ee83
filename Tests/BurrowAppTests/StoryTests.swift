import BurrowSettings
import TerminalKit
import Testing

@testable import BurrowApp

/// The seed's story, screen by screen: add “Groceries”, drill in, add “Milk” and “Eggs”, back, delete
/// “Groceries”, undo (both children back), redo.
struct StoryTests {
    @Test func theSeedStory() throws {
        let h = try AppHarness()
        h.expect(
            """
            Burrow
            + Add to Burrow…
              a: add an item · ?: help




                                             ?: help
            """)
        try h.press("a")
        h.type("Groceries")
        h.expect(
            """
            Burrow
            › Groceries
              a: add an item · ?: help




                              Enter: add · Esc: done
            """)
        #expect(h.backend.cursor == Position(x: 11, y: 1))
        try h.press("<Enter> <Esc>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries




            Added “Groceries”                ?: help
            """)
        #expect(h.backend.cursor == nil)
        #expect(h.backend.cell(x: 1, y: 2).style.attributes == .reverse)
        try h.press("<Enter> a")
        h.type("Milk")
        try h.press("<Enter>")
        h.type("Eggs")
        try h.press("<Enter> <Esc>")
        h.expect(
            """
            Burrow › Groceries
            + Add to Groceries…
             [ ] Milk
             [ ] Eggs



            Added “Eggs”                     ?: help
            """)
        #expect(h.backend.cell(x: 1, y: 3).style.attributes == .reverse)
        try h.press("h")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ›




                                             ?: help
            """)
        try h.press("dd")
        h.expect(
            """
            Burrow
            + Add to Burrow…
              a: add an item · ?: help




            Deleted “Groceries” and 2 sub-i… ?: help
            """)
        #expect(h.app.statusText == "Deleted “Groceries” and 2 sub-items · u: undo")
        #expect(try h.titles() == [])
        try h.press("u")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ›




            Undid: Delete “Groceries” and 2… ?: help
            """)
        #expect(h.app.statusText == "Undid: Delete “Groceries” and 2 sub-items")
        #expect(try h.titles(under: ["Groceries"]) == ["Milk", "Eggs"])
        try h.press("<Enter>")
        h.expect(
            """
            Burrow › Groceries
            + Add to Groceries…
             [ ] Milk
             [ ] Eggs



                                             ?: help
            """)
        try h.press("h <C-r>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
              a: add an item · ?: help




            Redid: Delete “Groceries” and 2… ?: help
            """)
        #expect(try h.titles() == [])
    }
}
