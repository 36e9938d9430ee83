import ObjectGraph
import Outline
import TerminalKit

/// `M`: the move picker. Typing filters every item by title (fuzzy, best first, each with its path); ↑/↓ (or
/// Ctrl-P/Ctrl-N) choose, since letters go to the filter; Enter moves the selection to the end of the chosen
/// item's sub-items as one undoable action; Esc cancels.
extension App {
    /// Opens the picker on the outermost of the selection, reading every title once (see `TitleIndex`).
    func openMovePicker() {
        do {
            let items = try outermostSelection()
            guard !items.isEmpty else {
                status = .info("Nothing to move here")
                return
            }
            mode = .movePicker(MovePicker(items: items, index: try outline.titleIndex()))
            status = .info("Moving \(describe(items))")
        } catch {
            fail("Cannot list the items to move to", error)
        }
    }

    /// A key while the picker is open: choosing keys move the choice, Enter and Esc end it, the rest edit
    /// the filter.
    func pick(_ key: TerminalKit.Key, in picker: MovePicker) {
        let page = ListView.pageSize(height: MovePickerView.listArea(in: layout.help).height)
        let command = keymap.command(for: key, in: .picker)
        switch command {
        case .confirm: moveToChosen(picker)
        case .cancel:
            mode = .browse
            status = nil
        case .moveUp: picker.move(by: -1)
        case .moveDown: picker.move(by: 1)
        case .pageUp: picker.move(by: -page)
        case .pageDown: picker.move(by: page)
        default:
            if fieldKey(key, command, in: .picker) == .edited { picker.refilter() }
        }
    }

    /// Enter: moves the items to the end of the chosen item's sub-items. A destination that moves (or is
    /// below an item that does) is refused as the picker read it, with the picker left open; then again as
    /// stored, inside the unit of work, since another process may have moved things since.
    private func moveToChosen(_ picker: MovePicker) {
        guard let position = picker.chosen else {
            status = .info("No item matches: nothing to move to")
            return
        }
        let target: Named = (picker.index.ids[position], picker.index.titles[position])
        guard !picker.isMoving(position) else {
            status = .error("\(quoted(target.title)) is being moved, or is inside what is: choose another")
            return
        }
        mode = .browse
        let items = picker.items
        let destination = position == 0 ? "the top level" : quoted(target.title)
        var result = TransferResult()
        var moved: [Named] = []
        let done = perform("Move \(describe(items)) to \(destination)", naming: items + [target]) {
            result = try outline.move(items.map(\.id), to: .last(under: target.id))
            moved = items.filter { result.sources.contains($0.id) }
            guard !result.items.isEmpty else { throw ItemGone(id: items[0].id, title: items[0].title) }
            outline.context.setActionName("Move \(describe(moved)) to \(destination)")
            return result.items.first
        }
        if done { status = .info("Moved \(describe(moved)) to \(destination)\(missingNote(result.missing, of: items))") }
    }
}
