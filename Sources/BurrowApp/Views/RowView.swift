import BurrowSettings
import Outline
import TerminalKit

/// One item of a level: indented two cells per depth when it is inside an open item, a done box, a task's
/// state and priority, the title cut to the width, a `¶` after it when the item has a note, the progress of the
/// tasks among its sub-items (`[3/5]`), its tags, its date (the
/// deadline's after "due"; underlined when it is past and the task not done) and the number of sub-items
/// with a `›` for items that have any (`▾` when they are open beneath it).
///
/// For example: ` [ ] TODO [#B] Review ¶ #work   due Dec 1   12 ›`, or `✂[ ] Groceries` once cut.
struct RowView {
    let row: ItemRow
    var depth = 0
    /// Cut with `m`, waiting for `p`: marked with ✂ before its box, its title dim.
    var isCut = false
    /// Today (`2026-11-29`): what a date is shown against.
    var today = ""
    /// How many of the tasks among its sub-items are done, of how many (shown `[3/5]`), when it has any.
    var progress: (done: Int, total: Int)? = nil

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
        // The date goes before the count when the row has room for it and some title.
        var date = Self.date(of: row, today: today)
        if DisplayWidth.of(date.text) > max(0, area.width - 5 - markerWidth - 12) { date.text = "" }
        let dateWidth = DisplayWidth.of(date.text)
        // State and priority before the title, as Org writes them: `TODO [#B] `.
        var task = row.state.map { $0 + " " } ?? ""
        if let priority = row.priority { task += "[#" + priority + "] " }
        let taskWidth = min(DisplayWidth.of(task), max(0, area.width - 5 - markerWidth - dateWidth))
        if taskWidth > 0 {
            buffer.write(
                task, at: Position(x: area.x + 5, y: area.y), style: row.isDone ? theme.done : isCut ? theme.hint : theme.state,
                maxWidth: taskWidth)
        }
        let start = area.x + 5 + taskWidth
        // The note's mark keeps its place after the title: the title is cut first.
        let note = row.hasNote ? Self.noteMark : ""
        let noteWidth = min(DisplayWidth.of(note), max(0, area.width - 5 - taskWidth - markerWidth - dateWidth))
        // Tags after the note's mark, where the row leaves the title 12 cells; cut from their end.
        let tags = (progress.map { " [\($0.done)/\($0.total)]" } ?? "") + row.tags.map { " #" + $0 }.joined()
        let tagsWidth = min(DisplayWidth.of(tags), max(0, area.width - 5 - taskWidth - markerWidth - dateWidth - noteWidth - 12))
        let room = max(0, area.width - 5 - taskWidth - markerWidth - dateWidth - noteWidth - tagsWidth)
        let title = DisplayWidth.truncate(row.title, to: room)
        let used = buffer.write(
            title, at: Position(x: start, y: area.y),
            style: isCut ? theme.hint : row.isDone ? theme.done : .plain, maxWidth: room)
        if noteWidth > 0 {
            let x = start + min(room, used)
            buffer.write(note, at: Position(x: x, y: area.y), style: theme.count, maxWidth: noteWidth)
        }
        if tagsWidth > 0 {
            let x = start + min(room, used) + noteWidth
            buffer.write(DisplayWidth.truncate(tags, to: tagsWidth), at: Position(x: x, y: area.y), style: theme.count, maxWidth: tagsWidth)
        }
        if dateWidth > 0 {
            buffer.write(
                date.text, at: Position(x: area.maxX - markerWidth - dateWidth, y: area.y), style: date.overdue ? theme.overdue : theme.count)
        }
        if markerWidth > 0 {
            buffer.write(marker, at: Position(x: area.maxX - markerWidth, y: area.y), style: theme.count)
        }
    }

    /// ` due Dec 1`, ` Dec 1` (planned), ` today`, a year when it is not this one; and whether it is past for a
    /// task not done. Empty without a date.
    static func date(of row: ItemRow, today: String) -> (text: String, overdue: Bool) {
        guard let day = row.date, day.count == 10 else { return ("", false) }
        let due = row.deadline != nil
        let overdue = !row.isDone && !today.isEmpty && day < today
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let text: String
        if day == today {
            text = "today"
        } else if let month = Int(day.dropFirst(5).prefix(2)), let d = Int(day.suffix(2)), (1...12).contains(month) {
            text = months[month - 1] + " \(d)" + (day.prefix(4) == today.prefix(4) ? "" : " " + day.prefix(4))
        } else {
            text = day
        }
        return (" " + (due ? "due " : "") + text + " ", overdue)
    }
}
