import BurrowSettings
import Logging
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// The outliner on the test backend: press keys one at a time (a frame is drawn after each, as the run loop
/// does) and compare whole screens.
final class AppHarness {
    let backend: TestBackend
    let terminal: Terminal
    let outline: Outline
    let app: App

    init(
        width: Int = 40, height: Int = 8, outline: Outline? = nil, keymap: Keymap = .default, theme: Theme = .standard,
        logger: Logger = Logger(label: "burrow", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        backend = TestBackend(width: width, height: height)
        terminal = Terminal(backend: backend)
        self.outline = try outline ?? Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        app = try App(outline: self.outline, keymap: keymap, theme: theme, logger: logger)
        // As the run loop does: the app learns the screen's size as an event, before the first frame.
        app.handle(.resize(Size(width: width, height: height)))
        draw()
    }

    /// The app on a level of `titles`, and a second outline on the same store whose saves reach the app at
    /// once, as another window's would.
    static func withSecondContext(_ titles: [String]) throws -> (AppHarness, Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let mine = Outline(context: Context(store: store))
        try mine.append(titles: titles, to: try mine.root())
        try mine.save()
        return (try AppHarness(outline: mine), Outline(context: Context(store: store)))
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
        // As the run loop does: Ctrl-Z stops (the test backend goes on at once), then everything is drawn again.
        switch app.takeTerminalRequest() {
        case .suspend:
            backend.suspend()
            terminal.invalidate()
            app.handle(.resumed)
        case .redraw: terminal.invalidate()
        case nil: break
        }
        // As the run loop does: text `y` copied reaches the terminal (the backend records it).
        app.deliverClipboard(to: backend)
        draw()
        workAfterFrame()
    }

    /// True to act as if each key came before the frame of the one before was followed by its work (a search's
    /// exact count): keys typed faster than that, or pasted.
    var keysFollowAtOnce = false

    /// As the run loop does when no key is waiting after a frame: the work left for then (a search's exact
    /// count), and the frame that shows it.
    func workAfterFrame() {
        guard !keysFollowAtOnce, app.hasWorkAfterFrame else { return }
        app.workAfterFrame()
        // The run loop does it again while there is some: work that never ends would spin it.
        if app.hasWorkAfterFrame { Issue.record("work after the frame left work after the frame: the run loop would spin") }
        draw()
    }

    func draw() {
        terminal.draw { app.render(into: &$0) }
    }

    /// Takes other processes' commits, as the run loop's idle tick does, and draws.
    func tick() {
        app.poll()
        draw()
        workAfterFrame()
    }

    func expect(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectScreen(backend, expected, sourceLocation: sourceLocation)
    }

    /// Resizes the screen and tells the app, as the terminal does.
    func resize(_ width: Int, _ height: Int) {
        backend.resize(width: width, height: height)
        send(.resize(Size(width: width, height: height)))
    }

    /// A left click at a cell.
    func click(x: Int, y: Int) {
        send(.mouse(MouseEvent(kind: .press(button: 1), position: Position(x: x, y: y))))
    }

    /// Everything the app keeps between events, written out: equal before and after means nothing changed it.
    var state: String {
        let app = self.app
        var out = "mode \(app.mode) · status \(String(describing: app.status)) · size \(app.screenSize)"
        out +=
            " · register \(String(describing: app.clipboard.register)) · search \(String(describing: app.search.last?.query)) \(app.search.last.map { "\($0.results.ordered) of \($0.results.count)" } ?? "none") \(app.search.index) panel \(app.search.panel.map { "\($0.hits.map(\.id)) \($0.list)" } ?? "none")"
        let history = app.outline.context.undoHistory
        out += " · undo \(history.undoCount) redo \(history.redoCount)"
        for level in app.stack {
            out += "\nlevel \(level.parentID) \(level.list) \(String(describing: level.selectedID))"
            out += " \(String(describing: level.expectedID)) “\(level.lastKnownTitle)” \(level.controller.batchesDelivered)"
        }
        return out
    }

    /// The items under the top level, as titles, straight from the store.
    func titles(under path: [String] = []) throws -> [String] {
        var parent = try outline.root()
        for title in path { parent = try #require(try outline.children(of: parent).first { $0.title == title }) }
        return try outline.children(of: parent).map(\.title)
    }
}
