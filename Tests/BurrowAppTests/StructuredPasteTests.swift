import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// Pasting indented text or a list into the capture line keeps its structure (issue 15): one item per line,
/// nesting from the indentation, `[ ]`/`[x]` read as the Markdown importer reads them, one undoable action.
@Suite struct StructuredPasteTests {
    private func harness() throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.append(titles: ["Existing"], to: try o.root())
        try o.save()
        return try AppHarness(width: 40, height: 8, outline: o)
    }

    @Test func indentedTextNests() throws {
        let h = try harness()
        h.send(.paste("Trip\n  Tickets\n  Packing\n    Socks\nBudget\n"))
        #expect(try h.titles() == ["Existing", "Trip", "Budget"])
        #expect(try h.titles(under: ["Trip"]) == ["Tickets", "Packing"])
        #expect(try h.titles(under: ["Trip", "Packing"]) == ["Socks"])
        #expect(h.app.statusText == "Added 5 items (2 here, the rest below them)")
        try h.press("<Esc> u")
        #expect(try h.titles() == ["Existing"], "one action: one undo takes all of it back")
    }

    @Test func aListKeepsItsBoxes() throws {
        let h = try harness()
        h.send(.paste("- [x] Milk\n- [ ] Eggs\n  - [ ] Free range\n"))
        #expect(try h.titles() == ["Existing", "Milk", "Eggs"])
        let items = try h.outline.children(of: h.outline.root())
        #expect(items.map(\.isDone) == [false, true, false])
        #expect(try h.titles(under: ["Eggs"]) == ["Free range"])
    }

    @Test func whatWasTypedStartsTheFirstTitle() throws {
        let h = try harness()
        try h.press("a")
        h.type("My ")
        h.send(.paste("plan\n  step one\n"))
        #expect(try h.titles() == ["Existing", "My plan"])
        #expect(try h.titles(under: ["My plan"]) == ["step one"])
    }

    @Test func indentationThatMakesNoOutlineIsPastedFlatNotLost() throws {
        let h = try harness()
        // Tabs and spaces mixed: no outline can be read from it, so one item per line, as before.
        h.send(.paste("A\n\t B\nC\n"))
        #expect(try h.titles() == ["Existing", "A", "B", "C"])
        #expect(h.app.statusText == "Added 3 items")
    }
}
