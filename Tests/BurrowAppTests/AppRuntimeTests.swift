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

    /// Plays what other programs do while the loop waits: before each wait one action (a file written beside the
    /// store, a commit to it through another connection), which wakes the loop through the store's watcher (it
    /// watches the store's folder); once they are done, the loop is asked to end.
    private final class FolderWakes: InputSource {
        private(set) var actions: [() throws -> Void]

        init(_ actions: [() throws -> Void]) { self.actions = actions }

        func nextEvent(timeout: Duration?) -> InputEvent? { nextEvent(timeout: timeout, wakingOn: nil) }

        func nextEvent(timeout: Duration?, wakingOn fileDescriptor: Int32?) -> InputEvent? {
            guard !actions.isEmpty, let fileDescriptor else { return .terminate(signal: SIGTERM) }
            do {
                try actions.removeFirst()()
            } catch {
                Issue.record(error)
            }
            var wait = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&wait, 1, 5_000)
            return nil
        }
    }

    /// A store beside a file written often (a log, a sync client's folder) rendered a frame for every write; a
    /// commit made elsewhere among those writes still gets its frame at once.
    @Test func aFileWrittenBesideTheStoreDrawsNoFrameAndACommitDoes() throws {
        let dir = TemporaryDirectory("burrow-runtime")
        let outline = try Outline(path: dir.path("o.sqlite"))
        try outline.append(titles: ["One", "Two"], to: try outline.root())
        try outline.save()
        let app = try App(outline: outline)
        let backend = TestBackend(width: 40, height: 6)
        var frames: [Int] = []
        let writeBeside = { [dir] in
            frames.append(backend.flushCount)
            _ = FileManager.default.createFile(atPath: dir.path("notes.log"), contents: Data("line \(frames.count)\n".utf8))
        }
        let commitElsewhere = { [dir] in
            frames.append(backend.flushCount)
            let other = try Outline(path: dir.path("o.sqlite"))
            try other.append(titles: ["Three"], to: try other.root())
            try other.save()
        }
        let input = FolderWakes([writeBeside, writeBeside, writeBeside, commitElsewhere, writeBeside, writeBeside])
        let signal = AppRuntime.run(app, terminal: Terminal(backend: backend), input: input)
        #expect(signal == SIGTERM)
        // Every action ran, each with the watcher's descriptor to wait on.
        #expect(input.actions.isEmpty)
        // The frame count before each action: the first frame, nothing for the writes, one for the commit.
        #expect(frames == [1, 1, 1, 1, 2, 2])
        #expect(backend.flushCount == 2)
        expectScreen(
            backend,
            """
            Burrow
            + Add to Burrow…
             [ ] One
             [ ] Two
             [ ] Three
                                             ?: help
            """)
    }
}
