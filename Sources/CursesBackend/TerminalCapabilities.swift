import CNCursesW

/// What a terminal can do and the bytes that do it, read once from its terminfo description: all a frame's
/// output needs (`FrameWriter`). A missing capability is nil and the writer does without it (no scrolling
/// without a scroll region, no colour without `setaf`).
///
/// For example: `TerminalCapabilities.fromTerminfo(colors: true)` after ncurses has read the description.
struct TerminalCapabilities: Equatable, Sendable {
    /// Cursor addressing (`cup`, row then column from 0); every terminal the outliner starts on has it.
    var cursorAddress: String
    /// The scroll region (`csr`, top and bottom rows from 0), and the moves that scroll it up (`ind`, at its
    /// bottom row) and down (`ri`, at its top row).
    var scrollRegion: String?
    var scrollForward: String?
    var scrollReverse: String?
    /// Attributes off (`sgr0`), and each one on.
    var attributesOff: String?
    var bold: String?
    var dim: String?
    var underline: String?
    var reverse: String?
    /// Colours (`setaf`, `setab`, one number each) and the terminal's own colours back (`op`); `colors` is
    /// the palette's size, 0 when colour is off.
    var foreground: String?
    var background: String?
    var originalPair: String?
    var colors: Int
    /// Whether a colour may be left as the terminal's default (`op` or `oc` exists, as ncurses'
    /// `use_default_colors` asks); otherwise the default is drawn as white on black.
    var defaultColors: Bool
    /// Cursor shown and hidden (`cnorm`, `civis`).
    var cursorVisible: String?
    var cursorInvisible: String?
    /// Automatic margins (`am`): a character written in the last column wraps, and in the bottom right corner
    /// scrolls the screen, unless the terminal defers the wrap (`xenl`) or margins can be turned off for it
    /// (`rmam`, `smam`).
    var automaticMargins: Bool
    var deferredWrap: Bool
    var marginsOff: String?
    var marginsOn: String?
    /// Erase to the end of the line (`el`), in the default colours after attributes off: a row's trailing
    /// blanks in three bytes instead of a byte a cell.
    var clearToEnd: String? = nil

    /// The capabilities of the terminal ncurses set up (`setupterm` or `newterm` before); `colors` false for
    /// none (NO_COLOR, or a terminal without them).
    static func fromTerminfo(colors: Bool) -> TerminalCapabilities? {
        func string(_ name: String) -> String? { burrow_tigetstr(name).map { withoutPadding(String(cString: $0)) } }
        guard let cup = string("cup") else { return nil }
        let foreground = string("setaf"), background = string("setab")
        let palette = Int(burrow_tigetnum("colors"))
        let colorful = colors && foreground != nil && background != nil && palette >= 8
        return TerminalCapabilities(
            cursorAddress: cup, scrollRegion: string("csr"), scrollForward: string("ind"), scrollReverse: string("ri"),
            attributesOff: string("sgr0"), bold: string("bold"), dim: string("dim"), underline: string("smul"), reverse: string("rev"),
            foreground: colorful ? foreground : nil, background: colorful ? background : nil, originalPair: string("op"),
            colors: colorful ? palette : 0, defaultColors: string("op") != nil || string("oc") != nil,
            cursorVisible: string("cnorm"), cursorInvisible: string("civis"),
            automaticMargins: burrow_tigetflag("am") == 1, deferredWrap: burrow_tigetflag("xenl") == 1,
            marginsOff: string("rmam"), marginsOn: string("smam"), clearToEnd: string("el"))
    }

    /// `capability` without its padding (`$<5>`, `$<2*/>`: delays for terminals of the 1980s, which `tputs`
    /// turns into waits or pad bytes): written as it is, `vt100`'s `cup` put `$<5>` on the screen at every move.
    /// A terminal emulator needs no delay, and ncurses skips them too where the line is fast.
    static func withoutPadding(_ capability: String) -> String {
        let bytes = Array(capability.utf8)
        guard bytes.contains(UInt8(ascii: "$")) else { return capability }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "<") {
                var j = i + 2
                var digits = 0
                while j < bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) || bytes[j] == UInt8(ascii: ".")
                        || bytes[j] == UInt8(ascii: "*") || bytes[j] == UInt8(ascii: "/")
                {
                    if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) { digits += 1 }
                    j += 1
                }
                if digits > 0, j < bytes.count, bytes[j] == UInt8(ascii: ">") {
                    i = j + 1
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// xterm's (`TERM=xterm-256color`, ncurses 6.4), for tests that need a terminal without one.
    static let xterm256 = TerminalCapabilities(
        cursorAddress: "\u{1B}[%i%p1%d;%p2%dH", scrollRegion: "\u{1B}[%i%p1%d;%p2%dr", scrollForward: "\n",
        scrollReverse: "\u{1B}M", attributesOff: "\u{1B}(B\u{1B}[m", bold: "\u{1B}[1m", dim: "\u{1B}[2m", underline: "\u{1B}[4m",
        reverse: "\u{1B}[7m", foreground: "\u{1B}[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m",
        background: "\u{1B}[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m", originalPair: "\u{1B}[39;49m",
        colors: 256, defaultColors: true, cursorVisible: "\u{1B}[?12l\u{1B}[?25h", cursorInvisible: "\u{1B}[?25l",
        automaticMargins: true, deferredWrap: true, marginsOff: "\u{1B}[?7l", marginsOn: "\u{1B}[?7h", clearToEnd: "\u{1B}[K")

    /// `capability` with its parameters filled in, as bytes.
    static func format(_ capability: String, _ a: Int, _ b: Int = 0) -> [UInt8] {
        TerminfoFormat.apply(capability, [a, b])
    }
}
