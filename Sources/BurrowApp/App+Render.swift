import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// Draws the whole screen at the frame's size: breadcrumbs, the quick-capture line, the level (or help),
    /// the status line. It changes nothing: the scroll it shows was settled when the state last changed.
    public func render(into frame: inout Frame) {
        render(Layout(size: frame.size, details: detailsPane.isShown), into: &frame)
    }

    /// Draws the screen laid out as `layout`: a function of the state and the layout alone.
    func render(_ layout: Layout, into frame: inout Frame) {
        guard !layout.isTooSmall else {
            renderTooSmall(into: &frame)
            return
        }
        let crumbs = breadcrumbs.map { Sanitizer.visible($0) }
        renderBreadcrumbs(crumbs, into: &frame.buffer, area: layout.breadcrumbs)
        if case .panel(let panel) = mode {
            panel.render(into: &frame, layout: layout, in: self)
        } else {
            // A view's capture adds at the top level.
            let here = top.view == nil ? crumbs.last : crumbs.first
            frame.cursor = renderCapture(into: &frame.buffer, layout: layout, levelTitle: here ?? "")
            if let cursor = renderLevel(into: &frame.buffer, area: layout.list) { frame.cursor = cursor }
            if let area = layout.details { detailsPane.render(into: &frame.buffer, area: area, theme: theme, timeZone: timeZone) }
        }
        renderStatus(into: &frame.buffer, layout: layout)
    }

    private func renderTooSmall(into frame: inout Frame) {
        var lines = ["Terminal too small", "(\(Layout.minimumSize.width)×\(Layout.minimumSize.height) needed)"]
        if let quit = keymap.label(for: .quit) { lines.append("\(quit): quit") }
        let top = max(0, (frame.size.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < frame.size.height {
            let text = DisplayWidth.truncate(line, to: frame.size.width)
            let x = max(0, (frame.size.width - DisplayWidth.of(text)) / 2)
            frame.buffer.write(text, at: Position(x: x, y: top + i), style: theme.hint)
        }
    }

    private func renderBreadcrumbs(_ crumbs: [String], into buffer: inout Buffer, area: Rect) {
        let path = crumbs.joined(separator: " › ")
        buffer.write(DisplayWidth.truncateLeading(path, to: area.width), at: area.origin, style: theme.breadcrumbs, maxWidth: area.width)
    }

    /// Fields are drawn from copies: their scroll was settled for this layout already.
    func renderCapture(into buffer: inout Buffer, layout: Layout, levelTitle: String) -> Position? {
        let area = layout.capture, fieldArea = layout.captureField
        switch mode {
        case .capture(var field):
            buffer.write("›", at: area.origin, style: theme.prompt)
            return field.render(into: &buffer, area: fieldArea, focused: true)
        default:
            buffer.write("+", at: area.origin, style: theme.placeholder)
            let hint = "Add to \(levelTitle)…"
            buffer.write(DisplayWidth.truncate(hint, to: fieldArea.width), at: fieldArea.origin, style: theme.placeholder, maxWidth: fieldArea.width)
            return nil
        }
    }

    /// The level's rows (with an editor row while inserting), or the empty-level hint; returns the cursor
    /// when an editor is open. Only the rows shown are read, each as values.
    func renderLevel(into buffer: inout Buffer, area: Rect) -> Position? {
        let level = top
        let count = level.count
        var editorRow: Int? = nil
        var cursor: Position? = nil
        var state = level.list
        var editorDepth = 0
        if case .insert(_, let placement) = mode {
            switch placement {
            case .below: editorRow = insertionRow(below: level)
            case .firstChild: editorRow = (level.list.selected ?? -1) + 1
            case .above: editorRow = level.list.selected ?? 0
            case .end: editorRow = count
            }
            if case .end = placement {} else { editorDepth = level.selectedDepth }
            if case .firstChild = placement { editorDepth += 1 }
            state.selected = editorRow
        }
        if count == 0 && editorRow == nil {
            let hidden = doneFilter.hidesDone ? doneFilter.hiddenCount : 0
            let hint =
                hidden > 0
                ? "\(hidden) done item\(hidden == 1 ? "" : "s") hidden · \(keymap.label(for: .hideDone) ?? "H"): show · \(keymap.label(for: .capture) ?? "a"): add"
                : stack.count == 1
                    ? "\(keymap.label(for: .capture) ?? "a"): add an item · \(keymap.label(for: .help) ?? "?"): help"
                    : "No sub-items yet · \(keymap.label(for: .capture) ?? "a"): add one · \(keymap.label(for: .back) ?? "h"): back"
            buffer.write(DisplayWidth.truncate(hint, to: area.width - 2), at: Position(x: area.x + 2, y: area.y), style: theme.hint)
            return nil
        }
        // Read once, not per row: the mode is the app's, so each read inside the row closure is checked.
        let range = visualRows
        let today = today()
        let cut: Set<ObjectID> = clipboard.register.map { $0.kind == .cut ? Set($0.items.map(\.id)) : [] } ?? []
        var renaming: (field: TextField, id: ObjectID)? = nil
        if case .rename(let field, let id) = mode { renaming = (field, id) }
        let rows = count + (editorRow == nil ? 0 : 1)
        var drawnDay: (index: Int, section: String?)?
        rowCache.fit(height: area.height)
        // Rows kept by the row cache are current while the generation stays, unless something is unsaved (asked
        // once a frame: it looks at every list of the unit of work).
        let generation = outline.hasUnsavedChanges ? -1 : outline.generation
        ListView(count: rows, selectedStyle: theme.selectedRow).render(into: &buffer, area: area, state: &state) { row, buffer in
            var index = row.index
            if let e = editorRow {
                if index == e {
                    let indent = RowView.indent(editorDepth, width: row.area.width)
                    let area = Rect(x: row.area.x + indent, y: row.area.y, width: row.area.width - indent, height: 1)
                    cursor = renderEditorRow(into: &buffer, area: area)
                    return
                }
                if index > e { index -= 1 }
            }
            // The row kept from a frame before, when nothing it shows can have changed: its item row is neither
            // read from the object again nor copied. (The agenda's days need the item's dates: read as below.)
            if generation >= 0, level.view?.showsDays != true, let id = level.objectID(at: index), renaming?.id != id,
                let childCount = rowCache.keptChildCount(at: index, id: id, generation: generation)
            {
                let progress = childCount > 0 ? taskProgress(of: id, in: level, around: index, height: area.height) : nil
                if let cells = rowCache.keptCells(
                    at: index, depth: level.depth(at: index), isCut: cut.contains(id), today: today, progress: progress, width: row.area.width)
                {
                    buffer.paste(cells, at: row.area.origin)
                    if let range, range.contains(index), index != level.list.selected { buffer.updateStyle(in: row.area, theme.selectedRow) }
                    return
                }
            }
            let (item, depth) = level.entry(at: index)
            var rowArea = row.area
            if level.view?.showsDays == true, rowArea.width > LevelView.dayGutter + 20 {
                // The agenda's days: a label in the gutter on each day's first row (and on the first row shown).
                let section = LevelView.section(of: LevelView.agendaDay(of: item), today: today)
                // Rows are drawn top to bottom: the one drawn before is the row above, unless this is the first.
                let isFirst = drawnDay?.index != index - 1
                defer { drawnDay = (index, section) }
                if let section, isFirst || drawnDay?.section != section {
                    let label = LevelView.label(of: section, today: today)
                    buffer.write(
                        label, at: row.area.origin, style: section == "overdue" ? theme.overdue : theme.breadcrumbs, maxWidth: LevelView.dayGutter - 1
                    )
                }
                rowArea = Rect(x: row.area.x + LevelView.dayGutter, y: row.area.y, width: row.area.width - LevelView.dayGutter, height: 1)
            }
            if var field = renaming?.field, renaming?.id == item.id {
                let indent = RowView.indent(depth, width: row.area.width)
                let area = Rect(x: row.area.x + indent, y: row.area.y, width: row.area.width - indent, height: 1)
                buffer.write(item.isDone ? " [x] " : " [ ] ", at: area.origin)
                cursor = field.render(into: &buffer, area: Layout.rowField(area), focused: true)
            } else {
                let progress = item.childCount > 0 ? taskProgress(of: item.id, in: level, around: index, height: area.height) : nil
                let isCut = cut.contains(item.id)
                let cells = rowCache.row(
                    at: index, item, generation: generation, depth: depth, isCut: isCut, today: today, progress: progress, width: rowArea.width
                ) {
                    cells in
                    RowView(row: item, depth: depth, isCut: isCut, today: today, progress: progress, theme: theme).render(
                        into: &cells, area: cells.area)
                }
                buffer.paste(cells, at: rowArea.origin)
                // The rows of a visual range look selected, as the selected row does.
                if let range, range.contains(index), index != level.list.selected { buffer.updateStyle(in: row.area, theme.selectedRow) }
            }
        }
        return cursor
    }

    /// The progress of the tasks below `id`, row `row` of `level`, which has sub-items. Read with the other
    /// rows around it that have sub-items (a screen above to two below) the first time one of them is shown
    /// after a change of the outline.
    func taskProgress(of id: ObjectID, in level: Level, around row: Int, height: Int) -> (done: Int, total: Int)? {
        if progressCache?.generation != outline.generation || progressCache.map({ $0.asked.count > ProgressCache.limit }) == true {
            progressCache = ProgressCache(generation: outline.generation)
        }
        guard var cache = progressCache else { return nil }
        if !cache.asked.contains(id) {
            var parents = [id]
            let first = max(0, row - height), last = min(level.count, row + 2 * height)
            for index in first..<max(first, last) {
                if let parent = level.parentID(at: index), parent != id, !cache.asked.contains(parent) { parents.append(parent) }
            }
            // Only drawn: figures that cannot be read are shown as none until the outline changes.
            let figures = (try? outline.taskProgress(of: parents)) ?? [:]
            cache.figures.merge(figures) { _, new in new }
            cache.asked.formUnion(parents)
            progressCache = cache
        }
        return cache.figures[id]
    }

    /// Where the editor row of an insert below the selection goes: after the selected item and everything
    /// open beneath it, where the new item will appear.
    func insertionRow(below level: Level) -> Int {
        guard let selected = level.list.selected else { return 0 }
        guard let id = level.selectedID, let open = level.node(of: id), open !== level.root else { return selected + 1 }
        return min(level.count, selected + 1 + open.size)
    }

    private func renderEditorRow(into buffer: inout Buffer, area: Rect) -> Position? {
        guard case .insert(var field, _) = mode else { return nil }
        buffer.write(" [ ] ", at: area.origin)
        return field.render(into: &buffer, area: Layout.rowField(area), focused: true)
    }

    private func renderStatus(into buffer: inout Buffer, layout: Layout) {
        var right: [String] = []
        switch mode {
        case .browse:
            let level = top
            let count = level.count
            if count > layout.list.height, let selected = level.list.selected {
                right.append("\(selected + 1)/\(level.knownCount.map(String.init) ?? "\(count)+")")
            }
            if !pendingKeys.isEmpty { right.append(KeyBinding.label(pendingKeys) + "…") }
            if doneFilter.hidesDone { right.append("\(doneFilter.hiddenCount) done hidden") }
            if clipboard.offersPaste { right.append("\(keymap.label(for: .paste) ?? "p"): paste") }
            // Once: a message that already ends with the help hint ("x does nothing here · ?: help") is enough.
            let help = "\(keymap.label(for: .help) ?? "?"): help"
            if status?.text.hasSuffix(help) != true { right.append(help) }
        case .capture(let field):
            // What Enter will take from the line, before it is pressed: "TODO · priority A · due 2026-12-04".
            if let summary = CaptureLine(field.text, today: today(), workflow: workflowForCapture).summary {
                right.append("→ " + summary)
            }
            right.append(hints([(.confirm, "add"), (.finish, "done")], in: .editor))
        case .rename: right.append(hints([(.confirm, "keep"), (.cancel, "cancel")], in: .editor))
        case .insert: right.append(hints([(.confirm, "add"), (.cancel, "cancel")], in: .editor))
        case .panel(let panel): right.append(panel.hint(in: self))
        case .visual:
            let n = visualRows?.count ?? 0
            right.append(
                ["\(n) row\(n == 1 ? "" : "s")", hints([(.leaveRange, "leave")], in: .visual)].filter { !$0.isEmpty }.joined(separator: " · "))
        }
        // Whatever the mode: the rows on screen stayed put while these arrived out of sight. Not while search
        // results cover the level: the count would seem to be about the hits.
        if let sharing = sharing?.label { right.insert(sharing, at: 0) }
        if top.newAbove.count > 0, mode.panel(Search.self)?.showsResults != true { right.insert("\(top.newAbove.count) new above", at: 0) }
        let message = status.map { Sanitizer.visible($0.text) } ?? ""
        let style = status?.isError == true ? theme.error : theme.status
        StatusBar(left: message, right: right.joined(separator: " · "), style: style, rightStyle: theme.status)
            .render(into: &buffer, area: layout.status)
    }
}
