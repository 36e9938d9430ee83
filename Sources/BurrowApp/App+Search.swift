import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// `/`: the results list follows the text as it is typed (each hit with its path, the matched text
/// highlighted, the exact count on the status line); ↑/↓ choose, Enter shows the chosen hit in its level,
/// Esc leaves the outline as it was. `n`/`N` then step through every hit in outline order.
extension App {
    /// Opens the search line with the last search's text, and its results.
    func openSearch() {
        mode = .search(TextField(text: searchQuery ?? ""))
        searchPanel = SearchPanel()
        refreshSearch()
    }

    /// A key while the search line is open.
    func searchKey(_ key: TerminalKit.Key) {
        guard let panel = searchPanel else { return }
        let page = ListView.pageSize(height: layout.list.height)
        let command = keymap.command(for: key, in: .search)
        do {
            switch command {
            case .confirm: goToChosenHit()
            case .cancel:
                mode = .browse
                searchPanel = nil
                status = nil
            case .moveUp: try panel.move(by: -1, in: outline)
            case .moveDown: try panel.move(by: 1, in: outline)
            case .pageUp: try panel.move(by: -page, in: outline)
            case .pageDown: try panel.move(by: page, in: outline)
            default:
                if fieldKey(key, command, in: .search) == .edited { refreshSearch() }
            }
        } catch {
            fail("Cannot search", error)
        }
    }

    /// Searches the text typed so far: a screenful of hits in outline order and the count.
    private func refreshSearch() {
        guard let panel = searchPanel, let text = mode.field?.text else { return }
        let query = text.trimmingCharacters(in: .whitespaces)
        do {
            try panel.search(query, in: outline, rows: max(1, layout.list.height))
        } catch {
            fail("Cannot search", error)
            return
        }
        panel.generation = outline.context.generation
        showCount()
    }

    /// The open results list after another process committed: the same text searched again once per change
    /// taken in (never per frame), the chosen hit kept by ID, the count updated.
    func settleSearch() {
        guard case .search = mode, let panel = searchPanel, panel.results != nil else { return }
        let generation = outline.context.generation
        guard panel.generation != generation else { return }
        panel.generation = generation
        do {
            try panel.refresh(in: outline, rows: max(1, layout.list.height))
        } catch {
            fail("Cannot search", error)
            return
        }
        showCount()
    }

    /// The status line under the results: how many hits the text has.
    private func showCount() {
        guard let results = searchPanel?.results else {
            status = nil
            return
        }
        let query = results.query
        status = .info(results.count == 0 ? "Nothing contains \(quoted(query))" : "\(results.count) match\(results.count == 1 ? "" : "es")")
    }

    /// Enter: the chosen hit (the first by default) in its level; `n`/`N` go on from it.
    private func goToChosenHit() {
        guard let panel = searchPanel, let results = panel.results else {
            mode = .browse
            searchPanel = nil
            return
        }
        mode = .browse
        searchPanel = nil
        searchQuery = results.query
        searchResults = results
        guard let chosen = panel.list.selected, chosen < panel.hits.count else {
            status = .info("Nothing contains \(quoted(results.query))")
            return
        }
        let hit = panel.hits[chosen]
        guard (try? outline.row(hit.id)) != nil else {
            searchIndex = results.ordered.firstIndex(of: hit.id) ?? 0
            status = .info("\(quoted(hit.title)) was deleted meanwhile · \(keymap.label(for: .nextMatch) ?? "n"): next match")
            return
        }
        showMatch(results.ordered.firstIndex(of: hit.id) ?? 0)
    }

    /// Goes to the next (or previous) match of the last search, wrapping around; matches deleted since are
    /// skipped. Further hits are found as the steps reach them.
    func stepMatch(by delta: Int) {
        guard let query = searchQuery, let results = searchResults else {
            status = .info("No search yet: \(keymap.label(for: .search) ?? "/") searches")
            return
        }
        guard results.count > 0 else {
            status = .info("Nothing contains \(quoted(query))")
            return
        }
        do {
            var i = searchIndex
            for _ in 0..<results.count {
                i += delta
                if i >= results.ordered.count, !results.isComplete { try results.load(upTo: i + 1) }
                if i >= results.ordered.count { i = 0 }
                if i < 0 {
                    try results.loadAll()
                    i = results.ordered.count - 1
                }
                guard i >= 0, i < results.ordered.count else { break }
                if try outline.row(results.ordered[i]) != nil {
                    showMatch(i)
                    return
                }
            }
        } catch {
            fail("Cannot search", error)
            return
        }
        status = .info("The matches of \(quoted(query)) are gone")
    }

    private func showMatch(_ index: Int) {
        guard let results = searchResults, index < results.ordered.count else { return }
        searchIndex = index
        reveal(results.ordered[index])
        let keys = [keymap.label(for: .nextMatch), keymap.label(for: .previousMatch)].compactMap { $0 }.joined(separator: "/")
        status = .info("\(quoted(results.query)): match \(index + 1) of \(results.count) · \(keys): next/previous")
    }

    /// Shows the level holding the item `id`, with it selected: the stack keeps the levels it shares with the
    /// way down to it, and opens the rest.
    func reveal(_ id: ObjectID) {
        let chain: [ItemRow]
        do {
            chain = try outline.ancestors(of: id)
        } catch {
            fail("Cannot show the match", error)
            return
        }
        var keep = 1
        while keep < stack.count, keep - 1 < chain.count, stack[keep].parentID == chain[keep - 1].id { keep += 1 }
        if stack.count > keep {
            stack.removeSubrange(keep...)
            do { try top.resume() } catch { fail("Cannot refresh the level", error) }
        }
        for level in chain.dropFirst(keep - 1) {
            do { try push(level) } catch {
                fail("Cannot open \(quoted(level.title))", error)
                return
            }
        }
        top.select(id: id)
    }
}
