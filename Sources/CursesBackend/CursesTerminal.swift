import CNCursesW
import CTerminalGuard
import Foundation
import TerminalKit

/// The real terminal, through ncursesw: a `TerminalBackend` for output and an `InputSource` for keys, mouse,
/// paste, resize and signals.
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
    private let colors: CursesColors
    let keyTable: CursesKeyTable
    private var cursorVisible: Bool?
    /// Where the cursor is left after each refresh (the top left while it is hidden), so that what is written
    /// past ncurses knows where the terminal's cursor must go back to.
    private var cursorHome = Position(x: 0, y: 0)
    /// Where the last refresh left the terminal's cursor (and where ncurses believes it is until the next).
    private var cursorRefreshed = Position(x: 0, y: 0)
    /// How wide the terminal draws flags, skin tones and ZWJ sequences, asked with the first frame and
    /// learnt from the answers as they arrive among the keys.
    var clusters = ClusterProbe()
    /// Whether a character of several visible code points was drawn as a stand-in: when the terminal's
    /// answer comes, the screen is drawn again.
    var drewStandIn = false
    /// Characters of several visible code points drawn this frame: ncurses holds a stand-in of their width,
    /// and `flush` writes them over it.
    private var overprints: [(position: Position, symbol: String, style: Style)] = []
    private var running = true
    public private(set) var size: Size

    private init(screen: OpaquePointer, window: UnsafeMutablePointer<WINDOW>, options: Options, colors: CursesColors, keyTable: CursesKeyTable) {
        self.screen = screen
        self.window = window
        self.options = options
        self.colors = colors
        self.keyTable = keyTable
        self.size = Size(width: Int(burrow_cols()), height: Int(burrow_lines()))
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
        terminal_guard_install(resetSequence(options: options))
        // ncurses' part of a frame in one write (what `flush` writes past it goes after): until the screen has
        // been given back once and taken again, ncurses 6.4 flushes its output after every cursor move
        // (`_nc_mvcur` flushes while the screen is still in its first state, for programs that use terminfo
        // alone, and only `doupdate` after `endwin` leaves that state), so a frame went to the terminal in five
        // writes, the terminal seeing it drawn a piece at a time (and, over ssh, five packets). Given back and
        // taken again here, before anything is drawn and before colours start (taking the screen back with
        // colours on resets the terminal's palette: `oc`, OSC 104, which would undo a user's theme set with
        // OSC 4), and before the modes below (`endwin` turns keypad transmit mode off; 2026-12-02). For those
        // microseconds the terminal has the shell's modes again: a key typed then is echoed.
        endwin()
        doupdate()
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
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let colors = CursesColors(noColor: noColor)
        let keyTable = CursesKeyTable.fromTerminfo()
        if options.mouse {
            mousemask(burrow_mouse_events(), nil)
            mouseinterval(0)
        }
        if options.bracketedPaste {
            define_key("\u{1B}[200~", pasteStart)
            define_key("\u{1B}[201~", pasteEnd)
        }
        let terminal = CursesTerminal(screen: screen, window: window, options: options, colors: colors, keyTable: keyTable)
        terminal.enterProgramModes()
        terminal.setCursor(nil)
        werase(window)
        wrefresh(window)
        return terminal
    }

    /// Gives the terminal back as it was: modes, cursor, main screen. Safe to call more than once.
    public func stop() {
        guard running else { return }
        running = false
        leaveProgramModes()
        curs_set(1)
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
        // Changed cells come in runs of one style (a row's title, a highlighted row): its attributes and colour
        // pair are worked out once a run.
        var runStyle: Style? = nil
        var attributes: attr_t = 0
        var pair: Int16 = 0
        // Most cells are one printable ASCII byte: those next to each other on a row, in one style, go to
        // ncurses together (one cell at a time, the general path below was a third of a frame).
        var ascii: (y: Int32, x: Int32, bytes: [UInt8]) = (0, 0, [])
        ascii.bytes.reserveCapacity(size.width)
        func putASCII() {
            guard !ascii.bytes.isEmpty else { return }
            // Safe: the C side reads exactly `count` bytes from the pointer, during the call only, and copies
            // them into cells of its own in chunks of its buffer's size (`burrow_put_ascii_run`).
            _ = ascii.bytes.withUnsafeBufferPointer { burrow_put_ascii_run(ascii.y, ascii.x, $0.baseAddress, Int32($0.count), attributes, pair) }
            ascii.bytes.removeAll(keepingCapacity: true)
        }
        for change in changes {
            let cell = change.cell
            let (y, x) = (Int32(change.position.y), Int32(change.position.x))
            let code = cell.width == 1 ? cell.scalar?.value ?? 0 : 0
            let isASCII = code >= 0x20 && code < 0x7F
            if isASCII, cell.style == runStyle, !ascii.bytes.isEmpty, y == ascii.y, x == ascii.x + Int32(ascii.bytes.count) {
                ascii.bytes.append(UInt8(code))
                continue
            }
            putASCII()
            if cell.style != runStyle {
                runStyle = cell.style
                attributes = 0
                if cell.style.attributes.contains(.bold) { attributes |= burrow_attr_bold() }
                if cell.style.attributes.contains(.dim) { attributes |= burrow_attr_dim() }
                if cell.style.attributes.contains(.reverse) { attributes |= burrow_attr_reverse() }
                if cell.style.attributes.contains(.underline) { attributes |= burrow_attr_underline() }
                pair = colors.pair(for: cell.style)
            }
            if isASCII {
                ascii = (y, x, ascii.bytes)
                ascii.bytes.append(UInt8(code))
                continue
            }
            let symbol = cell.symbol.unicodeScalars
            if symbol.count > 1, symbol.dropFirst().contains(where: { burrow_wcwidth(wchar_t(bitPattern: $0.value)) > 0 }) {
                drawCluster(cell, at: change.position, attributes, pair)
                continue
            }
            // ncurses places characters by the C library's widths; where those disagree with our tables (an
            // emoji newer than the C library), draw a stand-in of our width so the grid stays aligned.
            // A zero-width joiner that joins nothing visible is dropped: tmux would join whatever it writes
            // next, anywhere on the screen, into this cell.
            var scalars = Array(symbol.filter { $0.value != 0x200D }.prefix(5).map { wchar_t(bitPattern: $0.value) })
            let libcWidth = scalars.first.map { Int(burrow_wcwidth($0)) } ?? -1
            if libcWidth < 1 || libcWidth > Int(cell.width) { scalars = [0xFFFD] }
            _ = put(y, x, scalars, attributes, pair)
            if cell.width == 2, libcWidth != 2 { _ = put(y, x + 1, [0x20], attributes, pair) }
        }
        putASCII()
    }

    /// ncurses moves the rows of its screen (`wscrl` in a scroll region) and, at the refresh, the terminal's
    /// with its own scrolling where it has any. Scrolling is allowed only for the call: with it on, a cell
    /// put in the bottom right corner would scroll the whole screen.
    public func scroll(_ region: Range<Int>, by count: Int) -> Bool {
        guard count != 0, region.lowerBound >= 0, region.upperBound <= size.height, abs(count) < region.count else { return false }
        guard wsetscrreg(window, Int32(region.lowerBound), Int32(region.upperBound - 1)) != ERR else { return false }
        scrollok(window, true)
        let done = wscrl(window, Int32(count)) != ERR
        scrollok(window, false)
        _ = wsetscrreg(window, 0, Int32(size.height - 1))
        return done
    }

    /// A character of several visible code points (a flag, a skin tone, a ZWJ sequence): ncurses cannot hold
    /// one (`setcchar` keeps one visible code point, and measures by the first), so it holds a stand-in of the
    /// cell's width. Where the terminal draws this kind of character in that width, `flush` writes it over
    /// the stand-in; elsewhere the stand-in (U+FFFD padded with spaces) stays and the grid stays aligned.
    private func drawCluster(_ cell: Cell, at position: Position, _ attributes: attr_t, _ pair: Int16) {
        let (y, x) = (Int32(position.y), Int32(position.x))
        let shown = ClusterProbe.Kind(cell.symbol.unicodeScalars).flatMap { clusters.widths[$0] } == Int(cell.width)
        if shown && cell.width == 2 {
            // Ideographic space: two cells wide in every C library, and never reprinted by ncurses to move the
            // cursor across it (it only reprints one-byte characters), so the character written over it stays.
            _ = put(y, x, [0x3000], attributes, pair)
            var symbol = cell.symbol
            while symbol.unicodeScalars.last?.value == 0x200D { symbol.unicodeScalars.removeLast() }
            overprints.append((position, symbol, cell.style))
        } else {
            // Drawn before the answers came (the first frame is drawn before the question is even sent).
            if clusters.state != .answered { drewStandIn = true }
            _ = put(y, x, [0xFFFD], attributes, pair)
            for i in 1..<max(1, Int32(cell.width)) { _ = put(y, x + i, [0x20], attributes, pair) }
        }
    }

    private func put(_ y: Int32, _ x: Int32, _ scalars: [wchar_t], _ attributes: attr_t, _ pair: Int16) -> Bool {
        (scalars + [0]).withUnsafeBufferPointer { burrow_put_cell(y, x, $0.baseAddress, attributes, pair) != ERR }
    }

    public func setCursor(_ position: Position?) {
        let visible = position != nil
        if cursorVisible != visible {
            curs_set(visible ? 1 : 0)
            cursorVisible = visible
        }
        // Even while hidden, the cursor goes to a known place, so that writing past ncurses can put it back.
        cursorHome = position ?? Position(x: 0, y: 0)
        wmove(window, Int32(cursorHome.y), Int32(cursorHome.x))
        leaveok(window, false)
    }

    public func clear() {
        werase(window)
        clearok(window, true)
    }

    public func flush() {
        if clusters.state == .unasked {
            // Asked just before the first frame is painted, so the frame waits for nothing: the
            // samples go on rows the frame then paints over, and the answers arrive later among the keys.
            if let request = clusters.request(screen: size, cursorAfter: cursorRefreshed) {
                burrow_write_raw(request)
                wredrawln(window, Int32(ClusterProbe.firstRow), Int32(ClusterProbe.Kind.allCases.count))
            } else {
                clusters.state = .answered
            }
        }
        wrefresh(window)
        cursorRefreshed = cursorHome
        guard !overprints.isEmpty else { return }
        // ncurses ends a refresh with the attributes reset and the cursor at `cursorHome`; so do these writes.
        var out = ""
        for o in overprints {
            out += "\u{1B}[\(o.position.y + 1);\(o.position.x + 1)H" + Self.sgr(o.style, colors: colors.enabled) + o.symbol + "\u{1B}[0m"
        }
        out += "\u{1B}[\(cursorHome.y + 1);\(cursorHome.x + 1)H"
        overprints.removeAll()
        burrow_write_raw(out)
    }

    /// The escape sequence that sets `style` from the default attributes (colours only when they are used).
    static func sgr(_ style: Style, colors: Bool) -> String {
        var codes: [String] = []
        if style.attributes.contains(.bold) { codes.append("1") }
        if style.attributes.contains(.dim) { codes.append("2") }
        if style.attributes.contains(.underline) { codes.append("4") }
        if style.attributes.contains(.reverse) { codes.append("7") }
        if colors, case .palette(let n) = style.foreground { codes.append(n < 8 ? "3\(n)" : "38;5;\(n)") }
        if colors, case .palette(let n) = style.background { codes.append(n < 8 ? "4\(n)" : "48;5;\(n)") }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    // MARK: ClipboardWriter

    /// Writes the OSC 52 sequence straight to the terminal, between frames: ncurses has flushed its own output
    /// by then (`flush` ends with `wrefresh`), and the sequence moves no cursor and draws no cell, so the screen
    /// ncurses believes is there stays there.
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
        leaveProgramModes()
        endwin()
        defer {
            // refresh() returns ncurses to program mode; the app redraws everything.
            if options.mouse { mousemask(burrow_mouse_events(), nil) }
            enterProgramModes()
            clear()
            wrefresh(window)
            updateSize()
        }
        return try body()
    }

    /// Restores the terminal and stops the process (SIGTSTP); on continuing, takes it over again.
    public func suspend() {
        leaveProgramModes()
        endwin()
        terminal_guard_suspend()
        // Continued: refresh() returns ncurses to program mode; the app redraws everything.
        if options.mouse { mousemask(burrow_mouse_events(), nil) }
        enterProgramModes()
        clear()
        wrefresh(window)
        updateSize()
    }

    func updateSize() {
        size = Size(width: Int(burrow_cols()), height: Int(burrow_lines()))
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
