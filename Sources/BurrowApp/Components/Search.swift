import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// Searching (`/`, `n`, `N`): the search line while it is open (its text, and its results following the text
/// as it is typed: each hit with its path, the matched text highlighted, the exact count on the status line),
/// and the last search, which `n`/`N` step through in outline order. Its keys are the keymap's search-line
/// section and the text keys; ↑/↓ choose, Enter shows the chosen hit in its level, Esc leaves the outline as
/// it was.
final class Search: Component, Panel {
    /// The text of the open search line.
    var field = TextField()
    /// The results while the line is open (nil while closed).
    private(set) var panel: SearchPanel?
    /// The last search gone to: its text, its matches in outline order (found as `n` reaches them), and the
    /// one shown.
    private(set) var last: (query: String, results: SearchResults)?
    private(set) var index = 0

    let commands: Set<Command> = [.search, .nextMatch, .previousMatch]

    /// True while the open line has results to show (drawn over the level).
    var showsResults: Bool { panel?.results != nil }

    var showsLevel: Bool { !showsResults }

    func run(_ command: Command, in app: App) {
        switch command {
        case .search: open(in: app)
        case .nextMatch: step(by: 1, in: app)
        case .previousMatch: step(by: -1, in: app)
        default: break
        }
    }

    /// The texts searched for and gone to this session, oldest first: ↑ on an empty line brings them back.
    private(set) var history: [String] = []
    /// Which of `history` the line holds, while it holds one unchanged.
    private var recalled: Int?

    /// Opens an empty search line (the last search's text is one ↑ away).
    private func open(in app: App) {
        field = TextField()
        recalled = nil
        panel = SearchPanel()
        app.mode = .panel(self)
        refresh(in: app)
    }

    /// A key while the search line is open; false when it closed.
    func handle(_ key: Key, in app: App) -> Bool {
        guard let panel else { return false }
        let page = ListView.pageSize(height: app.layout.list.height)
        let command = app.keymap.command(for: key, in: .search)
        do {
            switch command {
            case .confirm:
                goToChosenHit(in: app)
                return false
            case .cancel:
                self.panel = nil
                app.status = nil
                return false
            case .moveUp where isRecalling: recall(by: -1, in: app)
            case .moveDown where isRecalling && recalled != nil: recall(by: 1, in: app)
            case .moveUp: try panel.move(by: -1, in: app.outline)
            case .moveDown: try panel.move(by: 1, in: app.outline)
            case .pageUp: try panel.move(by: -page, in: app.outline)
            case .pageDown: try panel.move(by: page, in: app.outline)
            default:
                if App.edit(&field, key, command, in: .search) == .edited { refresh(in: app) }
            }
        } catch {
            app.fail("Cannot search", error)
        }
        return true
    }

    /// ↑ and ↓ go through the history while the line is empty or holds a recalled text unchanged; once
    /// there is typing of one's own, they choose among the hits.
    private var isRecalling: Bool {
        if let recalled { return field.text == history[recalled] }
        return field.text.isEmpty && !history.isEmpty
    }

    /// The text `by` older (-1) or newer (1) than the one on the line; past the newest, an empty line.
    private func recall(by step: Int, in app: App) {
        let next = (recalled ?? history.count) + step
        guard next >= 0 else { return }
        if next < history.count {
            recalled = next
            field = TextField(text: history[next])
        } else {
            recalled = nil
            field = TextField()
        }
        refresh(in: app)
    }

    /// Keeps `query` as the newest of the history (once).
    private func remember(_ query: String) {
        guard !query.isEmpty else { return }
        history.removeAll { $0 == query }
        history.append(query)
        if history.count > 100 { history.removeFirst() }
    }

    /// The outliner leaving with the line open: the results go with it.
    func leave(in app: App) { panel = nil }

    /// Pasted text goes into the line, and the results follow it.
    func paste(_ text: String, in app: App) {
        field.insert(text)
        refresh(in: app)
    }

    /// Searches the text typed so far: a screenful of hits in outline order and the count.
    private func refresh(in app: App) {
        guard let panel else { return }
        let query = field.text.trimmingCharacters(in: .whitespaces)
        do {
            try panel.search(query, in: app.outline, rows: max(1, app.layout.list.height))
        } catch {
            app.fail("Cannot search", error)
            return
        }
        panel.generation = app.outline.generation
        showCount(in: app)
    }

    /// The open results list after another process committed: the same text searched again once per change
    /// taken in (never per frame), the chosen hit kept by ID, the count updated.
    func settle(in app: App) {
        // Only while the line is open: the results of a line that closed are never searched again.
        guard app.mode.panel(Search.self) === self, let panel, panel.results != nil else { return }
        let generation = app.outline.generation
        guard panel.generation != generation else { return }
        panel.generation = generation
        do {
            try panel.refresh(in: app.outline, rows: max(1, app.layout.list.height))
        } catch {
            app.fail("Cannot search", error)
            return
        }
        showCount(in: app)
    }

    /// Scrolls the results list and the line as drawing them at `layout` would.
    func settle(_ layout: Layout, in app: App) {
        if let panel, panel.results != nil { ListView(count: panel.hits.count).scroll(&panel.list, height: layout.list.height) }
        field.scrollToCursor(width: layout.captureField.width)
    }

