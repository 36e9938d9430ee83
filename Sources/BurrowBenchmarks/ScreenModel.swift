import TerminalKit

/// A model of a terminal's screen fed with what a program writes to it: the subset of xterm's control
/// sequences ncurses sends for `TERM=xterm-256color` (cursor addressing and relative moves, erasing, inserting
/// and deleting characters and lines, scrolling regions, repeat, UTF-8 text, the line-drawing character set).
/// ncurses sends only the cells that changed, so a title appears on screen in pieces; the model is the screen
/// the user would see, and what the live benchmark looks for titles on. Attributes and colours are dropped.
///
/// For example: `model.feed(bytes)`, then `model.rows.contains { $0.contains("Item 7") }`.
struct ScreenModel {
    private(set) var width: Int
    private(set) var height: Int
    /// The cells, row by row: one character each; a wide character's second cell is "" (drawn by the first).
    private var cells: [[String]]
    private var x = 0
    private var y = 0
    /// The last column was written: the next character goes to the start of the next row (xterm's pending
    /// wrap), but a cursor move cancels it.
    private var pendingWrap = false
    private var top = 0
    private var bottom: Int
    private var saved = (x: 0, y: 0)
    /// G0 and G1 as line drawing (`ESC ( 0`), and whether G1 is shifted in (SO).
    private var lineDrawing = (g0: false, g1: false)
    private var shiftedOut = false
    /// IRM (`CSI 4 h`): characters written push the rest of the row right.
    private var inserting = false
    private var lastPrinted: String?
    private var parser = Parser.text
    private var parameters: [UInt8] = []
    private var utf8: [UInt8] = []
    private var utf8Needed = 0
    /// Answers the program expects (cursor position reports), for the caller to write back to it.
    var replies: [[UInt8]] = []

