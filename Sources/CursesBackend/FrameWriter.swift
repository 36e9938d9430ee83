import CNCursesW
import TerminalKit

/// Turns a frame's changed cells, its scrolls and its cursor into the bytes a terminal needs, with the
/// capabilities its terminfo description gives: the output side of the curses backend.
///
/// ncurses drew the frames before (2026-12-03, docs/DECISIONS.md): given the changed cells, it kept a
/// second copy of the screen, copied every row a scroll touched into a third, and compared them again cell by
/// cell before it wrote anything: 250 k instructions of a key's 575 k that scrolls a list, for what `Terminal`
/// had already worked out. ncurses still reads the keys, sets the terminal's modes and gives it back.
///
/// Each run of cells on a row starts with the cursor put where it goes, so a character the terminal draws in
/// another width than ours moves nothing after it; the style is set only when it changes.
struct FrameWriter {
    let capabilities: TerminalCapabilities
    /// The bytes written so far for the frame being drawn.
    private(set) var output: [UInt8] = []
    /// Where the terminal's cursor is, when known.
    private var cursor: Position?
    /// The style the terminal draws in, when known.
    private var pen: Style?
    /// Whether the terminal shows its cursor, when known.
    private var cursorShown: Bool?
    /// Each style's bytes from the attributes off, worked out once.
    private var styles: [Style: [UInt8]] = [:]
    /// The size of the screen being drawn.
    var size: Size
    /// How many gaps between changes were written again rather than moved past (for tests).
    private(set) var bridges = 0
    /// How many rows' trailing blanks were erased rather than written (for tests).
    private(set) var erasures = 0
    /// The final byte of `cup` and of `csr` where they are the usual `ESC [ row ; column H` (and `… r`),
    /// written without the general formatter.
    private let cursorAddressFinal: UInt8?
    private let scrollRegionFinal: UInt8?
    private let attributesOff: [UInt8]

    init(capabilities: TerminalCapabilities, size: Size) {
        self.capabilities = capabilities
        self.size = size
        cursorAddressFinal = Self.ansiFinal(capabilities.cursorAddress)
        scrollRegionFinal = capabilities.scrollRegion.flatMap(Self.ansiFinal)
        var off = Array((capabilities.attributesOff ?? "").utf8)
        if capabilities.colors > 0, let op = capabilities.originalPair { off += Array(op.utf8) }
        attributesOff = off
        output.reserveCapacity(4096)
    }

    /// Forgets where the cursor is and what style and cursor the terminal has (after another program had it).
    mutating func forget() {
        cursor = nil
        pen = nil
        cursorShown = nil
    }

    /// Takes the bytes written so far, for the terminal.
    mutating func take() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    /// Appends bytes written elsewhere (a question for the terminal) that move the cursor somewhere unknown.
    mutating func append(_ text: String) {
        output += Array(text.utf8)
        cursor = nil
    }

    // MARK: Cells

