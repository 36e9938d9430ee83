import BurrowSettings
import Foundation
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
    /// The styles drawing uses (from the config file, or the standard look).
    public let theme: Theme
    /// Settings from the config file for the commands that read them (hide done, the clipboard).
    public var settings: AppSettings
    let logger: Logger
    var stack: [Level] = []
    var mode: Mode = .browse
    var status: StatusMessage?
    /// The task progress read for rows shown (see `taskProgress(of:in:around:height:)`).
    var progressCache: ProgressCache?
    /// The level's rows as last drawn, with what they were drawn from (see `RowCache`).
    var rowCache = RowCache()
    /// Copying and moving through the register (`y`, `m`, `p`, `P`).
    let clipboard = Clipboard()
    /// Copying (`y`) also puts the text on the system clipboard through the terminal (OSC 52) unless the
    /// settings turn it off (a terminal may ask each time, or show the sequence as text).
    public var allowsClipboard: Bool {
        get { settings.allowsClipboard }
        set { settings.allowsClipboard = newValue }
    }
    /// Searching: the search line (`/`) and the last search (`n`, `N`).
    let search = Search()
    /// The screen's size as last resized to, which clicks and page keys are read against. The run loop sends
    /// the terminal's size before the first frame; until then, the size most terminals open at.
    var screenSize = Size(width: 80, height: 24)
    /// The detail pane (`I`, `]`, `[`).
    let detailsPane = DetailsPane()
    /// Hiding done items (`H`).
    let doneFilter = DoneFilter()
    /// The time zone today's date and the pane's times are shown in; nil for this machine's local time.
    public var timeZone: TimeZone?
    /// The clock rows read today's date from (a test sets a fixed one): a date before it is past.
    public var now: @Sendable () -> Date = { Date() }
    /// Today's date as `today()` last worked it out, with the second of the clock and the zone it was for.
    private var lastToday: (second: Int, timeZone: TimeZone?, text: String)?

    /// Today's date (`2026-12-04`) on the app's clock and in its zone, worked out again when the clock's
    /// second or the zone changed: every frame asks (the C library's local time, and the date's text).
    func today() -> String {
        let date = now()
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.magnitude < 1e15 else { return Outline.today(date, in: timeZone) }
        let second = Int(seconds)
        if let last = lastToday, last.second == second, last.timeZone == timeZone { return last.text }
        let text = Outline.today(date, in: timeZone)
        lastToday = (second, timeZone, text)
        return text
    }
    /// `E`: the note edited in the user's editor, once the run loop lends the terminal.
    let externalEditor = ExternalEditor()
    /// The read failure last told on the status line (see `Outline.pendingReadFailure`), so it is told once.
    var toldReadFailure: StoreError?
    /// The failure last written to the log: one that recurs on every poll (a disk gone) is logged once.
    var lastLogged: String?
    /// Suspend or redraw, for the run loop (``takeTerminalRequest()``).
    var terminalRequest: TerminalRequest?
    /// Keys pressed so far of a binding of several keys (`z` of `zo`).
    var pendingKeys: [TerminalKit.Key] = []
    /// The variables the note editor is chosen from (`$VISUAL`, `$EDITOR`, `$PATH`).
    public var environment = ProcessInfo.processInfo.environment
    public private(set) var isRunning = true
    /// Shows a message at once while a long action runs (the run loop draws it on the status line); nil
    /// shows nothing until the action is done.
    public var busyDisplay: ((String) -> Void)?
    /// The sharing of this outline through a server, when it is shared (its state on the status line).
    public var sharing: (any SharingIndicator)?
    /// How long an action runs before the busy message appears, and how often it changes after that.
    public var busyDelay: Duration = .milliseconds(300)
    public var busyInterval: Duration = .milliseconds(100)

    /// How the outliner's actions are named in the shared undo history ("Undid: … (outliner, 5 min ago)").
    public static let origin = "outliner"

    /// Opens the outliner on the top level of `outline`; without a logger it logs nothing.
    public init(
        outline: Outline, keymap: Keymap = .default, theme: Theme = .standard, settings: AppSettings = AppSettings(),
        logger: Logger = Logger(label: "burrow", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.outline = outline
        self.keymap = keymap
        self.theme = theme
        self.settings = settings
        self.logger = logger
        outline.undoHistory.origin = App.origin
        outline.undoHistory.limits = settings.historyLimits
        try push(try outline.rootRow())
        // The stored choice, once the configuration's default is known (`start()`), decides.
    }

    /// Applies what the stored outline and the configuration say before the first frame: whether done items
    /// are hidden (as stored, else `settings.hideDoneByDefault`). The run loop calls it once; tests call it too.
    public func start() {
        var stored: Bool?
        do {
            stored = try outline.hidesDone()
        } catch {
            fail("Cannot read whether done items are hidden", error)
        }
        doneFilter.apply(stored ?? settings.hideDoneByDefault, in: self)
        settle()
    }

    var top: Level { stack[stack.count - 1] }

    /// The items an action on "the selection" acts on, in screen order: the selected row today; the rows of a
    /// visual range (`v`) once one is open. Range actions (delete, done, move, copy) take this list.
    var selectedItems: [ItemRow] {
        if case .visual = mode { return visualItems }
        return top.selectedRow.map { [$0] } ?? []
    }

    /// Where everything is on the screen as last resized to.
    var layout: Layout { Layout(size: screenSize, details: detailsPane.isShown) }

    /// Done items are left out of every level (`H`; stored with the outline).
    var hidesDone: Bool { doneFilter.hidesDone }

    /// The status line's message, for tests and logs.
    public var statusText: String? { status?.text }

    /// Rows of the level on screen known now (open lists not read yet are not counted).
    public var knownRows: Int { top.count }

    /// Titles from the top of the outline down to the current level, as stored when the app last settled (as
    /// last seen, for a level whose item is gone).
    public var breadcrumbs: [String] { stack.map(\.lastKnownTitle) }

    // MARK: Events

    /// Takes one input event.
    public func handle(_ event: InputEvent) {
        if case .resize(let size) = event { screenSize = size }
        if layout.isTooSmall {
            handleWhileTooSmall(event)
        } else {
            switch event {
            case .key(let key): handle(key)
            case .paste(let text): paste(text)
            case .mouse(let m): handle(m)
            case .resize, .resumed: break
            case .terminate: isRunning = false
            }
        }
        // Leaving (Ctrl-C, q while too small, a signal) keeps what an editor holds, as every change is kept.
        if !isRunning {
            finishEditing()
            leavePanel()
        }
        settle()
    }

    /// Looks for commits by other processes (the run loop calls it once per poll interval, 100 ms): their changes
    /// reach the levels as batches. True when there were some.
    @discardableResult
    public func poll() -> Bool {
        var found = false
        do {
            found = try outline.poll() > 0
        } catch {
            logger.error("poll failed: \(error)")
            status = .error("Cannot read changes made elsewhere: \(error)")
        }
        // What the server refused of this outline's actions: the newest stays on the status line.
        if let note = sharing?.takeMessages().last { status = .error(note) }
        settle()
        return found
    }

    /// Shows a problem on the status line until the next key, as at start for a bad config file.
    public func showProblem(_ message: String) { status = .error(message) }

    /// True while there is work to do once the frame is drawn, unless a key comes first (the exact count of a
    /// search whose first screen is on it): the run loop then does not wait for an event.
    public var hasWorkAfterFrame: Bool { search.countIsDue }

    /// Does the work that waits for the frame (see ``hasWorkAfterFrame``); the next frame shows it.
    public func workAfterFrame() {
        search.countAfterFrame(in: self)
        settle()
    }

    /// True while the app has work that finishes on a tick (a level still read in the background): the run
    /// loop then wakes every poll interval even when the store's files can be watched.
    public var wantsTicks: Bool { top.isReading }

    /// Stops the run loop (as `q` does).
    public func quit() {
        leavePanel()
        isRunning = false
    }

    /// The user sees only "Terminal too small", not the list or an open editor, so nothing may change what they
    /// cannot see: only the quit keys (in every mode, as the mode is hidden) and signals act; an open editor keeps
    /// its text for when the terminal grows.
    private func handleWhileTooSmall(_ event: InputEvent) {
        switch event {
        case .key(let key) where key == Self.interrupt || keymap.command(for: key) == .quit:
            isRunning = false
        case .key(let key) where terminalKey(key):
            break
        case .key, .paste, .mouse:
            status = .info("Keys did nothing: the terminal was too small")
        case .resize, .resumed: break
        case .terminate: isRunning = false
        }
    }

    /// Ctrl-C, made once: `Key.ctrl` folds its letter's case, and every key is compared with it.
    private static let interrupt = TerminalKit.Key.ctrl("c")

    private func handle(_ key: TerminalKit.Key) {
        if key == Self.interrupt {
            // Quitting from an editor keeps what was typed, as leaving keeps a note being edited.
            finishEditing()
            isRunning = false
            return
        }
        if terminalKey(key) {
            pendingKeys = []
            return
        }
        switch mode {
        case .browse:
            let keys = pendingKeys + [key]
            pendingKeys = []
            if let command = keymap.command(for: keys) {
                status = nil
                run(command)
            } else if keymap.isPrefix(keys) {
                // Esc after a first key cancels it (it is not "back").
                pendingKeys = keys
            } else if keys.count > 1 && key == .escape {
                status = nil
            } else {
                let label = KeyBinding.label(keys)
                status = .info("\(label) does nothing here · \(keymap.label(for: .help) ?? "?"): help")
            }
        case .panel(let panel):
            panelKey(key, panel)
        case .capture, .rename, .insert:
            edit(key)
        case .visual:
            visualKey(key)
        }
    }

    /// A key in capture, rename or insert, through the keymap's editor and text keys: confirm does what the
    /// editor is for, cancel leaves it, the rest edit its text (in the capture line the moving keys move the
    /// selection, so one can capture beside a chosen item).
    private func edit(_ key: TerminalKit.Key) {
        let command = keymap.command(for: key, in: .editor)
        switch command {
        case .confirm: confirm()
        case .finish: finishEditing()
        case .cancel: dropEditing()
        case .moveUp, .moveDown:
            if case .capture = mode { top.move(by: command == .moveUp ? -1 : 1) }
        default: _ = fieldKey(key, command, in: .editor)
        }
    }

    /// A key for the open editor's text field that the editor's own keys did not take.
    func fieldKey(_ key: TerminalKit.Key, _ command: Command?, in context: KeyContext) -> TextField.Outcome {
        guard var field = mode.field else { return .ignored }
        // Taken out of the mode while it changes, so that a key does not copy the whole text (a title can be a
        // pasted megabyte).
        mode.field = TextField()
        let outcome = App.edit(&field, key, command, in: context)
        mode.field = field
        return outcome
    }

    /// A key for a text field that its editor's own keys did not take: a text command (in `context`) edits
    /// the field, a key bound to nothing types itself.
    static func edit(_ field: inout TextField, _ key: TerminalKit.Key, _ command: Command?, in context: KeyContext) -> TextField.Outcome {
        if let edit = command?.textEdit(in: context) { return field.apply(edit) }
        guard command == nil, let c = key.text else { return .ignored }
        field.insert(String(c))
        return .edited
    }

    /// "Enter: add · Esc: done", from the keys `context` binds to each command now (a command bound to no key
    /// is left out).
    func hints(_ items: [(Command, String)], in context: KeyContext) -> String {
        items.compactMap { command, what in keymap.label(for: command, in: context).map { "\($0): \(what)" } }.joined(separator: " · ")
    }

    /// Enter in an editor.
    private func confirm() {
        guard let text = mode.field?.text else { return }
        switch mode {
        case .capture:
            // The capture line stays open for the next item.
            addFromCapture(text)
            mode.field?.setText("")
        case .rename(_, let id):
            // As capture refuses an empty title, so does rename: the editor stays open.
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                status = .error("A title cannot be empty · \(keymap.label(for: .cancel, in: .editor) ?? "Esc"): keep the old one")
                return
            }
            mode = .browse
            rename(id, to: text)
        case .insert(_, let placement):
            mode = .browse
            insert(text, placement)
        case .browse, .panel, .visual:
            break
        }
    }

    /// Clicks are read against the same layout frames are drawn with.
    private func handle(_ m: MouseEvent) {
        guard case .browse = mode else { return }
        switch m.kind {
        case .wheelUp: top.move(by: -3)
        case .wheelDown: top.move(by: 3)
        case .press(button: 1):
            let layout = self.layout
            if layout.capture.contains(m.position) {
                mode = .capture(TextField())
            } else if layout.list.contains(m.position) {
                let row = top.list.offset + m.position.y - layout.list.y
                if row < top.count { top.select(row) }
            }
        case .press: break
        }
    }

    // MARK: Commands

    func run(_ command: Command) {
        if top.view != nil, let refusal = Self.notInViews[command] {
            status = .info("A view shows items from everywhere: \(refusal) (Enter goes to the item's place)")
            return
        }
        if let component = components.first(where: { $0.commands.contains(command) }) {
            component.run(command, in: self)
            return
        }
        if openPanel(for: command) { return }
        let level = top
        let height = layout.list.height
        switch command {
        case .moveDown: level.move(by: 1)
        case .moveUp: level.move(by: -1)
        case .first: level.select(0)
        case .last:
            do {
                try level.measureAll()
            } catch {
                fail("Cannot count the rows", error)
            }
            level.select(level.count - 1)
        case .pageDown: level.move(by: ListView.pageSize(height: height))
        case .pageUp: level.move(by: -ListView.pageSize(height: height))
        case .halfPageDown: level.move(by: max(1, height / 2))
        case .halfPageUp: level.move(by: -max(1, height / 2))
        case .drillIn:
            guard let row = level.selectedRow else { return }
            if level.view != nil {
                goToPlace(of: row)
                return
            }
            if let query = savedQuery(of: row) {
                openQuery(query, title: row.title)
                return
            }
            // From inside an open list, through the levels of its ancestors: the breadcrumbs say where the
            // item lives, and back goes up that path.
            if level.selectedDepth > 0 { reveal(row.id) }
            open(row)
        case .back:
            guard stack.count > 1 else {
                status = .info("Already at the top level")
                return
            }
            pop()
        case .backToTop:
            while stack.count > 1 { pop() }
        case .capture: mode = .capture(TextField())
        case .insertBelow:
            // Below an open item with sub-items shown, the new one is its first: where it is typed is where it goes.
            let open = level.selectedID.flatMap { id in level.node(of: id).map { $0 !== level.root && $0.size > 0 } } ?? false
            mode = .insert(TextField(), level.selectedID.map { open ? .firstChild($0) : .below($0) } ?? .end)
        case .insertAbove: mode = .insert(TextField(), level.selectedID.map { .above($0) } ?? .end)
        case .rename:
            guard let row = level.selectedRow else { return }
            mode = .rename(TextField(text: row.title), item: row.id)
        case .delete: deleteSelected()
        case .toggleDone: toggleDone()
        case .cycleState: cycleStateOfSelected()
        case .cyclePriority: cyclePriorityOfSelected()
        case .duplicate: duplicateSelected()
        case .moveItemUp: moveSelected(by: -1)
        case .moveItemDown: moveSelected(by: 1)
        case .indent: indentSelected()
        case .outdent: outdentSelected()
        case .undo: undo()
        case .redo: redo()
        case .openFold, .closeFold, .toggleFold, .openAllFolds, .closeAllFolds: fold(command)
        case .details, .scrollDetailsDown, .scrollDetailsUp, .pageDetailsDown, .pageDetailsUp, .hideDone, .search, .nextMatch, .previousMatch, .help,
            .movePicker,
            .editNoteInPlace, .copy, .cut, .paste, .pasteAbove, .editNote, .commandLine:
            break  // run by their components, or opening their panels (above)
        case .agenda: openAgenda(days: 7)
        case .tagView: openTagOfSelected()
        case .visualRange:
            guard let id = level.selectedID else {
                status = .info("No item here to start a range on")
                return
            }
            mode = .visual(anchor: id)
        case .quit: isRunning = false
        case .suspend, .redraw: break  // taken in every mode before the mode's own keys (`terminalKey`)
        case .confirm, .cancel, .finish, .saveNote, .discardNote, .newLine, .noteStart, .noteEnd, .leaveRange, .cursorLeft, .cursorRight, .wordLeft,
            .wordRight, .rowStart, .rowEnd, .lineStart, .lineEnd, .deleteBackward, .deleteForward, .deleteWordBackward, .deleteToLineStart,
            .deleteToLineEnd:
            // Keys of the editors and the range (their own sections of the keymap), never of the list.
            break
        }
    }

    // MARK: Navigation

    func open(_ row: ItemRow) {
        do {
            try push(row)
        } catch {
            fail("Cannot open \(quoted(row.title))", error)
        }
    }

    func push(_ parent: ItemRow) throws {
        stack.last?.pause()
        let level = try Level(parent: parent, outline: outline, hidesDone: hidesDone)
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
        if !top.isGone, storedRow(old.parentID) != nil { top.select(id: old.parentID) }
    }

    // MARK: Settling

    /// Brings what follows from the outline and the screen up to date once an event or a poll has changed
    /// them, so that drawing a frame changes nothing: levels and editors whose item went, the titles levels
    /// remember, the background read of a long level, and the scroll of the list and of the open editor.
    func settle() {
        settleStack()
        for level in stack {
            if level.view == nil, let row = storedRow(level.parentID) { level.lastKnownTitle = row.title }
        }
        top.takeFinishedRead()
        for level in stack {
            if let failure = level.takeReadFailure() { fail("Cannot read the level", failure) }
        }
        // Scrolled first, so the open lists read are those of the rows that will be drawn.
        if !layout.isTooSmall { scroll(to: layout) }
        settleFolds()
        for component in components { component.settle(in: self) }
        tellReadFailure()
        // While too small nothing is drawn: the editor keeps its scroll for when the terminal grows.
        guard !layout.isTooSmall else { return }
        scroll(to: layout)
        // Scrolling may bring open lists not read yet into view: read them, and scroll again if rows moved
        // (each round reads only lists on screen; the bound is a guard). Until a round reads nothing: written
        // as `for … where`, every key ran all eight rounds (a tenth of a key's instructions, 2026-12-03).
        for _ in 0..<8 {
            guard settleFolds() else { break }
            scroll(to: layout)
        }
        top.settleNewAbove()
    }

    /// Makes the rows on screen known and their lists live (see `Level.settleFolds`); true if rows changed.
    @discardableResult
    private func settleFolds() -> Bool {
        let level = top
        let height = max(1, layout.list.height)
        // The rows drawn and the one past them (so a page down finds its rows known); and the selected
        // row, which an editor's row can push just off them. While the terminal is too small only that.
        var start = level.list.offset, end = start + height + 1
        if let selected = level.list.selected {
            if layout.isTooSmall {
                (start, end) = (selected, selected + 1)
            } else {
                start = min(start, selected)
                end = max(end, selected + 1)
            }
        }
        do {
            return try level.settleFolds(window: start..<end)
        } catch {
            fail("Cannot read an open list", error)
            return false
        }
    }

    /// Scrolls the top level and the open editor or panel as drawing them at `layout` would.
    private func scroll(to layout: Layout) {
        let level = top
        let count = level.count
        switch mode {
        case .panel(let panel) where !panel.showsLevel:
            break
        case .insert:
            // The editor row holds the selection on screen; the level keeps its own, and its offset in range.
            level.list.offset = min(level.list.offset, max(0, count - 1))
        default:
            guard count > 0 else { break }
            var state = level.list
            ListView(count: count).scroll(&state, height: layout.list.height)
            level.list.offset = state.offset
        }
        switch mode {
        case .capture: mode.field?.scrollToCursor(width: layout.captureField.width)
        case .rename, .insert: mode.field?.scrollToCursor(width: Layout.rowField(layout.list.row(0)).width)
        case .panel(let panel): panel.settle(layout, in: self)
        case .browse, .visual: break
        }
    }

    /// A read that failed where nothing could throw (a row drawn, a list's members): told once, at once,
    /// since the next change will not be saved (it fails with the read's error, writing nothing).
    private func tellReadFailure() {
        guard let failure = outline.pendingReadFailure else {
            toldReadFailure = nil
            return
        }
        guard failure != toldReadFailure else { return }
        toldReadFailure = failure
        fail("Cannot read part of the outline (the next change will not be saved; try it again after)", failure)
    }

    /// Pops levels whose item was deleted (by undo, redo or another process) to the nearest survivor.
    func settleStack(after cause: DeletionCause = .elsewhere) {
        var gone: [String] = []
        while stack.count > 1, top.isGone {
            gone.append(top.lastKnownTitle)
            stack.removeLast()
            do { try top.resume() } catch { fail("Cannot refresh the level", error) }
        }
        settleEditors()
        guard let outermost = gone.last else { return }
        status = .info("\(quoted(outermost)) was deleted \(cause.rawValue): back in \(quoted(breadcrumbs.last ?? ""))")
    }

    /// An editor tied to an item that left the level (deleted or moved by another process, or by undo)
    /// must not go on typing into a row that is no longer there: a rename is cancelled with a message, a
    /// new item that was to go beside it will go at the end instead (its text is kept).
    func settleEditors() {
        func here(_ id: ObjectID) -> Bool { top.contains(id) }
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
        let line = "\(what): \(error)"
        if line != lastLogged { logger.error("\(line)") }
        lastLogged = line
        // The one line meant for the user (a validation failure's description runs over several lines).
        let message = (error as? any UserFacingError)?.userMessage ?? "\(error)"
        status = .error("\(what): \(message)")
    }
}
