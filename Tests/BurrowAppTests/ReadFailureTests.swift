import Logging
import Synchronization
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

    /// Lines logged, kept for the test to read.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct Collecting: LogHandler {
        let sink: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { sink.lines.withLock { $0.append(event.message.description) } }
    }

    @Test func aLevelsFailedReadIsToldAndLoggedOnceWhileItRecurs() throws {
        let outline = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try outline.perform { _ = try outline.append(titles: ["Milk"], to: try outline.root().objectID) }
        let sink = Lines()
        let h = try AppHarness(width: 60, height: 8, outline: outline, logger: Logger(label: "t", factory: { _ in Collecting(sink: sink) }))
        for _ in 0..<3 {
            // As a level's question that cannot throw (is this fold open?) meets a disk that went away.
            let answer: Bool? = h.app.top.reading { throw StoreError(.storage, "disk I/O error") }
            #expect(answer == nil)
            h.tick()
            #expect(h.app.statusText == "Cannot read the level: disk I/O error")
        }
        #expect(sink.all == ["Cannot read the level: disk I/O error"], "logged once, not once a poll")
        h.tick()
        #expect(h.app.statusText == "Cannot read the level: disk I/O error", "left on the line until something else is said")
    }
}
