import ObjectGraph
import Outline
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp

/// Folds as deep as the outline: a chain of 50,000 items, each inside the one above, all opened with `zR`.
/// Everything that walks the open lists does it without recursion, so nothing runs out of stack: opening,
/// jumping to the end, closing, and freeing the lists.
///
/// Why it takes about 16 s: a recursive walk only runs out of an 8 MiB stack somewhere past 20,000 levels (a
/// few hundred bytes a frame), so a shallower chain would pass with the recursion back; 50,000 levels are
/// opened, walked and closed twice, and each open list is a results controller of its own.
struct DeepFoldTests {
    static let depth = 50_000

    @Test func aChainOfOpenItemsAsDeepAsTheOutline() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        var node = OutlineNode("level \(Self.depth)")
        for d in stride(from: Self.depth - 1, through: 1, by: -1) { node = OutlineNode("level \(d)", children: [node]) }
        try o.add([node, OutlineNode("after")], under: try o.root())
        try o.save()
        do {
            let h = try AppHarness(width: 40, height: 10, outline: o)
            try h.press("zR")
            #expect(h.app.statusText == "Opened \(Self.depth - 1) items")
            // The end is the last item of the chain, at its depth (drawn indented no further than fits).
            try h.press("G")
            #expect(h.app.top.knownCount == Self.depth + 1)
            #expect(h.app.top.selectedRow?.title == "after")
            try h.press("k")
            #expect(h.app.top.selectedRow?.title == "level \(Self.depth)")
            #expect(h.app.top.selectedDepth == Self.depth - 1)
            // Indented as far as leaves room for a title, and no further.
            #expect(h.backend.lines[h.backend.size.height - 3].hasSuffix("[ ] level …"))
            try h.press("zM")
            #expect(h.app.top.count == 2)
            #expect(h.app.top.selectedRow?.title == "level 1", "the row went away: its item at the level is selected")
            try h.press("zR G k")
            #expect(h.app.top.selectedDepth == Self.depth - 1)
        }
        // The app and every open list are freed here: no stack runs out.
        #expect(try o.check().isEmpty)
    }
}
