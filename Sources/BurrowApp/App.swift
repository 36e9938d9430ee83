import Logging
import ObjectGraph
import Outline
import TerminalKit

/// The full-screen outliner as a value-driven state machine: it takes input events one at a time and draws
/// frames, and knows nothing of ncurses, so tests drive it on `TestBackend`.
///
/// The screen is a navigation stack of levels (the sub-items of one item each); only the top level's results
/// controller delivers batches, the others are paused and catch up in one batch when they come back.
///
/// For example:
/// ```swift
/// let app = try App(outline: outline)
/// app.handle(.key(.character("a")))
/// terminal.draw { app.render(into: &$0) }
/// ```
public final class App {
    public let outline: Outline
    public let keymap: Keymap
    let logger: Logger
    var stack: [Level] = []
    var mode: Mode = .browse
    var status: StatusMessage?
    /// The item cut with `m`, waiting to be pasted into another level.
    var cut: (id: ObjectID, title: String)?
    var undoPlaces: [UndoPlace] = []
    var redoPlaces: [UndoPlace] = []
    /// The last search: its text, its matches in outline order, and the one shown.
    var searchQuery: String?
    var searchMatches: [ObjectID] = []
    var searchIndex = 0
    /// What deleted the levels that disappear next: "by undo", "by redo", or another process.
    var cause = "elsewhere"
    /// Rows of the list on the last frame, for page keys.
    var listHeight = 10
    /// The screen's size as last drawn or resized to; nil until the first frame.
    var screenSize: Size?
    public private(set) var isRunning = true

