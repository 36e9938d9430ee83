import ObjectGraph
import Testing

@testable import Outline

struct OutlineSearchTests {
    @Test func findsTitlesInOutlineOrderIgnoringASCIICase() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let b = try o.append("B milk", to: root)
        let a = try o.insert("A", into: root, at: 0)
        try o.append("MILK under A", to: a)
        try o.append("milkshake under B", to: b)
        try o.insert("Milk first in B", into: b, at: 0)
        try o.append("Café", to: root)
        try o.save()
        #expect(try o.search("milk").map(\.title) == ["MILK under A", "B milk", "Milk first in B", "milkshake under B"])
        #expect(try o.search("milk", limit: 2).count == 2)
        #expect(try o.search("burrow").isEmpty)  // the top is not an item to find
        #expect(try o.search("").isEmpty)
        #expect(try o.search("café").map(\.title) == ["Café"])
        #expect(try o.search("%").isEmpty)  // LIKE wildcards are matched literally
    }
}
