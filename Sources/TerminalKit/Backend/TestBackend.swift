/// An in-memory terminal of a fixed size for tests: it applies the changed cells it is sent to its own screen,
/// and hands out scripted input events one at a time.
///
/// Because it only ever sees what `Terminal` sends, a screen test also checks the diffing.
///
/// For example:
/// ```swift
/// let backend = TestBackend(width: 20, height: 3)
/// try backend.type("j j <Enter>")
/// #expect(backend.difference(from: "…") == nil)
/// ```
public final class TestBackend: TerminalBackend, InputSource, TerminalHandover, Suspendable, ClipboardWriter {
    public private(set) var size: Size
    /// What the screen shows now.
    public private(set) var screen: Buffer
    /// Where the cursor is shown, nil when hidden.
    public private(set) var cursor: Position?
    /// Cells sent by the last `draw` and since the start.
    public private(set) var lastDrawCount = 0
    public private(set) var totalDrawCount = 0
    public private(set) var flushCount = 0
    /// Cells received holding a code point a terminal would act on (must stay 0: drawing sanitises).
    public private(set) var unsafeCellsReceived = 0
    /// Events still to be delivered.
    public private(set) var pendingEvents: [InputEvent] = []

    public init(width: Int, height: Int) {
        size = Size(width: width, height: height)
        screen = Buffer(size: size)
    }

    // MARK: TerminalBackend

    public func draw(_ changes: [CellChange]) {
        lastDrawCount = changes.count
        totalDrawCount += changes.count
        for change in changes {
            if !Sanitizer.isSafe(change.cell.symbol) { unsafeCellsReceived += 1 }
            screen.set(change.position, change.cell)
        }
    }

    public func setCursor(_ position: Position?) { cursor = position }

    /// Moves rows as a terminal's scroll region does, written out here cell by cell (not with the buffer's own
    /// `shift`), so that a screen test checks what `Terminal` believes a scroll does.
    public func scroll(_ region: Range<Int>, by count: Int) -> Bool {
        guard count != 0, region.lowerBound >= 0, region.upperBound <= size.height, abs(count) < region.count else { return false }
        scrolls += 1
        let old = screen
        for y in region {
            let from = y + count
            for x in 0..<size.width {
                screen.cells[y * size.width + x] = region.contains(from) ? old[x, from] : .blank
            }
        }
        return true
    }

    /// How many times rows were scrolled.
    public private(set) var scrolls = 0

    /// How many times the screen was cleared for a redraw of every cell.
    public private(set) var clears = 0

    public func clear() {
        clears += 1
        screen = Buffer(size: size)
    }

    public func flush() { flushCount += 1 }

    /// How many times the terminal was lent to another program.
    /// How many times the program stopped itself (``Suspendable``); a test backend goes on at once.
    public private(set) var suspends = 0

    public func suspend() { suspends += 1 }

    public private(set) var handOvers = 0

    /// Runs `body` as if another program had the terminal: afterwards the screen must be drawn again.
    public func handOver<T>(_ body: () throws -> T) rethrows -> T {
        handOvers += 1
        defer { clear() }
        return try body()
    }

    // MARK: ClipboardWriter

    /// Every text copied to the clipboard, in order.
    public private(set) var clipboard: [String] = []
    /// The bytes a terminal would have been sent for them: the OSC 52 sequences, one after another.
    public private(set) var clipboardBytes: [UInt8] = []

    public func copyToClipboard(_ text: String) {
        clipboard.append(text)
        clipboardBytes += Array(OSC52.sequence(text).utf8)
    }

    // MARK: InputSource

    public func nextEvent(timeout: Duration?) -> InputEvent? {
        pendingEvents.isEmpty ? nil : pendingEvents.removeFirst()
    }

    // MARK: Scripting

    /// Queues an event.
    public func send(_ event: InputEvent) { pendingEvents.append(event) }

    /// Queues key presses written in key notation: `"j j <Enter> <C-z>"`.
    public func type(_ notation: String) throws(Key.NotationError) {
        pendingEvents += try Key.parseSequence(notation).map { .key($0) }
    }

    /// Changes the screen size (the screen is cleared, as a real terminal's would be) and queues the resize event.
    public func resize(width: Int, height: Int) {
        size = Size(width: width, height: height)
        screen = Buffer(size: size)
        pendingEvents.append(.resize(size))
    }

    // MARK: Reading the screen

    /// The screen's rows as text, trailing spaces removed.
    public var lines: [String] { screen.lines.map { $0.trimmingTrailingSpaces() } }

    /// The whole screen as text, one row per line, trailing spaces removed.
    public var text: String { lines.joined(separator: "\n") }

    /// The cell at column `x`, row `y`.
    public func cell(x: Int, y: Int) -> Cell { screen[x, y] }

    /// Nil when the screen shows exactly `expected` (rows separated by newlines, trailing spaces ignored, every
    /// row present); otherwise a line-by-line difference that is readable in a test failure.
    public func difference(from expected: String) -> String? {
        ScreenDifference(
            expected: expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
            actual: lines, size: size
        ).report
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
