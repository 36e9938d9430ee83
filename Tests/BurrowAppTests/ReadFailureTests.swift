import Testing

@testable import BurrowApp
@testable import ObjectGraph
@testable import Outline

/// A read that fails where nothing can throw (a row drawn, a list's members) is told on the status line at
/// once, and the next change fails with it, changing nothing; the one after works.
struct ReadFailureTests {
    @Test func aReadThatFailedIsToldAtOnceAndTheNextChangeIsNotSaved() throws {
        let outline = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try outline.perform { _ = try outline.append(titles: ["Milk", "Eggs"], to: try outline.root().objectID) }
        let h = try AppHarness(width: 60, height: 8, outline: outline)
        // As a fault that could not read its row leaves it (the store cannot be made to fail here).
        outline.context.noteReadFailure(StoreError(.storage, "disk I/O error"))
        h.tick()
        #expect(h.app.statusText == "Cannot read part of the outline (the next change will not be saved; try it again after): disk I/O error")
        h.tick()
        #expect(h.app.statusText != nil, "told once, and left on the line")
        try h.press("<Space>")
        #expect(h.app.statusText?.contains("nothing was saved: a read failed before it (disk I/O error)") == true, "\(h.app.statusText ?? "")")
        #expect(try outline.subtree(under: try outline.root()).map(\.isDone) == [false, false])
        try h.press("<Space>")
        #expect(try outline.subtree(under: try outline.root()).map(\.isDone) == [true, false])
    }
}
