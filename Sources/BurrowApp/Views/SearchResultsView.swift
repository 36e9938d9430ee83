import BurrowSettings
import ObjectGraph
import TerminalKit

/// The hits of `/` as it is typed, in the list's place: each title with the matched text highlighted,
/// then its path (dim, cut from the left); a hit found in its note shows the note's line after `¶`.
///
/// For example, at 40 columns with `godel` typed:
/// ```
///  Gödel, Escher, Bach  Reading
///  Notes  ¶ about Gödel
/// ```
struct SearchResultsView {
    let panel: SearchPanel
    let query: String
    var theme = Theme.standard

    func render(into buffer: inout Buffer, area: Rect) {
        buffer.fill(area)
        guard area.height > 0 else { return }
        if panel.hits.isEmpty {
            let hint = "Nothing contains “" + Sanitizer.visible(query) + "”"
            buffer.write(DisplayWidth.truncate(hint, to: max(0, area.width - 1)), at: Position(x: area.x + 1, y: area.y), style: theme.hint)
            return
        }
        var state = panel.list
        ListView(count: panel.hits.count, selectedStyle: theme.selectedRow).render(into: &buffer, area: area, state: &state) { row, buffer in
            let hit = panel.hits[row.index]
            let room = max(0, row.area.width - 1)
            var x = row.area.x + 1
            x += write(hit.title, into: &buffer, at: Position(x: x, y: row.area.y), room: room)
            if let note = hit.note, x < row.area.x + 1 + room - 3 {
                x += buffer.write("  ¶ ", at: Position(x: x, y: row.area.y), style: theme.hint, maxWidth: row.area.x + 1 + room - x)
                x += write(note, into: &buffer, at: Position(x: x, y: row.area.y), room: row.area.x + 1 + room - x)
            }
            let left = row.area.x + 1 + room - x - 2
            if !hit.path.isEmpty, left > 0 {
                let path = DisplayWidth.truncateLeading(hit.path.map { Sanitizer.visible($0) }.joined(separator: " › "), to: left)
                buffer.write(path, at: Position(x: x + 2, y: row.area.y), style: theme.hint, maxWidth: left)
            }
        }
    }

    /// Writes `text` with its matched characters highlighted, in at most `room` cells; returns the cells used.
    private func write(_ text: String, into buffer: inout Buffer, at position: Position, room: Int) -> Int {
        var used = 0
        for run in SearchHighlight.runs(query, in: text) where used < room {
            used += buffer.write(
                run.text, at: Position(x: position.x + used, y: position.y), style: run.matched ? theme.match : .plain, maxWidth: room - used)
        }
        return used
    }
}
