import TerminalKit

/// How wide the terminal draws characters made of several visible code points, which neither the C library
/// nor ncurses can measure: ZWJ sequences (a family), flags (two regional indicators) and emoji with a skin
/// tone. Terminals differ (tmux 3.3a joins the first two into two cells but draws a skin tone as two more), so
/// the terminal is asked once, with the first frame: each sample is written at the start of a row, then the
/// cursor position is requested (`ESC [ 6 n`); the answers arrive among the keys. Until they do (and in a
/// terminal that never answers), such characters are drawn as a stand-in of the same width.
struct ClusterProbe: Sendable {
    /// The kinds of cluster a terminal may or may not draw as one character.
    enum Kind: CaseIterable, Sendable {
        case joined, flag, modified

        var sample: String {
            switch self {
            case .joined: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
            case .flag: "\u{1F1EB}\u{1F1F7}"
            case .modified: "\u{1F44D}\u{1F3FD}"
            }
        }

        /// The kind of a character with several visible code points; nil for any other.
        init?(_ scalars: String.UnicodeScalarView) {
            if scalars.contains(where: { $0.value == 0x200D }) {
                self = .joined
            } else if let first = scalars.first, (0x1F1E6...0x1F1FF).contains(first.value) {
                self = .flag
            } else if scalars.contains(where: { (0x1F3FB...0x1F3FF).contains($0.value) }) {
                self = .modified
            } else {
                return nil
            }
        }
    }

    /// Where the question stands: not asked yet (before the first frame), asked, or every kind answered.
    enum State: Sendable { case unasked, asked, answered }

    /// The cells the terminal took for each kind's sample; a kind it did not answer for is missing.
    var widths: [Kind: Int] = [:]
    var state = State.unasked

    /// The screen row (from 0) of the first sample. Not the top row: the answer `ESC [ 1 ; 3 R` is also how
    /// xterm sends Alt-F3, which terminfo lists; no key is sent as `ESC [ 2 ; …R` to `ESC [ 4 ; …R`.
    static let firstRow = 1

    /// The bytes that ask: each sample at the start of its row, then a cursor position request; then the
    /// cursor back at `cursorAfter`, where ncurses believes it is. Nil (and nothing asked) on a screen too
    /// small to hold the samples.
    mutating func request(screen: Size, cursorAfter: Position) -> String? {
        guard state == .unasked, screen.height >= Self.firstRow + Kind.allCases.count, screen.width >= 12 else { return nil }
        state = .asked
        var request = ""
        for (i, kind) in Kind.allCases.enumerated() {
            request += "\u{1B}[\(Self.firstRow + i + 1);1H\(kind.sample)\u{1B}[6n"
        }
        return request + "\u{1B}[\(cursorAfter.y + 1);\(cursorAfter.x + 1)H"
    }

    /// Takes a cursor position report (1-based, as the terminal sends it) that arrived among the keys; true
    /// when it answers the question, false when it is something else (a key such as Shift-F3, say).
    mutating func take(row: Int, column: Int) -> Bool {
        guard state == .asked else { return false }
        let index = row - 1 - Self.firstRow
        guard Kind.allCases.indices.contains(index), column >= 1 else { return false }
        widths[Kind.allCases[index]] = column - 1
        if widths.count == Kind.allCases.count { state = .answered }
        return true
    }

    /// The `ESC [ row ; column R` reports in `bytes`, in order (anything else, such as a key typed meanwhile,
    /// is skipped).
    static func cursorReports(in bytes: [UInt8]) -> [(row: Int, column: Int)] {
        var out: [(row: Int, column: Int)] = []
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") else {
                i += 1
                continue
            }
            var j = i + 2
            var numbers = [0]
            while j < bytes.count, bytes[j] == UInt8(ascii: ";") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) {
                if bytes[j] == UInt8(ascii: ";") {
                    numbers.append(0)
                } else {
                    numbers[numbers.count - 1] = min(10_000, numbers[numbers.count - 1] * 10 + Int(bytes[j] - UInt8(ascii: "0")))
                }
                j += 1
            }
            if j < bytes.count, bytes[j] == UInt8(ascii: "R"), numbers.count == 2 {
                out.append((numbers[0], numbers[1]))
            }
            i = j
        }
        return out
    }
}
