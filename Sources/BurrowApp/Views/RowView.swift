import BurrowSettings
import Outline
import TerminalKit

/// One item of a level: indented two cells per depth when it is inside an open item, a done box, the title
/// cut to the width, a `¶` after it when the item has a note, and the number of sub-items with a `›` for
/// items that have any (`▾` when they are open beneath it).
///
/// For example: ` [ ] Groceries ¶                   12 ›`, or `✂[ ] Groceries` once cut.
struct RowView {
    let row: ItemRow
    var depth = 0
    /// Cut with `m`, waiting for `p`: marked with ✂ before its box, its title dim.
    var isCut = false

    /// Cells of indentation per depth; deep rows stop indenting where a title would have no room.
    static func indent(_ depth: Int, width: Int) -> Int { min(depth * 2, max(0, width - 12)) }
    var theme = Theme.standard

    /// What marks an item with a note: one cell wide in every terminal, and not a character titles use.
    static let noteMark = " ¶"

    func render(into buffer: inout Buffer, area full: Rect) {
        let indent = Self.indent(depth, width: full.width)
        let area = Rect(x: full.x + indent, y: full.y, width: full.width - indent, height: full.height)
        buffer.write(row.isDone ? " [x] " : " [ ] ", at: area.origin)
        if isCut { buffer.write("✂", at: area.origin, style: theme.hint, maxWidth: 1) }
        let marker = row.childCount > 0 ? " \(row.childCount) \(row.isExpanded ? "▾" : "›") " : ""
        let markerWidth = DisplayWidth.of(marker)
        // The note's mark keeps its place after the title: the title is cut first.
        let note = row.hasNote ? Self.noteMark : ""
        let noteWidth = min(DisplayWidth.of(note), max(0, area.width - 5 - markerWidth))
        let room = max(0, area.width - 5 - markerWidth - noteWidth)
        let title = DisplayWidth.truncate(row.title, to: room)
        let used = buffer.write(
            title, at: Position(x: area.x + 5, y: area.y),
            style: isCut ? theme.hint : row.isDone ? theme.done : .plain, maxWidth: room)
        if noteWidth > 0 {
            let x = area.x + 5 + min(room, used)
            buffer.write(note, at: Position(x: x, y: area.y), style: theme.count, maxWidth: noteWidth)
        }
        if markerWidth > 0 {
            buffer.write(marker, at: Position(x: area.maxX - markerWidth, y: area.y), style: theme.count)
        }
    }
}
