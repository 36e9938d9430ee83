import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// `v`: a visual range, from the row where it started (its anchor item) to the selection. Moving keys extend
/// it; `d`, Space, `J`/`K`, `>`/`<`, `M`, `y` and `m` act on every item in it as one undoable action and
/// leave it; Esc or `v` leaves it.
extension App {
    /// The flattened rows of the open visual range (anchor to selection, either way), if one is open.
    var visualRows: ClosedRange<Int>? {
        guard case .visual(let anchor) = mode, let selected = top.list.selected, selected < top.count else { return nil }
        let start = top.flatIndex(of: anchor) ?? selected
        return min(start, selected)...max(start, selected)
    }

    /// The items of the range in screen order, read now (lists scrolled out of view are read again for it).
    var visualItems: [ItemRow] {
        guard let rows = visualRows else { return [] }
        var items: [ItemRow] = []
        for row in rows where row < top.count {
            top.ensureLive(at: row)
            if row < top.count { items.append(top.row(at: row)) }
        }
        return items
    }

    /// A key while a range is open: moving keys extend it, the range commands act on it.
    func visualKey(_ key: TerminalKit.Key) {
        let leave = keymap.label(for: .leaveRange, in: .visual).map { " · \($0): leave it" } ?? ""
        guard let command = keymap.command(for: key, in: .visual) else {
            status = .info("\(key.label) does nothing in a range\(leave)")
            return
        }
        switch command {
        case .moveDown, .moveUp, .first, .last, .pageDown, .pageUp, .halfPageDown, .halfPageUp:
            run(command)
        case .leaveRange, .back, .visualRange:
            // Esc is `back` in the default keys: here it leaves the range, as in vim.
            mode = .browse
            status = nil
        case .delete: deleteRange()
        case .toggleDone: toggleDoneRange()
        case .moveItemUp, .moveItemDown: moveRange(by: command == .moveItemUp ? -1 : 1)
        case .indent: indentRange()
        case .outdent: outdentRange()
        case .copy, .cut:
            run(command)
            if case .visual = mode { mode = .browse }
        case .undo, .redo, .help, .quit:
            // Leave the range and do it, as in browsing.
            mode = .browse
            run(command)
        case .movePicker:
            // The picker takes the range's items as it opens.
            run(command)
            if case .visual = mode { mode = .browse }
        default:
            status = .info("\(key.label) does nothing in a range · d Space J K > < M y m act on it\(leave)")
        }
    }

    /// The range's outermost items (those not inside another one of them), with their titles.
    private func rangeItems() -> [Named]? {
        do {
            let items = try outermostSelection()
            return items.isEmpty ? nil : items
        } catch {
            fail("Cannot read the range", error)
            return nil
        }
    }

    /// "5 items and 12 sub-items", or the one item's name.
    /// Every item an action took, by name: "“A”", "“A” and 3 sub-items", "“A” and “B” (7 items)", "“A”, “B”,
    /// “C” and 4 more (12 items)".
    private func count(_ items: [Named], subItems: Int) -> String {
        if items.count == 1 {
            let what = quoted(items[0].title)
            return subItems == 0 ? what : "\(what) and \(subItems) sub-item\(subItems == 1 ? "" : "s")"
        }
        let shown = items.count <= 4 ? items.count : 3
        let names = items.prefix(shown).map { quoted($0.title) }
        let listed =
            shown == items.count
            ? names.dropLast().joined(separator: ", ") + " and " + names.last!
            : names.joined(separator: ", ") + " and \(items.count - shown) more"
        let total = items.count + subItems
        return shown == items.count && subItems == 0 ? listed : "\(listed) (\(total) items)"
    }

    private func deleteRange() {
        guard let items = rangeItems() else { return }
        mode = .browse
        var what = count(items, subItems: 0)
        if perform(
            "Delete \(what)", naming: items,
            {
                // Counted in the transaction, by the deletes' own walks (a count first read every item's
                // subtree once more): another process may have added sub-items.
                let below: Int
                do {
                    below = try outline.deleteCountingBelow(items.map(\.id))
                } catch let gone as ItemGone {
                    throw ItemGone(id: gone.id, title: items.first { $0.id == gone.id }?.title)
                }
                what = count(items, subItems: below)
                outline.setActionName("Delete \(what)")
                // The place undo comes back to: the first item, selected again when it is restored.
                return items[0].id
            })
        {
            status = .info("Deleted \(what) · \(keymap.label(for: .undo) ?? "u"): undo")
        }
    }

