import Outline
import TerminalKit

/// One item of a level: a done box, the title cut to the width, and the number of sub-items with a `›`
/// for items that have any.
///
/// For example: ` [ ] Groceries                     12 ›`.
struct RowView {
    let row: ItemRow

    func render(into buffer: inout Buffer, area: Rect) {
        buffer.write(row.isDone ? " [x] " : " [ ] ", at: area.origin)
        let marker = row.childCount > 0 ? " \(row.childCount) › " : ""
        let markerWidth = DisplayWidth.of(marker)
        let room = max(0, area.width - 5 - markerWidth)
        buffer.write(
            DisplayWidth.truncate(row.title, to: room), at: Position(x: area.x + 5, y: area.y),
            style: row.isDone ? Theme.done : .plain, maxWidth: room)
        if markerWidth > 0 {
            buffer.write(marker, at: Position(x: area.maxX - markerWidth, y: area.y), style: Theme.count)
        }
    }
}
