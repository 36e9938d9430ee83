import BurrowSettings
import Outline
import TerminalKit

/// The move picker (`M`), over the capture line and the list: the filter on the first row, then the best
/// matches, each title followed by its path (dim, cut from the left so the nearest parents stay). The items
/// that move, and everything below them, are dim: they cannot take the move.
///
/// For example, at 40 columns with `wo` typed:
/// ```
/// Move to: wo
///  Work
///  Homework  Burrow › Home
/// ```
struct MovePickerView {
    let picker: MovePicker
    var theme = Theme.standard

    static let prompt = "Move to: "

    /// Where the filter's text goes in the picker's `area`.
    static func fieldArea(in area: Rect) -> Rect {
        let promptWidth = DisplayWidth.of(prompt)
        return Rect(x: area.x + promptWidth, y: area.y, width: max(0, area.width - promptWidth), height: min(1, area.height))
    }

    /// Where the matches go in the picker's `area`: below the filter.
    static func listArea(in area: Rect) -> Rect {
        Rect(x: area.x, y: area.y + 1, width: area.width, height: max(0, area.height - 1))
    }

    /// Draws the picker from its settled state; returns the cursor (in the filter).
    func render(into buffer: inout Buffer, area: Rect) -> Position? {
        buffer.fill(area)
        guard area.height > 0 else { return nil }
        buffer.write(Self.prompt, at: area.origin, style: theme.prompt, maxWidth: area.width)
        var field = picker.field
        let cursor = field.render(into: &buffer, area: Self.fieldArea(in: area), focused: true, placeholder: "")
        let list = Self.listArea(in: area)
        guard !list.isEmpty else { return cursor }
        if picker.shown.isEmpty {
            let hint = "No item matches " + "“" + Sanitizer.visible(picker.field.text) + "”"
            buffer.write(DisplayWidth.truncate(hint, to: list.width - 1), at: Position(x: list.x + 1, y: list.y), style: theme.hint)
            return cursor
        }
        var state = picker.list
        ListView(count: picker.shown.count).render(into: &buffer, area: list, state: &state) { row, buffer in
            let position = Int(picker.shown[row.index].position)
            let dim = picker.isMoving(position)
            let title = Sanitizer.visible(picker.index.titles[position])
            let room = max(0, row.area.width - 1)
            let used = buffer.write(
                DisplayWidth.truncate(title, to: room), at: Position(x: row.area.x + 1, y: row.area.y), style: dim ? theme.hint : .plain,
                maxWidth: room)
            let path = picker.index.path(of: position).map { Sanitizer.visible($0) }.joined(separator: " › ")
            let left = room - used - 2
            if position == 0 || !path.isEmpty, left > 0 {
                let text = position == 0 ? "top level" : DisplayWidth.truncateLeading(path, to: left)
                buffer.write(text, at: Position(x: row.area.x + 1 + used + 2, y: row.area.y), style: theme.hint, maxWidth: left)
            }
        }
        return cursor
    }
}
