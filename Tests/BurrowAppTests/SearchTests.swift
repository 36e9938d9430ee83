import ObjectGraph
import Outline
import TerminalKit
import Testing

@testable import BurrowApp

/// `/` searches the whole outline; Enter shows the first match in its level, `n`/`N` step through the rest.
struct SearchTests {
    private func harness() throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let groceries = try o.append("Groceries", to: root)
        let dairy = try o.append("Dairy", to: groceries)
        try o.append(titles: ["Milk", "Eggs"], to: dairy)
        try o.append("Oat MILK", to: groceries)
        let work = try o.append("Work", to: root)
        try o.append("Ask about milk budget", to: work)
        try o.save()
        return try AppHarness(outline: o)
    }

    @Test func searchGoesToMatchesInOutlineOrder() throws {
        let h = try harness()
        try h.press("/")
        h.type("milk")
        h.expect(
            """
            Burrow
            / milk
             [ ] Groceries                      2 ›
             [ ] Work                           1 ›



                         Enter: search · Esc: cancel
            """)
        try h.press("<Enter>")
        h.expect(
            """
            Burrow › Groceries › Dairy
            + Add to Dairy…
             [ ] Milk
             [ ] Eggs



            “milk”: match 1 of 3 · n/N: nex… ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "Milk")
        try h.press("n")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries"])
        #expect(h.app.top.selectedRow?.title == "Oat MILK")
        try h.press("n")
        #expect(h.app.breadcrumbs == ["Burrow", "Work"])
        #expect(h.app.top.selectedRow?.title == "Ask about milk budget")
        #expect(h.app.statusText == "“milk”: match 3 of 3 · n/N: next/previous")
        try h.press("n")
        #expect(h.app.top.selectedRow?.title == "Milk")
        try h.press("N N")
        #expect(h.app.top.selectedRow?.title == "Oat MILK")
        // Back goes up the revealed path as if the user had opened it.
        try h.press("h")
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "Groceries")
    }

    @Test func noMatchesDeletedMatchesAndCancel() throws {
        let h = try harness()
        try h.press("n")
        #expect(h.app.statusText == "No search yet: / searches")
        try h.press("/ zzz <Enter>")
        #expect(h.app.statusText == "Nothing contains “zzz”")
        try h.press("/ <C-u> eggs <Esc>")
        #expect(h.app.statusText == nil)
        #expect(h.app.breadcrumbs == ["Burrow"])
        try h.press("/ <C-u> e <Enter>")
        // "Dairy"? no: titles containing "e": Groceries, Eggs, … in outline order.
        #expect(h.app.top.selectedRow?.title == "Groceries")
        try h.press("n")
        #expect(h.app.top.selectedRow?.title == "Eggs")
        try h.press("d N")
        #expect(h.app.top.selectedRow?.title == "Groceries")
        try h.press("n")
        #expect(h.app.top.selectedRow?.title != "Eggs")
    }
}
