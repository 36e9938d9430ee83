import CNCursesW
import TerminalKit

/// Colour pairs made on demand: ncurses draws with numbered (foreground, background) pairs, and a terminal has
/// a limited number, so each distinct pair a frame uses gets the next number until they run out.
final class CursesColors {
    let enabled: Bool
    private let paletteSize: Int
    private let maxPairs: Int
    private let defaultsAllowed: Bool
    private var pairs: [Key2: Int16] = [:]
    private var next: Int16 = 1

    private struct Key2: Hashable {
        let foreground: Color
        let background: Color
    }

    /// Starts colour when the terminal has it and the user did not set `NO_COLOR`.
    init(noColor: Bool) {
        guard !noColor, has_colors() else {
            enabled = false
            paletteSize = 0
            maxPairs = 0
            defaultsAllowed = true
            return
        }
        start_color()
        defaultsAllowed = use_default_colors() == OK
        enabled = true
        paletteSize = Int(burrow_colors())
        maxPairs = min(Int(burrow_color_pairs()), Int(Int16.max))
    }

    /// The pair number for a style's colours (0, the terminal's default, when there is no colour).
    func pair(for style: Style) -> Int16 {
        guard enabled, style.foreground != .default || style.background != .default else { return 0 }
        let key = Key2(
            foreground: style.foreground.approximated(toPaletteSize: paletteSize),
            background: style.background.approximated(toPaletteSize: paletteSize))
        if let p = pairs[key] { return p }
        guard Int(next) < maxPairs else { return 0 }
        let p = next
        next += 1
        init_pair(p, number(key.foreground, fallback: 7), number(key.background, fallback: 0))
        pairs[key] = p
        return p
    }

    private func number(_ color: Color, fallback: Int16) -> Int16 {
        switch color {
        case .default: return defaultsAllowed ? -1 : fallback
        case .palette(let n): return Int16(n)
        }
    }
}
