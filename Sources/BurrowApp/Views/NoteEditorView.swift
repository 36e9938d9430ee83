import BurrowSettings
import TerminalKit

/// The note editor in the detail pane: a rule naming the item (untrusted, drawn sanitised), then the text.
///
/// For example:
/// ```
/// ─ Note of “Groceries” ─────────
/// Saturday, before ten, at the
/// market▏
/// ```
struct NoteEditorView {
    let title: String
    var theme = Theme.standard

    /// Draws `area` (a copy: its scroll was settled already) and returns where the cursor goes.
    func render(_ area: TextArea, into buffer: inout Buffer, rule: Rect, text: Rect) -> Position? {
        if !rule.isEmpty {
            let label = DisplayWidth.truncate("─ Note of “" + Sanitizer.visible(title) + "” ", to: rule.width)
            let used = buffer.write(label, at: rule.origin, style: theme.hint, maxWidth: rule.width)
            let rest = max(0, rule.width - used)
            buffer.write(String(repeating: "─", count: rest), at: Position(x: rule.x + used, y: rule.y), style: theme.hint)
        }
        var copy = area
        return copy.render(into: &buffer, area: text, focused: true)
    }
}
