import CNCursesW
import CTerminalGuard
import Foundation
import TerminalKit

/// The real terminal: a `TerminalBackend` for output and an `InputSource` for keys, mouse, paste, resize and
/// signals. ncursesw reads the keys and sets and restores the terminal's modes; frames are written by
/// `FrameWriter` with the capabilities of the terminal's terminfo description.
///
/// Raw mode with flow control off (Ctrl-S, Ctrl-Q, Ctrl-Z and Ctrl-C arrive as keys), no echo, keypad, a 25 ms
/// Esc delay, default colours (none under `NO_COLOR`), mouse and bracketed paste when available. The terminal
/// is restored by `stop()`; on SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 and the other signals that ask a
/// program to end (delivered as `.terminate` events, for `stop(reraising:)`); from the handler on a crash,
/// SIGQUIT, SIGABRT and the other core-dumping signals; and at `exit()`. SIGTSTP restores it, suspends, and
/// delivers `.resumed` when continued. SIGPIPE does nothing while the terminal is ours.
///
/// For example:
/// ```swift
/// let curses = try CursesTerminal.start()
/// defer { curses.stop() }
/// let terminal = Terminal(backend: curses)
/// ```
public final class CursesTerminal: TerminalBackend, InputSource, TerminalHandover, Suspendable, ClipboardWriter {
    /// Choices made at start.
    public struct Options: Sendable {
        /// Report mouse clicks and wheel turns (the terminal's own text selection then needs Shift).
        public var mouse: Bool
        /// Ask for bracketed paste, so a paste arrives as one `.paste` event rather than as typed keys.
        public var bracketedPaste: Bool

        public init(mouse: Bool = true, bracketedPaste: Bool = true) {
            self.mouse = mouse
            self.bracketedPaste = bracketedPaste
        }
    }

    static let pasteStart: Int32 = 0x1001
    static let pasteEnd: Int32 = 0x1002
    static let escapeDelay: Int32 = 25

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let options: Options
    let keyTable: CursesKeyTable
    /// The frames' output: ncurses only reads keys and sets and restores the terminal's modes.
    private var writer: FrameWriter
    /// Where the frame being drawn puts the cursor (nil: hidden).
    private var cursorPosition: Position?
    /// Whether the next frame paints every cell (the first, and after `clear`): the cluster question is asked
    /// with such a frame, which paints over its samples.
    private var paintsAll = true
    /// How wide the terminal draws flags, skin tones and ZWJ sequences, asked with the first frame and
    /// learnt from the answers as they arrive among the keys.
    var clusters = ClusterProbe()
    /// When the cluster question was sent: its answers are waited for, before the terminal goes back to the
    /// shell, only while a terminal that answers could still be answering; nil once that time has passed.
    var askedAt: ContinuousClock.Instant?
    /// Keys read while waiting for those answers before a suspend, handed out after it.
    var pending: [InputEvent] = []
    /// Whether a character of several visible code points was drawn as a stand-in: when the terminal's
    /// answer comes, the screen is drawn again.
    var drewStandIn = false
    private var running = true
    public private(set) var size: Size
    /// Whether the descriptor the last wait watched may be readable: false when that wait ended without it.
    public internal(set) var descriptorMayBeReady = true

    private init(
        screen: OpaquePointer, window: UnsafeMutablePointer<WINDOW>, options: Options, capabilities: TerminalCapabilities, keyTable: CursesKeyTable
    ) {
        self.screen = screen
        self.window = window
        self.options = options
        self.keyTable = keyTable
        let size = Size(width: Int(burrow_cols()), height: Int(burrow_lines()))
        self.size = size
        writer = FrameWriter(capabilities: capabilities, size: size)
    }