    /// The line in the capture line's place; the results over the level (the level while there are none).
    func render(into frame: inout Frame, layout: Layout, in app: App) {
        frame.buffer.write("/", at: layout.capture.origin, style: app.theme.prompt)
        var copy = field
        frame.cursor = copy.render(into: &frame.buffer, area: layout.captureField, focused: true, placeholder: "")
        if let panel, panel.results != nil {
            SearchResultsView(panel: panel, query: field.text.trimmingCharacters(in: .whitespaces), theme: app.theme)
                .render(into: &frame.buffer, area: layout.list)
        } else if let cursor = app.renderLevel(into: &frame.buffer, area: layout.list) {
            frame.cursor = cursor
        }
        if let area = layout.details { app.detailsPane.render(into: &frame.buffer, area: area, theme: app.theme, timeZone: app.timeZone) }
    }

    func hint(in app: App) -> String { app.hints([(.confirm, "go"), (.cancel, "back")], in: .search) }

    /// The status line under the results: how many hits the text has (at least, until counted).
    private func showCount(in app: App) {
        guard let results = panel?.results else {
            app.status = nil
            return
        }
        let query = results.query
        if !results.isCounted {
            app.status = .info("\(results.count)+ matches…")
            return
        }
        app.status = .info(
            results.count == 0 ? "Nothing contains \(app.quoted(query))" : "\(results.count) match\(results.count == 1 ? "" : "es")")
    }

    /// True when the open results' first screen is drawn and their exact count is still to be made.
    var countIsDue: Bool { panel?.countIsDue == true }

    /// Counts the open results' hits (the whole index read; 10–20 ms at a million items), after the frame that
    /// showed their first screen and only when no key is waiting then: a key that comes first searches again
    /// instead; one that comes while it counts waits for it.
    func countAfterFrame(in app: App) {
        guard let panel, panel.countIsDue else { return }
        // Once, even when it fails or there is nothing to count: the loop must not try again and again.
        panel.countIsDue = false
        guard let results = panel.results else { return }
        do {
            try results.countAll()
        } catch {
            app.fail("Cannot count the matches", error)
            return
        }
        showCount(in: app)
    }

    /// Enter: the chosen hit (the first by default) in its level; `n`/`N` go on from it.
    private func goToChosenHit(in app: App) {
        let open = panel
        app.mode = .browse
        panel = nil
        guard let open, let results = open.results else { return }
        last = (results.query, results)
        remember(field.text.trimmingCharacters(in: .whitespaces))
        do {
            try results.countAll()
        } catch {
            app.fail("Cannot count the matches", error)
        }
        guard let chosen = open.list.selected, chosen < open.hits.count else {
            app.status = .info("Nothing contains \(app.quoted(results.query))")
            return
        }
        let hit = open.hits[chosen]
        let exists: Bool
        do {
            exists = try app.outline.row(hit.id) != nil
        } catch {
            app.fail("Cannot show the match", error)
            return
        }
        guard exists else {
            index = results.ordered.firstIndex(of: hit.id) ?? 0
            app.status = .info("\(app.quoted(hit.title)) was deleted meanwhile · \(app.keymap.label(for: .nextMatch) ?? "n"): next match")
            return
        }
        show(results.ordered.firstIndex(of: hit.id) ?? 0, in: app)
    }

    /// Goes to the next (or previous) match of the last search, wrapping around; matches deleted since are
    /// skipped. Further hits are found as the steps reach them.
    private func step(by delta: Int, in app: App) {
        guard let (query, results) = last else {
            app.status = .info("No search yet: \(app.keymap.label(for: .search) ?? "/") searches")
            return
        }
        do {
            try results.countAll()
        } catch {
            app.fail("Cannot search", error)
            return
        }
        guard results.count > 0 else {
            app.status = .info("Nothing contains \(app.quoted(query))")
            return
        }
        do {
            var i = index
            for _ in 0..<results.count {
                i += delta
                if i >= results.ordered.count, !results.isComplete { try results.load(upTo: i + 1) }
                if i >= results.ordered.count { i = 0 }
                if i < 0 {
                    try results.loadAll()
                    i = results.ordered.count - 1
                }
                guard i >= 0, i < results.ordered.count else { break }
                if try app.outline.row(results.ordered[i]) != nil {
                    show(i, in: app)
                    return
                }
            }
        } catch {
            app.fail("Cannot search", error)
            return
        }
        app.status = .info("The matches of \(app.quoted(query)) are gone")
    }

    private func show(_ i: Int, in app: App) {
        guard let results = last?.results, i < results.ordered.count else { return }
        index = i
        let id = results.ordered[i]
        // A done item while done items are hidden would land on a level that does not show it: they are shown
        // (for this session; the stored choice stays), and the status line says why.
        var shown = ""
        if app.doneFilter.hidesDone, app.storedRow(id)?.isDone == true {
            app.doneFilter.apply(false, in: app)
            shown = " · done items shown (\(app.keymap.label(for: .hideDone) ?? "H") hides them)"
        }
        app.reveal(id)
        let keys = [app.keymap.label(for: .nextMatch), app.keymap.label(for: .previousMatch)].compactMap { $0 }.joined(separator: "/")
        // Counted by now unless counting failed (logged): then the place alone is shown.
        let of = results.isCounted ? " of \(results.count)" : ""
        app.status = .info("\(app.quoted(results.query)): match \(i + 1)\(of) · \(keys): next/previous" + shown)
    }
}