    /// Marks every item of the range done, or all not done when all of them already are.
    private func toggleDoneRange() {
        let rows = visualItems
        guard !rows.isEmpty else { return }
        mode = .browse
        let done = !rows.allSatisfy(\.isDone)
        let what = rows.count == 1 ? quoted(rows[0].title) : "\(rows.count) items"
        if perform(
            (done ? "Mark done " : "Mark not done ") + what, naming: rows.map { ($0.id, $0.title) },
            {
                for row in rows { try outline.setDone(row.id, to: done) }
                return nil
            })
        {
            status = .info((done ? "Done: " : "Not done: ") + what)
        }
    }

    /// The range as a run of siblings in one list: the list and the rows of the first and last; nil (with a
    /// message) when the outermost items are not next to each other under one item.
    private func siblingRun(_ items: [Named]) -> (node: FoldNode, first: Int, last: Int)? {
        guard let first = items.first, let parent = storedParent(of: first.id), let node = top.node(of: parent),
            let list = node.controller
        else {
            status = .info("The range is not in one list")
            return nil
        }
        let ids = Set(items.map(\.id))
        var rows: [Int] = []
        for row in 0..<node.ownCount where ids.contains(list.objectID(at: row)) { rows.append(row) }
        guard rows.count == items.count, let lo = rows.first, let hi = rows.last, hi - lo + 1 == rows.count else {
            status = .info("The range is not one run of items under the same item: choose one that is")
            return nil
        }
        return (node, lo, hi)
    }

    /// J/K: the item below (or above) the range moves to its other side, so the range moves by one.
    private func moveRange(by delta: Int) {
        guard let items = rangeItems(), let (node, first, last) = siblingRun(items), let list = node.controller else { return }
        let target = delta < 0 ? first - 1 : last + 1
        guard target >= 0, target < node.ownCount else {
            status = .info(delta < 0 ? "Already at the top of the list" : "Already at the end of the list")
            return
        }
        let neighbour = list.itemRow(at: target)
        let what = count(items, subItems: 0)
        perform("Move \(what) \(delta < 0 ? "up" : "down")", naming: items + [(neighbour.id, neighbour.title)]) {
            if delta < 0 {
                try outline.move(neighbour.id, after: items[items.count - 1].id)
            } else {
                try outline.move(neighbour.id, before: items[0].id)
            }
            return nil
        }
    }

    /// `>`: the range goes under the item above it, which is opened so the range stays in view.
    private func indentRange() {
        guard let items = rangeItems(), let (node, first, _) = siblingRun(items), let list = node.controller else { return }
        guard first > 0 else {
            status = .info("Nothing above the range to indent it under")
            return
        }
        let above = list.itemRow(at: first - 1)
        let what = count(items, subItems: 0)
        if perform(
            "Indent \(what)", naming: items + [(above.id, above.title)],
            {
                try outline.move(items.map(\.id), to: .last(under: above.id))
                return items[0].id
            })
        {
            mode = .browse
            openAfterMove(above)
            settle()
            top.select(id: items[0].id)
            status = .info("Moved \(what) into \(quoted(above.title))")
        }
    }

    /// `<`: the range goes out of the item it is under, right after it; from the level's own rows, out of the
    /// level (which then shows the level above).
    private func outdentRange() {
        guard let items = rangeItems(), let parent = storedParent(of: items[0].id) else { return }
        guard items.allSatisfy({ storedParent(of: $0.id) == parent }) else {
            status = .info("The range is not in one list")
            return
        }
        let atLevel = parent == top.parentID
        if atLevel && stack.count == 1 {
            status = .info("Already at the top level: nothing to outdent to")
            return
        }
        let owner: Named = (parent, storedRow(parent)?.title ?? "")
        let what = count(items, subItems: 0)
        if perform(
            "Outdent \(what)", naming: items + [owner],
            {
                try outline.move(items.map(\.id), to: .after(parent))
                return items[0].id
            })
        {
            mode = .browse
            // The view stays, as for one item: out of the level shown, the status line says where they went.
            if atLevel {
                let back = keymap.label(for: .back) ?? "h"
                status = .info(
                    "Moved \(what) out to \(quoted(stack[stack.count - 2].lastKnownTitle)), after \(quoted(owner.title)) · \(back): go there")
            } else {
                top.select(id: items[0].id)
                status = .info("Moved \(what) out, after \(quoted(owner.title))")
            }
        }
    }
}