    /// Draws changed cells: each is sent as it is, `symbol(cell)` giving what to write for a cell that is not
    /// one printable ASCII character (nil: blanks of its width, for a character the terminal cannot show).
    ///
    /// With `frame`, the whole frame the changes are of, a gap of a few unchanged cells between two changes on
    /// a row is written again rather than moved past, where those cells are printable ASCII in the style the
    /// terminal draws in: a byte a cell against an address of six or more (a scrolled-in row of words was
    /// sent as one address per word).
    ///
    /// With `frame` too, a blank that starts the plain blanks a row of the frame ends with is sent as `el`, the
    /// rest of the row's changes with it (a row left by the selection was sent with 60 blanks).
    mutating func draw(_ changes: [CellChange], in frame: Buffer? = nil, symbol: (Cell) -> String?) {
        let (width, height) = (size.width, size.height)
        let bridgeable = frame.map { $0.size == size } ?? false
        let erase = bridgeable ? capabilities.clearToEnd.map { Array($0.utf8) } : nil
        // The row whose trailing plain blanks were found, and the column where they start.
        var tail = (y: -1, x: 0)
        var i = 0
        while i < changes.count {
            let change = changes[i]
            i += 1
            let cell = change.cell
            let (x, y) = (change.position.x, change.position.y)
            let cellWidth = max(1, Int(cell.width))
            guard y >= 0, y < height, x >= 0, x + cellWidth <= width else { continue }
            if let erase, cell == .blank, width - x > erase.count {
                if tail.y != y { tail = (y, Self.trailingBlanks(of: y, in: frame!)) }
                if x >= tail.x {
                    if cursor != Position(x: x, y: y) {
                        if !bridge(to: x, y: y, in: frame!) { move(to: Position(x: x, y: y)) }
                    }
                    setPen(.plain)
                    output += erase
                    erasures += 1
                    // The cursor stays; every later change of this row is a blank the erase drew.
                    cursor = Position(x: x, y: y)
                    while i < changes.count, changes[i].position.y == y, changes[i].position.x > x { i += 1 }
                    continue
                }
            }
            // The bottom right corner: writing there wraps, and at the bottom scrolls the whole screen, on a
            // terminal with automatic margins that does not defer the wrap. Margins off for it where they can be;
            // otherwise the corner stays blank.
            let corner = y == height - 1 && x + cellWidth == width && capabilities.automaticMargins && !capabilities.deferredWrap
            if corner, capabilities.marginsOff == nil || capabilities.marginsOn == nil { continue }
            if cursor != Position(x: x, y: y) {
                if !(bridgeable && bridge(to: x, y: y, in: frame!)) { move(to: Position(x: x, y: y)) }
            }
            setPen(cell.style)
            if corner { output += Array(capabilities.marginsOff!.utf8) }
            let code = cell.width == 1 ? cell.scalar?.value ?? 0 : 0
            if code >= 0x20 && code < 0x7F {
                output.append(UInt8(code))
                cursor = Position(x: x + 1, y: y)
            } else {
                if let text = symbol(cell) {
                    output += Array(text.utf8)
                } else {
                    output += Array(repeating: UInt8(ascii: " "), count: cellWidth)
                }
                // The terminal may have advanced by another width: the next cell is addressed.
                cursor = nil
            }
            if corner { output += Array(capabilities.marginsOn!.utf8) }
            // After the last column the cursor waits to wrap (or has): the next cell is addressed.
            if x + cellWidth >= width { cursor = nil }
        }
    }

    /// Moves what rows `region` show up by `count` (down when negative) with the terminal's scroll region,
    /// the rows uncovered blank in the default colours; false (and nothing written) where it has none.
    mutating func scroll(_ region: Range<Int>, by count: Int) -> Bool {
        guard count != 0, region.lowerBound >= 0, region.upperBound <= size.height, abs(count) < region.count,
            let csr = capabilities.scrollRegion, let step = count > 0 ? capabilities.scrollForward : capabilities.scrollReverse
        else { return false }
        // Rows scrolled in take the current background (on terminals that erase with it).
        setPen(.plain)
        twoNumbers(csr, scrollRegionFinal, region.lowerBound, region.upperBound - 1)
        move(to: Position(x: 0, y: count > 0 ? region.upperBound - 1 : region.lowerBound))
        let bytes = Array(step.utf8)
        for _ in 0..<abs(count) { output += bytes }
        twoNumbers(csr, scrollRegionFinal, 0, size.height - 1)
        // Setting the region homes the cursor on some terminals and not on others.
        cursor = nil
        return true
    }

    /// Ends a frame with the cursor shown at `position`, or hidden (at the top left) when nil.
    mutating func showCursor(at position: Position?) {
        if let position {
            if cursor != position { move(to: position) }
            if cursorShown != true, let cnorm = capabilities.cursorVisible { output += Array(cnorm.utf8) }
            cursorShown = true
        } else {
            if cursorShown != false, let civis = capabilities.cursorInvisible { output += Array(civis.utf8) }
            cursorShown = false
            // Parked at the top left, as ncurses left it: where a terminal that shows it anyway shows it, and
            // where whatever is written after the process dies without restoring the terminal starts.
            if cursor != Position(x: 0, y: 0) { move(to: Position(x: 0, y: 0)) }
        }
    }

    /// The terminal as ncurses left it, before it is given back: attributes off, the cursor shown, at the top
    /// left, where ncurses believes it is (its own refreshes leave it there), so that what ncurses writes as it
    /// ends lands where it means to.
    mutating func restore() {
        output += attributesOff
        pen = nil
        move(to: Position(x: 0, y: 0))
        if let cnorm = capabilities.cursorVisible { output += Array(cnorm.utf8) }
        cursorShown = true
    }

