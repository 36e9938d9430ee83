import BurrowSettings
import TerminalKit

/// The help overlay (`?`): the keymap's sections and bindings, scrolled by the keymap's help-overlay section
/// (j/k, page keys by default); any other key closes it.
final class HelpPanel: Panel {
    let keymap: Keymap
    /// How far it is scrolled.
    private(set) var offset = 0

    init(keymap: Keymap) { self.keymap = keymap }

    func handle(_ key: Key, in app: App) -> Bool {
        let area = app.layout.help
        // It scrolls no further than its last line; a page leaves one line of the last in sight.
        let last = max(0, lines(theme: .standard, width: area.width).count - area.height)
        let page = max(1, area.height - 2)
        switch keymap.command(for: key, in: .help) {
        case .moveDown: offset = min(last, offset + 1)
        case .moveUp: offset = max(0, offset - 1)
        case .pageDown: offset = min(last, offset + page)
        case .pageUp: offset = max(0, offset - page)
        default: return false
        }
        return true
    }

    func hint(in app: App) -> String { "Esc: close" }

    /// The overlay's lines at `width` columns: (text, style). A description too long for its row goes on in
    /// the next ones, under itself, so none is cut.
    func lines(theme: Theme, width: Int) -> [(String, Style)] {
        var out: [(String, Style)] = [(title, theme.helpTitle)]
        let keyColumn = 24
        // The text starts one column in (see `render`).
        let room = width - 1 - keyColumn
        for section in keymap.sections {
            out.append(("", .plain))
            out.append((section.title, theme.helpKeys))
            for b in section.bindings {
                let keys = b.labels.joined(separator: " ")
                let help = room >= 20 ? DisplayWidth.wrap(b.help, width: room) : [b.help]
                out.append(("  " + DisplayWidth.pad(keys, to: keyColumn - 2) + (help.first ?? ""), .plain))
                for more in help.dropFirst() { out.append((String(repeating: " ", count: keyColumn) + more, .plain)) }
            }
        }
        return out
    }

    /// "Keys — j/k scroll, any other key closes", from the overlay's own keys.
    var title: String {
        let scroll = [keymap.label(for: .moveDown, in: .help), keymap.label(for: .moveUp, in: .help)].compactMap { $0 }
        return scroll.isEmpty ? "Keys — any key closes" : "Keys — \(scroll.joined(separator: "/")) scroll, any other key closes"
    }

    func render(into frame: inout Frame, layout: Layout, in app: App) {
        let area = layout.help
        frame.buffer.fill(area)
        let all = lines(theme: app.theme, width: area.width)
        let start = min(offset, max(0, all.count - area.height))
        for (i, line) in all.dropFirst(start).prefix(area.height).enumerated() {
            frame.buffer.write(
                DisplayWidth.truncate(line.0, to: area.width - 1), at: Position(x: area.x + 1, y: area.y + i), style: line.1)
        }
    }
}
