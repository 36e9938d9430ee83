import TerminalKit

/// One item of a level: a done box, the title cut to the width, and the number of sub-items with a `›`
/// for items that have any.
///
/// For example: ` [ ] Groceries                     12 ›`.
struct RowView {
    let title: String
    let isDone: Bool
    let childCount: Int

    func render(into buffer: inout Buffer, area: Rect) {
        buffer.write(isDone ? " [x] " : " [ ] ", at: area.origin)
        let marker = childCount > 0 ? " \(childCount) › " : ""
        let markerWidth = DisplayWidth.of(marker)
        let room = max(0, area.width - 5 - markerWidth)
        buffer.write(DisplayWidth.truncate(title, to: room), at: Position(x: area.x + 5, y: area.y),
                     style: isDone ? Theme.done : .plain, maxWidth: room)
        if markerWidth > 0 {
            buffer.write(marker, at: Position(x: area.maxX - markerWidth, y: area.y), style: Theme.count)
        }
    }
}
