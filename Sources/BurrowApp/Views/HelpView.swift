import BurrowSettings
import TerminalKit

/// The help overlay: the keymap's sections and bindings, scrollable.
struct HelpView {
    let keymap: Keymap
    var theme = Theme.standard

    /// The overlay's lines: (text, style).
    var lines: [(String, Style)] {
        var out: [(String, Style)] = [(title, theme.helpTitle)]
        let keyColumn = 24
        for section in keymap.sections {
            out.append(("", .plain))
            out.append((section.title, theme.helpKeys))
            for b in section.bindings {
                let keys = b.labels.joined(separator: " ")
                out.append(("  " + DisplayWidth.pad(keys, to: keyColumn - 2) + b.help, .plain))
            }
        }
        return out
    }

    /// "Keys — j/k scroll, any other key closes", from the overlay's own keys.
    var title: String {
        let scroll = [keymap.helpLabel(for: .moveDown), keymap.helpLabel(for: .moveUp)].compactMap { $0 }
        return scroll.isEmpty ? "Keys — any key closes" : "Keys — \(scroll.joined(separator: "/")) scroll, any other key closes"
    }

    func render(into buffer: inout Buffer, area: Rect, offset: Int) {
        buffer.fill(area)
        let all = lines
        let start = min(offset, max(0, all.count - area.height))
        for (i, line) in all.dropFirst(start).prefix(area.height).enumerated() {
            buffer.write(DisplayWidth.truncate(line.0, to: area.width - 1), at: Position(x: area.x + 1, y: area.y + i), style: line.1)
        }
    }
}
