import ObjectGraph
import Outline
import Testing
import TerminalKit
@testable import BurrowApp

/// The outliner on the test backend: press keys one at a time (a frame is drawn after each, as the run loop
/// does) and compare whole screens.
final class AppHarness {
    let backend: TestBackend
    let terminal: Terminal
    let outline: Outline
    let app: App

    init(width: Int = 40, height: Int = 8, outline: Outline? = nil) throws {
        backend = TestBackend(width: width, height: height)
        terminal = Terminal(backend: backend)
        self.outline = try outline ?? Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        app = try App(outline: self.outline)
        // As the run loop does: the app learns the screen's size as an event, before the first frame.
        app.handle(.resize(Size(width: width, height: height)))
        draw()
    }

    /// Sends keys written in key notation (`"a Milk <Enter> <Esc>"`), one event and one frame at a time.
    func press(_ notation: String) throws {
        for key in try TerminalKit.Key.parseSequence(notation) { send(.key(key)) }
    }

    /// Types text literally (spaces included) into whatever has the focus.
    func type(_ text: String) {
        for c in text { send(.key(.character(c))) }
    }

    func send(_ event: InputEvent) {
        if case .resize = event { terminal.invalidate() }
        app.handle(event)
        draw()
    }

    func draw() {
        terminal.draw { app.render(into: &$0) }
    }

    /// Takes other processes' commits, as the run loop's idle tick does, and draws.
    func tick() {
        app.poll()
        draw()
    }

    func expect(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let report = backend.difference(from: expected) {
            Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
        }
    }

    /// The items under the top level, as titles, straight from the store.
    func titles(under path: [String] = []) throws -> [String] {
        var parent = try outline.root()
        for title in path { parent = try #require(try outline.children(of: parent).first { $0.title == title }) }
        return try outline.children(of: parent).map(\.title)
    }
}
