import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// `Y` copies the selected item with everything below it right after it, as one undoable action, and
/// selects the copy; the original is untouched.
@Suite struct DuplicateTests {
    private func harness() throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let top = try o.append(titles: ["Groceries", "Work"], to: try o.root())
        top[0].note = "Saturday"
        let subs = try o.append(titles: ["Milk", "Eggs"], to: top[0])
        subs[1].isDone = true
        _ = try o.append(titles: ["Oat"], to: subs[0])
        try o.save()
        return try AppHarness(width: 40, height: 8, outline: o)
    }

    @Test func copiesTheSubtreeBelowAndSelectsTheCopy() throws {
        let h = try harness()
        try h.press("Y")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶                    2 ›
             [ ] Groceries ¶                    2 ›
             [ ] Work


            Duplicated “Groceries” and 3 su… ?: help
            """)
        #expect(h.app.top.list.selected == 1)
        let items = try h.outline.children(of: h.outline.root())
        #expect(items[0].objectID != items[1].objectID)
        for item in items.prefix(2) {
            let subs = try h.outline.children(of: item)
            #expect(subs.map(\.title) == ["Milk", "Eggs"] && subs.map(\.isDone) == [false, true])
            #expect(try h.outline.children(of: subs[0]).map(\.title) == ["Oat"])
            #expect(item.note == "Saturday")
        }
        #expect(try h.outline.check().isEmpty, "counts and keys right in the store")
        // One step: undo removes the copy and everything below it, and the original stays.
        try h.press("u")
        #expect(h.app.statusText?.hasPrefix("Undid: Duplicate “Groceries” and 3 sub-items") == true, "\(h.app.statusText ?? "")")
        #expect(try h.outline.children(of: h.outline.root()).map(\.title) == ["Groceries", "Work"])
        #expect(try h.outline.descendantCount(of: try h.outline.children(of: h.outline.root())[0]) == 3)
    }

    @Test func aLeafIsCopiedAloneAndTheCopyIsIndependent() throws {
        let h = try harness()
        try h.press("j Y")
        #expect(h.app.statusText == "Duplicated “Work” · u: undo")
        try h.press("e")
        h.type(" copy")
        try h.press("<Enter>")
        #expect(try h.outline.children(of: h.outline.root()).map(\.title) == ["Groceries", "Work", "Work copy"])
    }
}
