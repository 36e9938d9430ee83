import ObjectGraph
import Outline
import TerminalKit

/// The move picker's state (`M`): the items that move, every title read once when it opened, the filter, and
/// the best matches shown. A class, so that typing narrows its (possibly long) list of matches in place.
final class MovePicker {
    /// The items that move: the outermost of the selection.
    let items: [App.Named]
    /// Every item, read when the picker opened: a snapshot (another process's changes since are not in it;
    /// the move checks the destination again as stored).
    let index: TitleIndex
    /// Where the moving items are in `index`: they and everything below them are no destination.
    let moving: Set<Int32>
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
            matches = index.matches(match)
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
}