    private enum Parser { case text, escape, charset(Int), csi, osc, oscEscape }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bottom = height - 1
        cells = Array(repeating: Array(repeating: " ", count: width), count: height)
    }

    /// The screen as text, a line per row, trailing spaces removed (as `tmux capture-pane -p` prints it).
    var rows: [String] {
        cells.map { row in
            var line = row.joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Where the cursor is (column, row), from 0.
    var cursor: (x: Int, y: Int) { (x, y) }

    /// True when `text` is on one row of the screen.
    func shows(_ text: String) -> Bool { rows.contains { $0.contains(text) } }

    mutating func feed(_ bytes: some Sequence<UInt8>) {
        for b in bytes { take(b) }
    }

    // MARK: Parsing

    private mutating func take(_ b: UInt8) {
        switch parser {
        case .text:
            text(b)
        case .escape:
            escape(b)
        case .charset(let g):
            // `ESC ( 0` makes G0 line drawing, `ESC ( B` (or any other set) ASCII; `ESC )` is G1.
            if g == 0 { lineDrawing.g0 = b == UInt8(ascii: "0") } else { lineDrawing.g1 = b == UInt8(ascii: "0") }
            parser = .text
        case .csi:
            if (0x40...0x7E).contains(b) {
                parser = .text
                csi(b)
            } else {
                parameters.append(b)
            }
        case .osc:
            // Titles, the clipboard: up to BEL or ST, all ignored.
            if b == 0x07 { parser = .text } else if b == 0x1B { parser = .oscEscape }
        case .oscEscape:
            parser = b == UInt8(ascii: "\\") ? .text : .osc
        }
    }

    private mutating func text(_ b: UInt8) {
        if utf8Needed > 0 {
            guard b & 0xC0 == 0x80 else {
                // A broken sequence: drop it, take the byte afresh.
                utf8 = []
                utf8Needed = 0
                text(b)
                return
            }
            utf8.append(b)
            utf8Needed -= 1
            if utf8Needed == 0 {
                put(String(decoding: utf8, as: UTF8.self))
                utf8 = []
            }
            return
        }
        switch b {
        case 0x1B: parser = .escape
        case 0x07: break
        case 0x08:
            pendingWrap = false
            x = max(0, x - 1)
        case 0x09:
            pendingWrap = false
            x = min(width - 1, (x / 8 + 1) * 8)
        case 0x0A, 0x0B, 0x0C: lineFeed()
        case 0x0D:
            pendingWrap = false
            x = 0
        case 0x0E: shiftedOut = true
        case 0x0F: shiftedOut = false
        case 0x20...0x7E:
            let c = Character(Unicode.Scalar(b))
            let drawing = shiftedOut ? lineDrawing.g1 : lineDrawing.g0
            put(drawing ? Self.lineDrawing[c].map(String.init) ?? String(c) : String(c))
        case 0xC0...0xDF: start(b, needing: 1)
        case 0xE0...0xEF: start(b, needing: 2)
        case 0xF0...0xF7: start(b, needing: 3)
        default: break
        }
    }

    private mutating func start(_ b: UInt8, needing n: Int) {
        utf8 = [b]
        utf8Needed = n
    }

    private mutating func escape(_ b: UInt8) {
        parser = .text
        switch b {
        case UInt8(ascii: "["):
            parameters = []
            parser = .csi
        case UInt8(ascii: "]"): parser = .osc
        case UInt8(ascii: "("): parser = .charset(0)
        case UInt8(ascii: ")"): parser = .charset(1)
        case UInt8(ascii: "7"): saved = (x, y)
        case UInt8(ascii: "8"):
            (x, y) = saved
            pendingWrap = false
        case UInt8(ascii: "D"): lineFeed()
        case UInt8(ascii: "E"):
            x = 0
            lineFeed()
        case UInt8(ascii: "M"): reverseIndex()
        case UInt8(ascii: "c"): self = ScreenModel(width: width, height: height)
        default: break  // keypad modes (`ESC =`, `ESC >`) and the rest change nothing drawn
        }
    }

    /// One control sequence; private ones (`CSI ? …`: modes, the alternate screen) change nothing the model
    /// keeps (the alternate screen starts clear, and ncurses clears it first anyway).
    private mutating func csi(_ final: UInt8) {
        if parameters.first.map({ (0x3C...0x3F).contains($0) }) == true {
            parameters = []
            return
        }
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            // Capped, as terminals cap them: a count near Int.max would overflow the cursor arithmetic.
            field.isEmpty ? nil : Int(String(decoding: field.prefix(9), as: UTF8.self)).map { min($0, 65_535) }
        }
        parameters = []
        // The n-th parameter, with the default when missing or 0 (for counts).
        func count(_ n: Int = 0) -> Int { max(1, fields.indices.contains(n) ? fields[n] ?? 1 : 1) }
        func value(_ n: Int = 0) -> Int { fields.indices.contains(n) ? fields[n] ?? 0 : 0 }
        let before = pendingWrap
        pendingWrap = false
        switch final {
        case UInt8(ascii: "A"): y = max(y >= top ? top : 0, y - count())
        case UInt8(ascii: "B"), UInt8(ascii: "e"): y = min(y <= bottom ? bottom : height - 1, y + count())
        case UInt8(ascii: "C"), UInt8(ascii: "a"): x = min(width - 1, x + count())
        case UInt8(ascii: "D"): x = max(0, x - count())
        case UInt8(ascii: "E"): (x, y) = (0, min(bottom, y + count()))
        case UInt8(ascii: "F"): (x, y) = (0, max(top, y - count()))
        case UInt8(ascii: "G"), UInt8(ascii: "`"): x = clamp(count() - 1, width)
        case UInt8(ascii: "d"): y = clamp(count() - 1, height)
        case UInt8(ascii: "H"), UInt8(ascii: "f"): (y, x) = (clamp(count(0) - 1, height), clamp(count(1) - 1, width))
        case UInt8(ascii: "J"): eraseInDisplay(value())
        case UInt8(ascii: "K"): eraseInLine(value())
        case UInt8(ascii: "X"):
            for i in x..<min(width, x + count()) { cells[y][i] = " " }
        case UInt8(ascii: "@"):
            let n = min(count(), width - x)
            cells[y].insert(contentsOf: Array(repeating: " ", count: n), at: x)
            cells[y].removeLast(n)
        case UInt8(ascii: "P"):
            let n = min(count(), width - x)
            cells[y].removeSubrange(x..<(x + n))
            cells[y].append(contentsOf: Array(repeating: " ", count: n))
        case UInt8(ascii: "L"): if (top...bottom).contains(y) { scrollDown(count(), from: y) }
        case UInt8(ascii: "M"): if (top...bottom).contains(y) { scrollUp(count(), from: y) }
        case UInt8(ascii: "S"): scrollUp(count(), from: top)
        case UInt8(ascii: "T"): scrollDown(count(), from: top)
        case UInt8(ascii: "b"):
            pendingWrap = before
            if let c = lastPrinted { for _ in 0..<min(count(), width * height) { put(c) } }
        case UInt8(ascii: "r"):
            let t = clamp(count(0) - 1, height)
            let b = fields.indices.contains(1) && fields[1] != nil ? clamp(fields[1]! - 1, height) : height - 1
            if t < b { (top, bottom) = (t, b) }
            (x, y) = (0, 0)
        case UInt8(ascii: "n"):
            if value() == 6 { replies.append(Array("\u{1B}[\(y + 1);\(x + 1)R".utf8)) }
            pendingWrap = before
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            if value() == 4 { inserting = final == UInt8(ascii: "h") }
            pendingWrap = before
        case UInt8(ascii: "s"): saved = (x, y)
        case UInt8(ascii: "u"): (x, y) = saved
        default:
            // SGR (`m`) and the rest: nothing the model keeps.
            pendingWrap = before
        }
    }

    private func clamp(_ v: Int, _ limit: Int) -> Int { min(max(0, v), limit - 1) }

    // MARK: Drawing

    /// Draws one character (a grapheme's scalars) at the cursor, wrapping as xterm does.
    private mutating func put(_ s: String) {
        guard let first = s.unicodeScalars.first else { return }
        let w = DisplayWidth.of(scalar: first)
        if w == 0 {
            // A combining mark joins the cell before it.
            let (cx, cy) = x > 0 && !pendingWrap ? (x - 1, y) : (x, y)
            cells[cy][cx] += s
            return
        }
        if pendingWrap || x + w > width {
            pendingWrap = false
            x = 0
            lineFeed()
        }
        if inserting {
            cells[y].insert(contentsOf: Array(repeating: " ", count: w), at: x)
            cells[y].removeLast(w)
        }
        cells[y][x] = s
        if w == 2, x + 1 < width { cells[y][x + 1] = "" }
        lastPrinted = s
        if x + w >= width {
            x = width - 1
            pendingWrap = true
        } else {
            x += w
        }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if y == bottom {
            scrollUp(1, from: top)
        } else if y < height - 1 {
            y += 1
        }
    }

    private mutating func reverseIndex() {
        pendingWrap = false
        if y == top { scrollDown(1, from: top) } else if y > 0 { y -= 1 }
    }

    /// Rows `from…bottom` move up `n`; blank rows come in at the bottom of the scrolling region.
    private mutating func scrollUp(_ n: Int, from start: Int) {
        let n = min(n, bottom - start + 1)
        cells.removeSubrange(start..<(start + n))
        cells.insert(contentsOf: Array(repeating: blankRow, count: n), at: bottom - n + 1)
    }

    /// Rows `from…bottom` move down `n`; blank rows come in at `from`.
    private mutating func scrollDown(_ n: Int, from start: Int) {
        let n = min(n, bottom - start + 1)
        cells.removeSubrange((bottom - n + 1)...bottom)
        cells.insert(contentsOf: Array(repeating: blankRow, count: n), at: start)
    }

    private var blankRow: [String] { Array(repeating: " ", count: width) }

    private mutating func eraseInLine(_ mode: Int) {
        switch mode {
        case 0: for i in x..<width { cells[y][i] = " " }
        case 1: for i in 0...x { cells[y][i] = " " }
        default: cells[y] = blankRow
        }
    }

    private mutating func eraseInDisplay(_ mode: Int) {
        switch mode {
        case 0:
            eraseInLine(0)
            for r in (y + 1)..<height { cells[r] = blankRow }
        case 1:
            eraseInLine(1)
            for r in 0..<y { cells[r] = blankRow }
        default:
            for r in 0..<height { cells[r] = blankRow }
        }
    }

    /// DEC special graphics (`ESC ( 0`): the box-drawing letters as the characters a terminal shows.
    private static let lineDrawing: [Character: Character] = [
        "j": "┘", "k": "┐", "l": "┌", "m": "└", "n": "┼", "q": "─", "t": "├", "u": "┤", "v": "┴", "w": "┬", "x": "│",
        "a": "▒", "`": "◆", "f": "°", "g": "±", "~": "·", "o": "⎺", "s": "⎽", "y": "≤", "z": "≥", "{": "π", "|": "≠",
        "}": "£", "0": "█"
    ]
}