    /// Opens the outliner on the top level of `outline`; without a logger it logs nothing.
    public init(
        outline: Outline, keymap: Keymap = .default,
        logger: Logger = Logger(label: "burrow", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.outline = outline
        self.keymap = keymap
        self.logger = logger
        try push(try outline.root())
    }

    var top: Level { stack[stack.count - 1] }

    /// The status line's message, for tests and logs.
    public var statusText: String? { status?.text }

    /// Titles from the top of the outline down to the current level.
    public var breadcrumbs: [String] {
        stack.map { level in
            let item = parentItem(of: level)
            if !item.isInaccessible { level.lastKnownTitle = item.title }
            return level.lastKnownTitle
        }
    }

    func parentItem(of level: Level) -> Item { item(level.parentID) }

    // MARK: Events

    /// Takes one input event.
    public func handle(_ event: InputEvent) {
        if case .resize(let size) = event { screenSize = size }
        if let size = screenSize, Self.isTooSmall(size) {
            handleWhileTooSmall(event)
            settleStack()
            return
        }
        switch event {
        case .key(let key): handle(key)
        case .paste(let text): paste(text)
        case .mouse(let m): handle(m)
        case .resize, .resumed: break
        case .terminate: isRunning = false
        }
        settleStack()
    }

    /// Looks for commits by other processes (the run loop calls it on every idle tick): their changes reach the
    /// levels as batches.
    public func poll() {
        do {
            try outline.context.store.poll()
        } catch {
            logger.error("poll failed: \(error)")
            status = .error("Cannot read changes made elsewhere: \(error)")
        }
        settleStack()
    }

    /// Stops the run loop (as `q` does).
    public func quit() { isRunning = false }

    /// The user sees only "Terminal too small", not the list or an open editor, so nothing may change what they
    /// cannot see: only the quit keys (in every mode, as the mode is hidden) and signals act; an open editor keeps
    /// its text for when the terminal grows.
    private func handleWhileTooSmall(_ event: InputEvent) {
        switch event {
        case .key(let key) where key == .ctrl("c") || keymap.command(for: key) == .quit:
            isRunning = false
        case .key, .paste, .mouse:
            status = .info("Keys did nothing: the terminal was too small")
        case .resize, .resumed: break
        case .terminate: isRunning = false
        }
    }

    private func handle(_ key: TerminalKit.Key) {
        if key == .ctrl("c") {
            isRunning = false
            return
        }
        switch mode {
        case .browse:
            if let command = keymap.command(for: key) {
                status = nil
                run(command)
            } else {
                status = .info("\(key.label) does nothing here · ?: help")
            }
        case .help(let offset):
            // The overlay covers the list and the capture line; it scrolls no further than its last line.
            let last = max(0, HelpView(keymap: keymap).lines.count - (listHeight + 1))
            let page = max(1, listHeight - 1)
            switch key {
            case .character("j"), .down: mode = .help(offset: min(last, offset + 1))
            case .character("k"), .up: mode = .help(offset: max(0, offset - 1))
            case .pageDown, .character(" "): mode = .help(offset: min(last, offset + page))
            case .pageUp: mode = .help(offset: max(0, offset - page))
            default: mode = .browse
            }
        case .capture(var field):
            switch key {
            case .enter:
                addFromCapture(field.text)
                field.setText("")
                mode = .capture(field)
            case .escape: mode = .browse
            case .up, .down: top.move(by: key == .up ? -1 : 1)
            default:
                _ = field.handle(key)
                mode = .capture(field)
            }
        case .search(var field):
            switch key {
            case .enter:
                mode = .browse
                search(field.text)
            case .escape: mode = .browse
            default:
                _ = field.handle(key)
                mode = .search(field)
            }
        case .rename(var field, let id):
            switch key {
            case .enter:
                // As capture refuses an empty title, so does rename: the editor stays open.
                guard !field.text.trimmingCharacters(in: .whitespaces).isEmpty else {
                    status = .error("A title cannot be empty · Esc: keep the old one")
                    return
                }
                mode = .browse
                rename(id, to: field.text)
            case .escape: mode = .browse
            default:
                _ = field.handle(key)
                mode = .rename(field, item: id)
            }
        case .insert(var field, let placement):
            switch key {
            case .enter:
                mode = .browse
                insert(field.text, placement)
            case .escape: mode = .browse
            default:
                _ = field.handle(key)
                mode = .insert(field, placement)
            }
        }
    }

    private func handle(_ m: MouseEvent) {
        guard case .browse = mode else { return }
        switch m.kind {
        case .wheelUp: top.move(by: -3)
        case .wheelDown: top.move(by: 3)
        case .press(button: 1):
            if m.position.y == 1 {
                mode = .capture(TextField())
            } else if m.position.y >= 2, m.position.y < 2 + listHeight {
                let row = top.list.offset + m.position.y - 2
                if row < top.count { top.select(row) }
            }
        case .press: break
        }
    }

    // MARK: Commands

    func run(_ command: Command) {
        let level = top
        switch command {
        case .moveDown: level.move(by: 1)
        case .moveUp: level.move(by: -1)
        case .first: level.select(0)
        case .last: level.select(level.controller.count - 1)
        case .pageDown: level.move(by: ListView.pageSize(height: listHeight))
        case .pageUp: level.move(by: -ListView.pageSize(height: listHeight))
        case .halfPageDown: level.move(by: max(1, listHeight / 2))
        case .halfPageUp: level.move(by: -max(1, listHeight / 2))
        case .drillIn:
            guard let item = level.selectedItem else { return }
            open(item)
        case .back:
            guard stack.count > 1 else {
                status = .info("Already at the top level")
                return
            }
            pop()
        case .backToTop:
            while stack.count > 1 { pop() }
        case .capture: mode = .capture(TextField())
        case .insertBelow: mode = .insert(TextField(), level.selectedID.map { .below($0) } ?? .end)
        case .insertAbove: mode = .insert(TextField(), level.selectedID.map { .above($0) } ?? .end)
        case .rename:
            guard let item = level.selectedItem else { return }
            mode = .rename(TextField(text: item.title), item: item.objectID)
        case .delete: deleteSelected()
        case .toggleDone: toggleDone()
        case .moveItemUp: moveSelected(by: -1)
        case .moveItemDown: moveSelected(by: 1)
        case .indent: indentSelected()
        case .outdent: outdentSelected()
        case .cut:
            guard let item = level.selectedItem else { return }
            cut = (item.objectID, item.title)
            status = .info("Cut \(quoted(item.title)): open another level and press p to move it there")
        case .paste: pasteCut()
        case .search: mode = .search(TextField(text: searchQuery ?? ""))
        case .nextMatch: stepMatch(by: 1)
        case .previousMatch: stepMatch(by: -1)
        case .undo: undo()
        case .redo: redo()
        case .help: mode = .help(offset: 0)
        case .quit: isRunning = false
        }
    }

    // MARK: Navigation

    func open(_ item: Item) {
        do {
            try push(item)
        } catch {
            fail("Cannot open \(quoted(item.title))", error)
        }
    }

    func push(_ item: Item) throws {
        stack.last?.pause()
        let level = try Level(parent: item, outline: outline)
        stack.append(level)
    }

    /// Back one level: the level below resumes (catching up in one batch) with the item we came from selected.
    func pop() {
        let old = stack.removeLast()
        do {
            try top.resume()
        } catch {
            fail("Cannot refresh the level", error)
        }
        if !top.isGone, !parentItem(of: old).isInaccessible { top.select(id: old.parentID) }
    }

    /// Pops levels whose item was deleted (by undo, redo or another process) to the nearest survivor.
    func settleStack() {
        defer { cause = "elsewhere" }
        var gone: [String] = []
        while stack.count > 1, top.isGone {
            gone.append(top.lastKnownTitle)
            stack.removeLast()
            do { try top.resume() } catch { fail("Cannot refresh the level", error) }
        }
        settleEditors()
        guard let outermost = gone.last else { return }
        status = .info("\(quoted(outermost)) was deleted \(cause): back in \(quoted(breadcrumbs.last ?? ""))")
    }

    /// An editor tied to an item that left the level (deleted or moved by another process, or by undo)
    /// must not go on typing into a row that is no longer there: a rename is cancelled with a message, a
    /// new item that was to go beside it will go at the end instead (its text is kept).
    func settleEditors() {
        func here(_ id: ObjectID) -> Bool { top.selectedID == id || top.controller.index(of: id) != nil }
        switch mode {
        case .rename(_, let id) where !here(id):
            mode = .browse
            status = .error("The item being renamed was deleted or moved elsewhere: rename cancelled")
        case .insert(let field, .below(let id)) where !here(id), .insert(let field, .above(let id)) where !here(id):
            mode = .insert(field, .end)
            status = .info("The item beside the new one is gone: it will go at the end")
        default: break
        }
    }

    // MARK: Messages

    func quoted(_ title: String) -> String { "“" + title + "”" }

    func fail(_ what: String, _ error: any Error) {
        logger.error("\(what): \(error)")
        status = .error("\(what): \(error)")
    }
}
