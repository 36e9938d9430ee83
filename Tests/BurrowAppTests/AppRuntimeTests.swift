import Foundation
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// The run loop on the test backend, whose input queue plays keys already waiting in the terminal: every one is
/// handled before the next frame (a frame per key of a held or pasted run would only be drawn over), except
/// past a key that asks for the terminal, and never more than the loop's bound between two frames.
struct AppRuntimeTests {
    /// The loop on a level of `count` items with `events` waiting, ended by a termination signal after them;
    /// the frames it drew and the row selected at the end.
    private func run(
        items count: Int, _ events: [InputEvent], runBudget: Duration = .seconds(60)
    ) throws -> (frames: Int, clears: Int, selected: Int?, backend: TestBackend) {
        let outline = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try outline.append(titles: (1...count).map { "Item \($0)" }, to: try outline.root())
        try outline.save()
        let app = try App(outline: outline)
        let backend = TestBackend(width: 40, height: 8)
        for event in events { backend.send(event) }
        backend.send(.terminate(signal: SIGTERM))
        let signal = AppRuntime.run(app, terminal: Terminal(backend: backend), input: backend, watchesStore: false, runBudget: runBudget)
        #expect(signal == SIGTERM)
        #expect(backend.pendingEvents.isEmpty)
        return (backend.flushCount, backend.clears, app.top.list.selected, backend)
    }

    @Test func keysAlreadyWaitingAreHandledBeforeTheNextFrame() throws {
        let (frames, _, selected, _) = try run(items: 10, Array(repeating: .key(.character("j")), count: 5))
        // The first frame, then nothing more: the five keys and the signal were all waiting.
        #expect(frames == 1)
        #expect(selected == 5)
    }

    /// Keys that each take longer than the run's budget (a slow commit per key, held down) are drawn one by one,
    /// as they were before runs: here a budget of nothing.
    @Test func aRunOfKeysEndsWhenItsTimeIsUp() throws {
        let (frames, _, selected, _) = try run(items: 10, Array(repeating: .key(.character("j")), count: 5), runBudget: .zero)
        #expect(frames == 6)
        #expect(selected == 5)
    }

    @Test func aRedrawRequestEndsTheRunOfKeysBeforeIt() throws {
        // Ctrl-L asks for every cell again: it is drawn before the key after it is taken.
        let events: [InputEvent] = [.key(.character("j")), .key(.ctrl("l")), .key(.character("j"))]
        let (frames, clears, selected, _) = try run(items: 10, events)
        #expect(frames == 2)
        #expect(clears == 1)
        #expect(selected == 2)
    }

    @Test func aLongRunOfKeysStillShowsFramesAtTheBound() throws {
        let n = AppRuntime.maxEventsPerFrame + 10
        let (frames, _, selected, _) = try run(items: 400, Array(repeating: .key(.character("j")), count: n))
        #expect(frames == 2)
        #expect(selected == n)
    }

    /// Another program writes a file of its own in the store's folder before each wait, which wakes the loop
    /// through the store's watcher (it watches the folder); then the source asks the loop to end.
    private final class FolderWakes: InputSource {
        let folder: String
        private(set) var wakes: Int

        init(folder: String, wakes: Int) {
            self.folder = folder
            self.wakes = wakes
        }

        func nextEvent(timeout: Duration?) -> InputEvent? { nextEvent(timeout: timeout, wakingOn: nil) }

        func nextEvent(timeout: Duration?, wakingOn fileDescriptor: Int32?) -> InputEvent? {
            guard wakes > 0, let fileDescriptor else { return .terminate(signal: SIGTERM) }
            wakes -= 1
            _ = FileManager.default.createFile(atPath: folder + "/notes.log", contents: Data("line \(wakes)\n".utf8))
            var wait = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&wait, 1, 5_000)
            return nil
        }
    }

    /// A store beside a file written often (a log, a sync client's folder) rendered a frame for every write.
    @Test func aFileWrittenBesideTheStoreDrawsNoFrame() throws {
        let dir = TemporaryDirectory("burrow-runtime")
        let outline = try Outline(path: dir.path("o.sqlite"))
        try outline.append(titles: ["One", "Two"], to: try outline.root())
        try outline.save()
        let app = try App(outline: outline)
        let backend = TestBackend(width: 40, height: 8)
        let input = FolderWakes(folder: dir.url.path, wakes: 5)
        let signal = AppRuntime.run(app, terminal: Terminal(backend: backend), input: input)
        #expect(signal == SIGTERM)
        // Every wake came through the watcher's descriptor.
        #expect(input.wakes == 0)
        // The first frame only.
        #expect(backend.flushCount == 1)
    }
}
