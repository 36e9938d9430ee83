import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// `v` opens a visual range; j/k extend it; `d`, Space, `J`/`K`, `>`/`<`, `M`, `y`, `m` act on all of it as
/// one undoable action; Esc leaves it.
@Suite struct VisualRangeTests {
    /// A, B (B1, B2), C, D, E.
    private func harness() throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let top = try o.append(titles: ["A", "B", "C", "D", "E"], to: try o.root())
        _ = try o.append(titles: ["B1", "B2"], to: top[1])
        try o.save()
        return try AppHarness(width: 40, height: 10, outline: o)
    }

    private func titles(_ h: AppHarness) throws -> [String] { try h.outline.children(of: h.outline.root()).map(\.title) }

    @Test func theRangeIsDrawnSelectedAndEscLeavesIt() throws {
        let h = try harness()
        try h.press("j v j j")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] A
             [ ] B                              2 ›
             [ ] C
             [ ] D
             [ ] E


                                 3 rows · Esc: leave
            """)
        for y in 3...5 { #expect(h.backend.cell(x: 1, y: y).style.attributes.contains(.reverse), "row \(y) in the range") }
        #expect(!h.backend.cell(x: 1, y: 2).style.attributes.contains(.reverse))
        #expect(h.app.selectedItems.map(\.title) == ["B", "C", "D"])
        try h.press("<Esc>")
        #expect(h.app.selectedItems.map(\.title) == ["D"])
        #expect(h.app.breadcrumbs == ["Burrow"], "Esc left the range, not the level")
        try h.press("k v k <Space>")
        #expect(h.app.statusText == "Done: 2 items")
    }

    @Test func deleteTakesTheWholeRangeAsOneStep() throws {
        let h = try harness()
        try h.press("j v j d")
        #expect(h.app.statusText == "Deleted “B” and “C” (4 items) · u: undo")
        #expect(try titles(h) == ["A", "D", "E"])
        try h.press("u")
        #expect(h.app.statusText?.hasPrefix("Undid: Delete “B” and “C” (4 items)") == true, "\(h.app.statusText ?? "")")
        #expect(try titles(h) == ["A", "B", "C", "D", "E"])
        #expect(try h.outline.children(of: try h.outline.children(of: h.outline.root())[1]).map(\.title) == ["B1", "B2"])
    }

    @Test func doneMarksAllOrClearsAll() throws {
        let h = try harness()
        try h.press("j j <Space> g v j j <Space>")
        #expect(try h.outline.children(of: h.outline.root()).prefix(3).map(\.isDone) == [true, true, true])
        try h.press("v k k <Space>")
        #expect(h.app.statusText == "Not done: 3 items")
        #expect(try h.outline.children(of: h.outline.root()).map(\.isDone).allSatisfy { !$0 })
        try h.press("u")
        #expect(try h.outline.children(of: h.outline.root()).prefix(3).map(\.isDone) == [true, true, true], "one step")
    }

    @Test func jAndKMoveTheRangeAndItStaysOpen() throws {
        let h = try harness()
        try h.press("v j J")
        #expect(try titles(h) == ["C", "A", "B", "D", "E"])
        #expect(h.app.selectedItems.map(\.title) == ["A", "B"], "the range follows its items")
        try h.press("J J")
        #expect(try titles(h) == ["C", "D", "E", "A", "B"])
        try h.press("J")
        #expect(h.app.statusText == "Already at the end of the list")
        try h.press("K K K")
        #expect(try titles(h) == ["A", "B", "C", "D", "E"])
        try h.press("u")
        #expect(try titles(h) == ["C", "A", "B", "D", "E"], "each move is its own step")
    }

    @Test func indentAndOutdentTheRangeInPlace() throws {
        let h = try harness()
        try h.press("j j v j >")
        #expect(try titles(h) == ["A", "B", "E"])
        let b = try h.outline.children(of: h.outline.root())[1]
        #expect(try h.outline.children(of: b).map(\.title) == ["B1", "B2", "C", "D"])
        #expect(b.isExpanded, "opened so the range stays in view")
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "C")
        try h.press("v j <lt>")
        #expect(try titles(h) == ["A", "B", "C", "D", "E"])
        try h.press("u u")
        #expect(try titles(h) == ["A", "B", "C", "D", "E"], "undone and redone as whole ranges")
        #expect(try h.outline.check().isEmpty)
    }

    @Test func aRangeAcrossAnOpenItemActsOnItsOutermostItems() throws {
        let h = try harness()
        try h.press("j zo v j j j")
        #expect(h.app.selectedItems.map(\.title) == ["B", "B1", "B2", "C"])
        try h.press("y")
        #expect(h.app.statusText?.hasPrefix("Copied “B” and 1 other item with 2 sub-items") == true, "\(h.app.statusText ?? "")")
        try h.press("G p")
        #expect(try titles(h) == ["A", "B", "C", "D", "E", "B", "C"])
        #expect(try h.outline.children(of: try h.outline.children(of: h.outline.root())[5]).map(\.title) == ["B1", "B2"])
    }

    @Test func aRangeNotInOneListIsRefusedForMoves() throws {
        let h = try harness()
        try h.press("j zo j v j j J")
        #expect(h.app.statusText == "The range is not one run of items under the same item: choose one that is")
        #expect(try titles(h) == ["A", "B", "C", "D", "E"])
    }

    @Test func theMovePickerTakesTheRange() throws {
        let h = try harness()
        try h.press("j j v j M")
        h.type("E")
        try h.press("<Enter>")
        #expect(try titles(h) == ["A", "B", "E"])
        #expect(try h.outline.children(of: try h.outline.children(of: h.outline.root())[2]).map(\.title) == ["C", "D"])
    }

    @Test func theAnchorDeletedElsewhereLeavesARangeFromTheSelection() throws {
        let (h, other) = try AppHarness.withSecondContext(["A", "B", "C", "D"])
        try h.press("v j j")
        try other.delete(try other.children(of: try other.root())[0])
        try other.save()
        h.tick()
        #expect(h.app.selectedItems.map(\.title) == ["C"])
        try h.press("d")
        #expect(try h.outline.children(of: h.outline.root()).map(\.title) == ["B", "D"])
    }
}
