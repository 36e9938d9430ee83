import TerminalKit

/// A model of a terminal's screen, styles included, fed with the bytes a program writes: the sequences an
/// xterm-like terminal takes for cursor addressing, scroll regions, index and reverse index, SGR (attributes,
/// 8, 16 and 256 colours), cursor visibility and automatic margins, with or without the deferred wrap (`xenl`).
/// Anything else is kept in `unknown`, for a test to fail on. Characters are placed by our own widths.
struct StyledScreenModel {
    let width: Int
    let height: Int
    private(set) var cells: [[Cell]]
    private(set) var x = 0
    private(set) var y = 0
    private(set) var cursorVisible = true
    /// Sequences the model does not know.
    private(set) var unknown: [String] = []
    /// How many times the screen (or a region) scrolled, by a line at the bottom margin or writing past it.
    private(set) var scrolls = 0
    private var pen = Style.plain
    private var top = 0
    private var bottom: Int
    private var automaticMargins: Bool
    private let deferredWrap: Bool
    private var pendingWrap = false
    private var bytes: [UInt8] = []

    init(width: Int, height: Int, automaticMargins: Bool = true, deferredWrap: Bool = true) {
        self.width = width
        self.height = height
        self.automaticMargins = automaticMargins
        self.deferredWrap = deferredWrap
        bottom = height - 1
        cells = Array(repeating: Array(repeating: Cell.blank, count: width), count: height)
    }

    mutating func feed(_ input: [UInt8]) {
        bytes = input
        var i = 0
        var text: [UInt8] = []
        func flushText() {
            guard !text.isEmpty else { return }
            for character in String(decoding: text, as: UTF8.self) { put(character) }
            text.removeAll()
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x1B:
                flushText()
                i = escape(at: i)
            case 0x0A:
                flushText()
                lineFeed()
                i += 1
            case 0x0D:
                flushText()
                x = 0
                pendingWrap = false
                i += 1
            case 0x00..<0x20, 0x7F:
                flushText()
                unknown.append("control \(b)")
                i += 1
            default:
                text.append(b)
                i += 1
            }
        }
        flushText()
    }

    /// Parses the sequence starting with ESC at `i`; returns the index after it.
    private mutating func escape(at i: Int) -> Int {
        guard i + 1 < bytes.count else {
            unknown.append("lone ESC")
            return i + 1
        }
        switch bytes[i + 1] {
        case UInt8(ascii: "("):
            // A character set chosen (ESC ( B, the default): nothing to draw.
            return i + 3
        case UInt8(ascii: "M"):
            reverseIndex()
            return i + 2
        case UInt8(ascii: "["):
            var j = i + 2
            var parameters = ""
            while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) {
                parameters.unicodeScalars.append(Unicode.Scalar(bytes[j]))
                j += 1
            }
            guard j < bytes.count else {
                unknown.append("unfinished CSI \(parameters)")
                return j
            }
            csi(parameters, final: Character(Unicode.Scalar(bytes[j])))
            return j + 1
        default:
            unknown.append("ESC \(Character(Unicode.Scalar(bytes[i + 1])))")
            return i + 2
        }
    }

    private mutating func csi(_ parameters: String, final: Character) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func number(_ k: Int, _ fallback: Int) -> Int { k < numbers.count ? numbers[k] ?? fallback : fallback }
        switch (parameters.first == "?", final) {
        case (false, "H"):
            y = min(max(number(0, 1), 1), height) - 1
            x = min(max(number(1, 1), 1), width) - 1
            pendingWrap = false
        case (false, "r"):
            top = number(0, 1) - 1
            bottom = number(1, height) - 1
            (x, y) = (0, 0)
            pendingWrap = false
        case (false, "K") where parameters.isEmpty || parameters == "0":
            // Erased in the default colours only where the pen is plain: a terminal that erases with the
            // current background would draw other blanks.
            if pen != .plain { unknown.append("EL with a pen that is not plain") }
            for column in x..<width { cells[y][column] = .blank }
            pendingWrap = false
        case (false, "m"):
            sgr(numbers.map { $0 ?? 0 })
        case (true, "h"), (true, "l"):
            let on = final == "h"
            switch parameters.dropFirst() {
            case "25": cursorVisible = on
            case "12": break
            case "7": automaticMargins = on
            default: unknown.append("CSI \(parameters)\(final)")
            }
        default:
            unknown.append("CSI \(parameters)\(final)")
        }
    }

    private mutating func sgr(_ codes: [Int]) {
        var k = 0
        let codes = codes.isEmpty ? [0] : codes
        while k < codes.count {
            let c = codes[k]
            switch c {
            case 0: pen = .plain
            case 1: pen.attributes.insert(.bold)
            case 2: pen.attributes.insert(.dim)
            case 4: pen.attributes.insert(.underline)
            case 7: pen.attributes.insert(.reverse)
            case 30...37: pen.foreground = .palette(UInt8(c - 30))
            case 39: pen.foreground = .default
            case 40...47: pen.background = .palette(UInt8(c - 40))
            case 49: pen.background = .default
            case 90...97: pen.foreground = .palette(UInt8(c - 90 + 8))
            case 100...107: pen.background = .palette(UInt8(c - 100 + 8))
            case 38, 48:
                guard k + 2 < codes.count, codes[k + 1] == 5 else {
                    unknown.append("SGR \(codes)")
                    return
                }
                let color = Color.palette(UInt8(clamping: codes[k + 2]))
                if c == 38 { pen.foreground = color } else { pen.background = color }
                k += 2
            default: unknown.append("SGR \(c)")
            }
            k += 1
        }
    }

    private mutating func put(_ character: Character) {
        let w = DisplayWidth.of(character)
        if w == 0 {
            // Joins the character before it.
            let px = max(0, x - 1)
            cells[y][px].symbol += String(character)
            return
        }
        if pendingWrap {
            pendingWrap = false
            x = 0
            lineFeed()
        }
        if x + w > width {
            if automaticMargins {
                x = 0
                lineFeed()
            } else {
                x = width - w
            }
        }
        // Overwriting half of a wide character blanks its other half.
        if cells[y][x].isContinuation, x > 0 { cells[y][x - 1] = .blank(pen) }
        if w == 2, x + 2 < width, cells[y][x + 1].width == 2 { cells[y][x + 2] = .blank(pen) }
        if cells[y][x].width == 2, w == 1, x + 1 < width { cells[y][x + 1] = .blank(pen) }
        cells[y][x] = Cell(String(character), style: pen, width: UInt8(w))
        if w == 2 { cells[y][x + 1] = .continuation(pen) }
        x += w
        if x >= width {
            x = width - 1
            if automaticMargins {
                if deferredWrap {
                    pendingWrap = true
                } else {
                    x = 0
                    lineFeed()
                }
            }
        }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if y == bottom {
            scrollUp()
        } else if y < height - 1 {
            y += 1
        }
    }

    private mutating func reverseIndex() {
        pendingWrap = false
        if y == top {
            scrolls += 1
            cells.remove(at: bottom)
            cells.insert(blankRow(), at: top)
        } else if y > 0 {
            y -= 1
        }
    }

    private mutating func scrollUp() {
        scrolls += 1
        cells.remove(at: top)
        cells.insert(blankRow(), at: bottom)
    }

    /// A row uncovered by scrolling: blank in the current background (xterm's `bce`).
    private func blankRow() -> [Cell] {
        Array(repeating: .blank(Style(background: pen.background)), count: width)
    }
}
