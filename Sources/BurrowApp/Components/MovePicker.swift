import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// The move picker (`M`): the items that move, every title read once when it opened, the filter, and the best
/// matches shown. Typing filters every item by title (fuzzy, best first, each with its path); the keymap's
/// move-picker keys choose (↑/↓, Ctrl-P/Ctrl-N, since letters go to the filter), confirm moves the selection
/// to the end of the chosen item's sub-items as one undoable action, cancel leaves. A class, so that typing
/// narrows its (possibly long) list of matches in place.
final class MovePicker: Panel {
    /// The items that move: the outermost of the selection.
    let items: [App.Named]
    /// Every item, read when the picker opened: a snapshot (another process's changes since are not in it;
    /// the move checks the destination again as stored).
    let index: TitleIndex
    /// Where the moving items are in `index`: they and everything below them are no destination.
    let moving: Set<Int32>
    /// By position: true for the moving items and everything below them, which are never offered.
    private let excluded: [Bool]
    var field = TextField()
    /// Every match of `filtered`, in outline order: the next letter typed narrows these instead of every title.
    private var matches: [TitleIndex.Match] = []
    /// The query `matches` are for, folded; nil before the first filtering.
    private var filtered: [Character]?
    /// The best matches, best first: the picker's rows.
    private(set) var shown: [TitleIndex.Match] = []
    /// The selected row and scroll of `shown`.
    var list = ListState()

    /// How many of the best matches one can scroll through: enough to browse, few enough to sort per key.
    static let rowLimit = 1000

    init(items: [App.Named], index: TitleIndex) {
        self.items = items
        self.index = index
        moving = index.positions(of: Set(items.map(\.id)))
        excluded = index.within(moving)
        refilter()
    }

    /// Matches the filter's text again after it changed: narrowed from the last matches when the new text
    /// only adds to it (a title that matches more letters matches fewer), else a scan of every title.
    func refilter() {
        let query = Array(FuzzyMatch.fold(field.text))
        if let filtered, query == filtered { return }
        let match = FuzzyMatch(field.text)
        if let filtered, query.starts(with: filtered) {
            matches = index.matches(match, among: matches)
        } else {
            matches = index.matches(match).filter { !excluded[Int($0.position)] }
        }
        filtered = query
        shown = TitleIndex.best(matches, limit: Self.rowLimit)
        list = ListState(selected: shown.isEmpty ? nil : 0)
    }

    /// How many items match the filter (the rows are the best `rowLimit` of them).
    var matchCount: Int { matches.count }

    /// The item chosen: its position in `index`.
    var chosen: Int? { list.selected.flatMap { $0 < shown.count ? Int(shown[$0].position) : nil } }

    /// True when the item at `position` is one that moves or below one: it cannot take them.
    func isMoving(_ position: Int) -> Bool { index.isWithin(position, moving) }

    func move(by delta: Int) { list.move(by: delta, count: shown.count) }

    /// Opens the picker on the outermost of `app`'s selection, reading every title once (see `TitleIndex`);
    /// nil, with the reason on the status line, when there is nothing to move.
    static func open(in app: App) -> MovePicker? {
        do {
            let items = try app.outermostSelection()
            guard !items.isEmpty else {
                app.status = .info("Nothing to move here")
                return nil
            }
            let picker = MovePicker(items: items, index: try app.outline.titleIndex())
            app.status = .info("Moving \(app.describe(items))")
            return picker
        } catch {
            app.fail("Cannot list the items to move to", error)
            return nil
        }
    }

    /// A key while the picker is open: choosing keys move the choice, confirm and cancel end it, the rest
    /// edit the filter.
    func handle(_ key: Key, in app: App) -> Bool {
        let page = ListView.pageSize(height: MovePickerView.listArea(in: app.layout.help).height)
        let command = app.keymap.command(for: key, in: .picker)
        switch command {
        case .confirm: return !moveToChosen(in: app)
        case .cancel:
            app.status = nil
            return false
        case .moveUp: move(by: -1)
        case .moveDown: move(by: 1)
        case .pageUp: move(by: -page)
        case .pageDown: move(by: page)
        default:
            if App.edit(&field, key, command, in: .picker) == .edited { refilter() }
        }
        return true
    }

    func paste(_ text: String, in app: App) {
        field.insert(text)
        refilter()
    }

    func settle(_ layout: Layout, in app: App) {
        ListView(count: shown.count).scroll(&list, height: MovePickerView.listArea(in: layout.help).height)
        field.scrollToCursor(width: MovePickerView.fieldArea(in: layout.help).width)
    }

    func render(into frame: inout Frame, layout: Layout, in app: App) {
        frame.cursor = MovePickerView(picker: self, theme: app.theme).render(into: &frame.buffer, area: layout.help)
        if let area = layout.details { app.detailsPane.render(into: &frame.buffer, area: area, theme: app.theme, timeZone: app.timeZone) }
    }

    func hint(in app: App) -> String { app.hints([(.confirm, "move"), (.cancel, "cancel")], in: .picker) }

    /// Confirm: moves the items to the end of the chosen item's sub-items; true when the picker is done. A
    /// destination that moves (or is below an item that does) is refused as the picker read it, with the
    /// picker left open; then again as stored, inside the unit of work, since another process may have moved
    /// things since.
    private func moveToChosen(in app: App) -> Bool {
        guard let position = chosen else {
            app.status = .info("No item matches: nothing to move to")
            return false
        }
        let target: App.Named = (index.ids[position], index.titles[position])
        guard !isMoving(position) else {
            app.status = .error("\(app.quoted(target.title)) is being moved, or is inside what is: choose another")
            return false
        }
        app.mode = .browse
        let destination = position == 0 ? "the top level" : app.quoted(target.title)
        var result = TransferResult()
        var moved: [App.Named] = []
        let items = self.items
        let done = app.perform("Move \(app.describe(items)) to \(destination)", naming: items + [target]) {
            result = try app.outline.move(items.map(\.id), to: .last(under: target.id))
            moved = items.filter { result.sources.contains($0.id) }
            guard !result.items.isEmpty else { throw ItemGone(id: items[0].id, title: items[0].title) }
            app.outline.setActionName("Move \(app.describe(moved)) to \(destination)")
            return result.items.first
        }
        if done { app.status = .info("Moved \(app.describe(moved)) to \(destination)\(app.missingNote(result.missing, of: items))") }
        return true
    }
}
