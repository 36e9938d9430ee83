import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// Folds: `zo` `zc` `za` `zR` `zM` `+` `-` show an item's sub-items indented beneath it inside the level,
/// stored on the item (so they persist and other processes see them), live as every level is, and outside
/// undo.
@Suite struct FoldTests {
    /// Groceries (Milk (Oat, Soy), Eggs), Work (Plan), Home.
    private static func outline(_ store: Store? = nil) throws -> Outline {
        let o = Outline(context: Context(store: try store ?? Store(inMemoryWith: OutlineModel.model)))
        let top = try o.append(titles: ["Groceries", "Work", "Home"], to: try o.root())
        let groceries = try o.append(titles: ["Milk", "Eggs"], to: top[0])
        _ = try o.append(titles: ["Oat", "Soy"], to: groceries[0])
        _ = try o.append(titles: ["Plan"], to: top[1])
        try o.save()
        return o
    }

    private func harness(height: Int = 10) throws -> AppHarness {
        try AppHarness(width: 40, height: height, outline: try Self.outline())
    }

    @Test func zoOpensInPlaceAndZcCloses() throws {
        let h = try harness()
        try h.press("zo")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ▾
               [ ] Milk                         2 ›
               [ ] Eggs
             [ ] Work                           1 ›
             [ ] Home


                                             ?: help
            """)
        // The selection stays on its item; j walks into the open list.
        try h.press("j zo")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ▾
               [ ] Milk                         2 ▾
                 [ ] Oat
                 [ ] Soy
               [ ] Eggs
             [ ] Work                           1 ›
             [ ] Home
                                             ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "Milk")
        // zc on a sub-item that is not open closes the list it is in and selects its item.
        try h.press("j zc")
        #expect(h.app.top.selectedRow?.title == "Milk")
        try h.press("zc")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ›
             [ ] Work                           1 ›
             [ ] Home




                                             ?: help
            """)
        #expect(h.app.breadcrumbs == ["Burrow"], "folds never drill in")
    }

    @Test func plusMinusAndZaToggle() throws {
        let h = try harness()
        try h.press("+")
        #expect(h.app.top.count == 5)
        try h.press("-")
        #expect(h.app.top.count == 3)
        try h.press("za")
        #expect(h.app.top.count == 5)
        try h.press("za")
        #expect(h.app.top.count == 3)
        // A leaf has nothing to open: it says so, and nothing is written.
        try h.press("G +")
        #expect(h.app.statusText == "“Home” has no sub-items to show")
        try h.press("- ")
        #expect(h.app.statusText == "“Home” is not open")
    }

    @Test func zROpensEverythingAndZMClosesItWithTheSelectionOnItsItem() throws {
        let h = try harness(height: 12)
        try h.press("zR")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ▾
               [ ] Milk                         2 ▾
                 [ ] Oat
                 [ ] Soy
               [ ] Eggs
             [ ] Work                           1 ▾
               [ ] Plan
             [ ] Home

            Opened 3 items                   ?: help
            """)
        try h.press("j j j")
        #expect(h.app.top.selectedRow?.title == "Soy")
        try h.press("zM")
        #expect(h.app.statusText == "Closed 3 items")
        #expect(h.app.top.count == 3)
        #expect(h.app.top.selectedRow?.title == "Groceries", "the row went away: its item at the level is selected")
    }

    @Test func foldsAreStoredAndSeenByANewSession() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try Self.outline(store)
        let h = try AppHarness(width: 40, height: 10, outline: o)
        try h.press("zo j zo")
        let later = try AppHarness(width: 40, height: 10, outline: Outline(context: Context(store: store)))
        #expect(later.app.top.count == 7)
        #expect(later.backend.text == h.backend.text, "the same rows, open as they were left")
        #expect(later.app.top.selectedRow?.title == "Groceries")
    }

    @Test func foldingIsNoUndoStepAndKeepsTheRedo() throws {
        let h = try harness()
        try h.press("G a")
        h.type("Garden")
        try h.press("<Enter> <Esc> u")
        #expect(h.app.statusText?.hasPrefix("Undid: Add “Garden”") == true)
        try h.press("g zo")
        // Redo is still there after a fold, and undo skips the fold.
        try h.press("<C-r>")
        #expect(h.app.statusText?.hasPrefix("Redid: Add “Garden”") == true, "\(h.app.statusText ?? "")")
        try h.press("zc u")
        #expect(h.app.statusText?.hasPrefix("Undid: Add “Garden”") == true, "\(h.app.statusText ?? "")")
        #expect(try h.outline.children(of: h.outline.root()).map(\.title) == ["Groceries", "Work", "Home"])
        // Undoing an add of an item opened since is no conflict: opening it changed only how it is shown.
        try h.press("G o")
        h.type("Shed")
        try h.press("<Enter>")
        try h.outline.setExpanded([try #require(h.app.top.selectedID)], true)
        try h.press("u")
        #expect(h.app.statusText?.hasPrefix("Undid: Add “Shed”") == true, "\(h.app.statusText ?? "")")
    }

    @Test func openListsAreLiveToAnotherContext() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try Self.outline(store)
        let other = Outline(context: Context(store: store))
        let h = try AppHarness(width: 40, height: 10, outline: o)
        try h.press("zo j j")
        #expect(h.app.top.selectedRow?.title == "Eggs")
        // Another window adds to the open list above the selection, and opens Work.
        let groceries = try other.children(of: try other.root())[0]
        try other.insert("Bread", into: groceries, at: 0)
        try other.children(of: try other.root())[1].isExpanded = true
        try other.save()
        h.tick()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      3 ▾
               [ ] Bread
               [ ] Milk                         2 ›
               [ ] Eggs
             [ ] Work                           1 ▾
               [ ] Plan
             [ ] Home
                                             ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "Eggs", "the selection stays on its item")
        // The open item is deleted elsewhere: its rows go, the selection goes to the row that took its place.
        try other.delete(groceries)
        try other.save()
        h.tick()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Work                           1 ▾
               [ ] Plan
             [ ] Home




                                             ?: help
            """)
        #expect(h.app.top.selectedRow != nil)
    }

    @Test func editsInsideAnOpenListStayInIt() throws {
        let h = try harness(height: 12)
        try h.press("zo j")
        // J and K move among its siblings.
        try h.press("J")
        #expect(try h.outline.children(of: h.outline.children(of: h.outline.root())[0]).map(\.title) == ["Eggs", "Milk"])
        #expect(h.app.top.selectedRow?.title == "Milk")
        // o on an item whose list is open inserts its first sub-item, where the editor row was drawn.
        try h.press("K zo o")
        h.type("Bread")
        try h.press("<Enter>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ▾
               [ ] Milk                         3 ▾
                 [ ] Bread
                 [ ] Oat
                 [ ] Soy
               [ ] Eggs
             [ ] Work                           1 ›
             [ ] Home

            Added “Bread”                    ?: help
            """)
        // < outdents out of Milk's list, > indents back under the item above (opened so it stays in view), <
        // outdents again: no level changes.
        try h.press("<lt>")
        #expect(h.app.top.selectedRow?.title == "Bread" && h.app.top.selectedDepth == 1)
        try h.press(">")
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "Bread" && h.app.top.selectedDepth == 2)
        try h.press("<lt>")
        #expect(h.app.top.selectedRow?.title == "Bread" && h.app.top.selectedDepth == 1)
        try h.press("<lt>")
        #expect(h.app.top.selectedRow?.title == "Bread" && h.app.top.selectedDepth == 0)
        #expect(try h.outline.children(of: h.outline.root()).map(\.title) == ["Groceries", "Bread", "Work", "Home"])
        #expect(try h.outline.check().isEmpty)
    }

    @Test func hidingDoneItemsEverywhereWithACount() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try Self.outline(store)
        let h = try AppHarness(width: 40, height: 10, outline: o)
        try h.press("zo j j <Space> g")
        try h.press("H")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      2 ▾
               [ ] Milk                         2 ›
             [ ] Work                           1 ›
             [ ] Home



            Done items hidd… 1 done hidden · ?: help
            """)
        // Stored with the outline: a new session starts with them hidden.
        let later = try AppHarness(width: 40, height: 10, outline: Outline(context: Context(store: store)))
        later.app.start()
        later.draw()
        #expect(later.app.top.count == 4)
        try h.press("H")
        #expect(h.app.top.count == 5)
        #expect(h.app.statusText == "Done items shown")
    }

    @Test func aLevelUnderAnotherCatchesUpOnItsOpenLists() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = try Self.outline(store)
        let other = Outline(context: Context(store: store))
        let h = try AppHarness(width: 40, height: 10, outline: o)
        try h.press("zo j j j <Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "Work"])
        // Meanwhile, elsewhere: Groceries' open list grows and Milk opens.
        let groceries = try other.children(of: try other.root())[0]
        try other.insert("Bread", into: groceries, at: 2)
        try other.children(of: groceries)[0].isExpanded = true
        try other.save()
        h.tick()
        try h.press("h")
        // The rows that came above it while it was away push the list up, the item we came from kept in view.
        h.expect(
            """
            Burrow
            + Add to Burrow…
               [ ] Milk                         2 ▾
                 [ ] Oat
                 [ ] Soy
               [ ] Eggs
               [ ] Bread
             [ ] Work                           1 ›
             [ ] Home
                                       7/8 · ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "Work", "back on the item we came from")
        #expect(h.app.top.knownCount == 8)
    }

    @Test func theWholeLevelCountsOnceJumpedToTheEnd() throws {
        // 30 open items of 20 sub-items each: 630 rows, most in lists not read until needed.
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let tops = try o.append(titles: (0..<30).map { "Top \($0)" }, to: try o.root())
        for t in tops { _ = try o.append(titles: (0..<20).map { "Sub \($0)" }, to: t) }
        try o.save()
        let h = try AppHarness(width: 40, height: 10, outline: o)
        try h.press("zR")
        #expect(h.app.top.knownCount == nil, "only what is on screen was read")
        try h.press("G")
        #expect(h.app.top.knownCount == 630)
        #expect(h.app.top.selectedRow?.title == "Sub 19")
        try h.press("k k k k k k k k k k k k k k k k k k k k")
        #expect(h.app.top.selectedRow?.title == "Top 29")
        try h.press("g")
        #expect(h.app.top.selectedRow?.title == "Top 0")
    }
}
