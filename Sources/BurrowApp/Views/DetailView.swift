import BurrowSettings
import Foundation
import Outline
import TerminalKit

/// The detail pane: a rule, the item's path (wrapped: the whole title can be read here), what is below it, when it was created and changed, then its
/// note wrapped to the width, scrolled by `offset` lines. Every line is untrusted text, drawn sanitised.
///
/// For example:
/// ```
/// ──────────────────────────────
/// Burrow › Groceries
/// 2 sub-items · 5 below in all
/// Created 2026-11-22 09:15 · changed 09:40
/// Saturday, before ten
/// ```
struct DetailView {
    /// Nil when no item is selected (an empty level).
    let details: ItemDetails?
    /// Nil for this machine's local time.
    let timeZone: TimeZone?
    var theme = Theme.standard

    /// The pane's lines at `width`, before scrolling: the rule stays on top, the rest scrolls.
    func lines(width: Int) -> [String] {
        guard let d = details else { return ["No item selected"] }
        // The path wrapped, so a title too long for its row is read here whole (up to 20 lines: a pasted blob
        // of a title is not wrapped a megabyte at a time on every frame).
        let path = d.path.map { Sanitizer.visible($0) }.joined(separator: " › ")
        // `prefix` walks at most `most` characters: a megabyte is never counted whole.
        let head = path.prefix(max(1, width) * 20)
        var out = DisplayWidth.wrap(head.endIndex < path.endIndex ? String(head.dropLast()) + "…" : path, width: width)
        let subs = d.row.childCount
        out.append(
            d.below == 0
                ? "No sub-items"
                : "\(subs) sub-item\(subs == 1 ? "" : "s") · \(d.below) below in all")
        out.append(times(d))
        if let task = task(d.extras) { out += DisplayWidth.wrap(task, width: width) }
        // The properties an Org drawer gave it, a line each.
        for line in d.extras?.properties?.split(separator: "\n") ?? [] {
            out += DisplayWidth.wrap(Sanitizer.visible(String(line)), width: width)
        }
        if let note = d.note, !note.isEmpty {
            out += DisplayWidth.wrap(note, width: width)
        } else {
            out.append("No note")
        }
        return out
    }

    /// "TODO · priority B · planned 2026-12-01 · due 2026-12-03 -2d · closed 2026-11-20 17:05", nil for a plain item.
    private func task(_ e: OutlineNode.Extras?) -> String? {
        guard let e else { return nil }
        var parts: [String] = []
        if let s = e.state { parts.append(Sanitizer.visible(s)) }
        if let p = e.priority { parts.append("priority " + Sanitizer.visible(p)) }
        if let s = e.scheduled { parts.append("planned " + Sanitizer.visible(s)) }
        if let d = e.deadline { parts.append("due " + Sanitizer.visible(d)) }
        if let c = e.closed { parts.append("closed " + Sanitizer.visible(c)) }
        parts += e.tags.map { "#" + Sanitizer.visible($0) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// "Created 2026-11-22 09:15 · changed 09:40": the day is written again only when it differs.
    private func times(_ d: ItemDetails) -> String {
        let day = { (date: Date) in Outline.minute(date, in: timeZone) }
        let created = d.created.map { "Created \(day($0))" } ?? "Created before times were kept"
        guard let modified = d.modified, modified != d.created else { return created }
        let changed = day(modified)
        let sameDay = d.created.map { day($0).prefix(10) == changed.prefix(10) } ?? false
        return created + " · changed " + (sameDay ? String(changed.suffix(5)) : changed)
    }

    func render(into buffer: inout Buffer, area: Rect, offset: Int) {
        guard area.height > 0 else { return }
        buffer.write(String(repeating: "─", count: area.width), at: area.origin, style: theme.hint, maxWidth: area.width)
        let all = lines(width: area.width)
        let room = area.height - 1
        let shown = all.dropFirst(min(offset, max(0, all.count - 1))).prefix(room)
        for (i, line) in shown.enumerated() {
            let isNote = offset + i >= 3 && details?.note.map { !$0.isEmpty } == true
            buffer.write(
                DisplayWidth.truncate(line, to: area.width), at: Position(x: area.x, y: area.y + 1 + i),
                style: isNote ? .plain : theme.hint, maxWidth: area.width)
        }
        // More below than fits: say so on the last line, where the reader looks next.
        let hidden = all.count - offset - room
        if hidden > 0 {
            let more = " ↓ \(hidden) more · ] "
            buffer.write(more, at: Position(x: area.maxX - DisplayWidth.of(more), y: area.maxY - 1), style: theme.count)
        }
    }
}
