import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Search reads notes as well as titles (issue 15), in outline order, and a note never makes an item appear
/// twice.
@Suite struct NoteSearchTests {
    @Test func notesAreSearchedWithTitles() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let top = try o.append(titles: ["Breakfast", "Milk", "Work"], to: try o.root())
        top[0].note = "porridge with MILK"
        top[1].note = "oat milk, not cow's"
        let sub = try o.append(titles: ["Errands"], to: top[2])
        sub[0].note = "buy milk on the way"
        try o.save()
        #expect(try o.search("milk").map(\.title) == ["Breakfast", "Milk", "Errands"])
        #expect(try o.search("porridge").map(\.title) == ["Breakfast"])
        #expect(try o.search("nowhere").isEmpty)
    }
}
