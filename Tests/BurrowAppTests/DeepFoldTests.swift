import ObjectGraph
import Outline
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp

/// Folds as deep as the outline: a chain of 10,000 items, each inside the one above, all opened with `zR`.
/// Everything that walks the open lists does it without recursion, so nothing runs out of stack: opening,
/// jumping to the end, closing, and freeing the lists.
///
/// On a thread whose stack is 1 MiB: a recursive walk (a few hundred bytes a frame) runs out of it somewhere
/// past 2,500 levels, as it runs out of the usual 8 MiB past 20,000; 50,000 levels on 8 MiB took 25 s of a
/// test run's processor time (2026-12-02), 10,000 on 1 MiB fail the same way with freeing made recursive again.
struct DeepFoldTests {
    static let depth = 10_000

    @Test func aChainOfOpenItemsAsDeepAsTheOutline() async throws {
        let executor = ThreadExecutor(name: "deep folds", stackSize: 1 << 20)
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try Self.chain() }
    }

    static func chain() throws {
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