    /// The column from which row `y` of `frame` holds only plain blanks (its width when it ends otherwise).
    static func trailingBlanks(of y: Int, in frame: Buffer) -> Int {
        var x = frame.size.width
        while x > 0, frame[x - 1, y] == .blank { x -= 1 }
        return x
    }

    /// The most unchanged cells written again instead of an address (`ESC [ row ; column H` is six bytes or more).
    static let longestBridge = 4

    /// Moves the cursor from where it is on row `y` to column `x` by writing again the cells of `frame` in
    /// between, when they are few, each one printable ASCII character in the pen's style; false (and nothing
    /// written) otherwise.
    private mutating func bridge(to x: Int, y: Int, in frame: Buffer) -> Bool {
        guard let cursor, cursor.y == y, cursor.x < x, x - cursor.x <= Self.longestBridge, let pen else { return false }
        let start = output.count
        for column in cursor.x..<x {
            let cell = frame[column, y]
            let code = cell.width == 1 ? cell.scalar?.value ?? 0 : 0
            guard code >= 0x20, code < 0x7F, cell.style == pen else {
                output.removeSubrange(start...)
                return false
            }
            output.append(UInt8(code))
        }
        self.cursor = Position(x: x, y: y)
        bridges += 1
        return true
    }

    // MARK: Sequences

    private mutating func move(to position: Position) {
        twoNumbers(capabilities.cursorAddress, cursorAddressFinal, position.y, position.x)
        cursor = position
    }

    /// A capability of two numbers (from 0) filled in: `ESC [ a+1 ; b+1 final` when it has that usual form.
    private mutating func twoNumbers(_ capability: String, _ final: UInt8?, _ a: Int, _ b: Int) {
        guard let final else {
            output += TerminalCapabilities.format(capability, a, b)
            return
        }
        output += [0x1B, UInt8(ascii: "[")]
        appendNumber(a + 1)
        output.append(UInt8(ascii: ";"))
        appendNumber(b + 1)
        output.append(final)
    }

    /// The final byte of a capability of the form `ESC [ %i %p1 %d ; %p2 %d X`, else nil.
    private static func ansiFinal(_ capability: String) -> UInt8? {
        let bytes = Array(capability.utf8)
        let prefix = Array("\u{1B}[%i%p1%d;%p2%d".utf8)
        guard bytes.count == prefix.count + 1, bytes.starts(with: prefix), (0x40...0x7E).contains(bytes[prefix.count]) else { return nil }
        return bytes[prefix.count]
    }

    private mutating func appendNumber(_ n: Int) {
        if n >= 10 { appendNumber(n / 10) }
        output.append(UInt8(ascii: "0") + UInt8(n % 10))
    }

    private mutating func setPen(_ style: Style) {
        guard pen != style else { return }
        if let bytes = styles[style] {
            output += bytes
        } else {
            let bytes = sequence(for: style)
            styles[style] = bytes
            output += bytes
        }
        pen = style
    }

    /// The bytes that draw in `style` from any other: attributes off, then its own on.
    private func sequence(for style: Style) -> [UInt8] {
        let caps = capabilities
        var out = attributesOff
        if style.attributes.contains(.bold), let s = caps.bold { out += Array(s.utf8) }
        if style.attributes.contains(.dim), let s = caps.dim { out += Array(s.utf8) }
        if style.attributes.contains(.underline), let s = caps.underline { out += Array(s.utf8) }
        if style.attributes.contains(.reverse), let s = caps.reverse { out += Array(s.utf8) }
        if caps.colors > 0, let setaf = caps.foreground, let setab = caps.background,
            style.foreground != .default || style.background != .default
        {
            let foreground = style.foreground.approximated(toPaletteSize: caps.colors)
            let background = style.background.approximated(toPaletteSize: caps.colors)
            if let n = Self.number(foreground, fallback: caps.defaultColors ? nil : 7) { out += TerminalCapabilities.format(setaf, n) }
            if let n = Self.number(background, fallback: caps.defaultColors ? nil : 0) { out += TerminalCapabilities.format(setab, n) }
        }
        return out
    }

    private static func number(_ color: Color, fallback: Int?) -> Int? {
        switch color {
        case .default: fallback
        case .palette(let n): Int(n)
        }
    }
}