    /// Takes over the terminal, or throws without touching it when standard input or output is not a terminal,
    /// the terminal type is unknown, or it cannot move the cursor.
    public static func start(options: Options = Options()) throws(CursesError) -> CursesTerminal {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        guard !term.isEmpty else { throw .unknownTerminal("") }
        switch burrow_terminal_addresses_cursor() {
        case 1: break
        case 0: throw .cannotAddressCursor(term)
        default: throw .unknownTerminal(term)
        }
        // The modes a crash restores must be the shell's: newterm already switches echo and canonical input off.
        guard terminal_guard_save(STDIN_FILENO) == 0 else { throw .cannotStart("cannot read the terminal's modes") }
        useUTF8Locale()
        set_escdelay(escapeDelay)
        guard let screen = burrow_newterm() else { throw .unknownTerminal(term) }
        set_term(screen)
        guard let window = burrow_stdscr() else {
            endwin()
            delscreen(screen)
            throw .cannotStart("no standard screen")
        }
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        guard let capabilities = TerminalCapabilities.fromTerminfo(colors: !noColor && has_colors()) else {
            endwin()
            delscreen(screen)
            throw .cannotAddressCursor(term)
        }
        terminal_guard_install(resetSequence(options: options))
        raw()
        noecho()
        nonl()
        keypad(window, true)
        meta(window, true)
        intrflush(window, false)
        // No check for typed-ahead keys inside a refresh: ncurses polled standard input up to six times a frame
        // (twice around each scroll) to give up a frame half drawn when a key was waiting, and the run loop
        // already takes every waiting key before it draws (2026-12-01).
        typeahead(-1)
        let keyTable = CursesKeyTable.fromTerminfo()
        if options.mouse {
            mousemask(burrow_mouse_events(), nil)
            mouseinterval(0)
        }
        if options.bracketedPaste {
            define_key("\u{1B}[200~", pasteStart)
            define_key("\u{1B}[201~", pasteEnd)
        }
        let terminal = CursesTerminal(screen: screen, window: window, options: options, capabilities: capabilities, keyTable: keyTable)
        terminal.enterProgramModes()
        // ncurses clears the screen and leaves its cursor at the top left, where it believes it stays: it draws
        // nothing after this (its window stays blank and untouched), so it refreshes nothing while reading keys.
        werase(window)
        wrefresh(window)
        return terminal
    }

    /// Gives the terminal back as it was: modes, cursor, main screen. Safe to call more than once.
    public func stop() {
        guard running else { return }
        running = false
        takeAnswersOnTheirWay()
        giveBack()
        leaveProgramModes()
        endwin()
        delscreen(screen)
        terminal_guard_uninstall()
    }

    /// Restores the terminal, then ends the process by `signal` as if the program had not caught it.
    public func stop(reraising signal: Int32) -> Never {
        stop()
        terminal_guard_reraise(signal)
        exit(128 + signal)
    }

    deinit { stop() }

    // MARK: TerminalBackend

    public func draw(_ changes: [CellChange]) {
        askAboutClusters()
        writer.draw(changes) { symbol(for: $0) }
    }

    public func draw(_ changes: [CellChange], in frame: Buffer) {
        askAboutClusters()
        writer.draw(changes, in: frame) { symbol(for: $0) }
    }

    /// What to write for a cell that is not one printable ASCII character; nil for blanks of its width.
    private func symbol(for cell: Cell) -> String? {
        let symbol = cell.symbol.unicodeScalars
        if symbol.count > 1, symbol.dropFirst().contains(where: { burrow_wcwidth(wchar_t(bitPattern: $0.value)) > 0 }) {
            // A character of several visible code points (a flag, a skin tone, a ZWJ sequence): written whole
            // where the terminal said it draws that kind in the cell's width; otherwise a stand-in of its width.
            if ClusterProbe.Kind(symbol).flatMap({ clusters.widths[$0] }) == Int(cell.width) {
                var whole = cell.symbol
                while whole.unicodeScalars.last?.value == 0x200D { whole.unicodeScalars.removeLast() }
                return whole
            }
            // Drawn before the answers came (the first frame is drawn before the question is even sent).
            if clusters.state != .answered { drewStandIn = true }
            return "\u{FFFD}" + String(repeating: " ", count: max(0, Int(cell.width) - 1))
        }
        // Where the C library's width disagrees with ours (an emoji newer than it), the terminal likely does too:
        // a stand-in of our width. A zero-width joiner that joins nothing visible is dropped: tmux would join
        // whatever it writes next, anywhere on the screen, into this cell.
        var scalars = String.UnicodeScalarView(symbol.filter { $0.value != 0x200D })
        let libcWidth = scalars.first.map { Int(burrow_wcwidth(wchar_t(bitPattern: $0.value))) } ?? -1
        if libcWidth < 1 || libcWidth > Int(cell.width) { scalars = String.UnicodeScalarView(["\u{FFFD}"]) }
        let padding = Int(cell.width) - (libcWidth == Int(cell.width) ? Int(cell.width) : 1)
        return String(scalars) + String(repeating: " ", count: max(0, padding))
    }

    /// Moves rows with the terminal's scroll region, where it has one.
    public func scroll(_ region: Range<Int>, by count: Int) -> Bool {
        askAboutClusters()
        return writer.scroll(region, by: count)
    }

    /// Asks how the terminal draws flags, skin tones and ZWJ sequences, ahead of the first frame that paints
    /// every cell: the samples go on rows the frame then paints over, and the answers arrive later among the
    /// keys, so the frame waits for nothing.
    private func askAboutClusters() {
        guard clusters.state == .unasked, paintsAll else { return }
        if let request = clusters.request(screen: size, cursorAfter: Position(x: 0, y: 0)) {
            writer.append(request)
            askedAt = .now
        } else {
            clusters.state = .answered
        }
    }

    public func setCursor(_ position: Position?) {
        cursorPosition = position
    }

    public func clear() {
        writer.forget()
        paintsAll = true
    }

    /// Writes the frame to the terminal in one write.
    public func flush() {
        writer.showCursor(at: cursorPosition)
        paintsAll = false
        write(writer.take())
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        // A terminal that went away (its window closed) ends the program by SIGHUP; nothing to do here.
        _ = bytes.withUnsafeBufferPointer { burrow_write_all($0.baseAddress, $0.count) }
    }

    /// The terminal as ncurses expects it before giving it back (or lending it): attributes off, the cursor
    /// shown where ncurses believes it is.
    private func giveBack() {
        writer.restore()
        write(writer.take())
        writer.forget()
    }

    // MARK: ClipboardWriter

    /// Writes the OSC 52 sequence straight to the terminal, between frames: it moves no cursor and draws no
    /// cell.
    public func copyToClipboard(_ text: String) {
        burrow_write_raw(OSC52.sequence(text))
    }

    // MARK: Modes

    private func enterProgramModes() {
        if options.bracketedPaste { burrow_write_raw("\u{1B}[?2004h") }
    }

    private func leaveProgramModes() {
        if options.bracketedPaste { burrow_write_raw("\u{1B}[?2004l") }
        if options.mouse { mousemask(0, nil) }
    }

    /// Restores the terminal for another program (an editor), runs it, then takes the terminal over again
    /// and redraws everything. The other program gets the terminal as the shell left it.
    public func handOver<T>(_ body: () throws -> T) rethrows -> T {
        // No wait for the cluster answers here: the keys typed after the one that opened the editor are the
        // editor's, and reading on to the answers would take them.
        giveBack()
        leaveProgramModes()
        endwin()
        defer {
            // refresh() returns ncurses to program mode; the app redraws everything.
            if options.mouse { mousemask(burrow_mouse_events(), nil) }
            enterProgramModes()
            clear()
            clearok(window, true)
            wrefresh(window)
            updateSize()
        }
        return try body()
    }

    /// Restores the terminal and stops the process (SIGTSTP); on continuing, takes it over again.
    public func suspend() {
        takeAnswersOnTheirWay()
        giveBack()
        leaveProgramModes()
        endwin()
        terminal_guard_suspend()
        // Continued: refresh() returns ncurses to program mode; the app redraws everything.
        if options.mouse { mousemask(burrow_mouse_events(), nil) }
        enterProgramModes()
        clear()
        clearok(window, true)
        wrefresh(window)
        updateSize()
    }

    func updateSize() {
        size = Size(width: Int(burrow_cols()), height: Int(burrow_lines()))
        writer.size = size
    }

    var stdscr: UnsafeMutablePointer<WINDOW> { window }

    /// What a crash or `exit()` writes to undo our modes: paste and mouse reporting off, keypad transmit off,
    /// attributes reset, cursor shown, main screen back.
    private static func resetSequence(options: Options) -> String {
        var s = ""
        if options.bracketedPaste { s += "\u{1B}[?2004l" }
        if options.mouse { s += "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l" }
        for cap in ["rmkx", "sgr0", "cnorm", "rmcup"] {
            if let v = burrow_tigetstr(cap) { s += String(cString: v) }
        }
        return s
    }

    /// Wide characters need a UTF-8 locale: the user's, or C.UTF-8 when theirs is not UTF-8.
    private static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "UTF-8" { return }
        if setlocale(LC_CTYPE, "C.UTF-8") == nil { _ = setlocale(LC_CTYPE, "C.utf8") }
    }
}
