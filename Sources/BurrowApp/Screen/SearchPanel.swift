import ObjectGraph
import Outline
import TerminalKit

/// The results of `/` while it is typed: the search for the text so far, the hits read as rows (a
/// screenful at a time, in outline order), and the chosen one. A class, so keys change it in place.
final class SearchPanel {
    /// One hit as drawn: its title, the titles above it, and its note when the title itself does not match.
    struct Hit: Equatable {
        let id: ObjectID
        let title: String
        let path: [String]
        let note: String?
    }

    /// The search for the text typed; nil while the text is empty.
    private(set) var results: SearchResults?
    /// True while `results` wait for their exact count (counted after the frame that shows their first
    /// screen, unless a key comes first; see `Search.countAfterFrame`).
    var countIsDue = false
    /// Rows for the first hits of `results`, in outline order.
    private(set) var hits: [Hit] = []
    /// The chosen row and the list's scroll.
    var list = ListState()
    /// The context's generation when `results` were found: a later one means the outline changed since
    /// (another process committed), and the search runs again (`App.settleSearch`).
    var generation = -1

    /// Searches `text` again (nothing for empty text) and reads the first `rows` hits.
    func search(_ text: String, in outline: Outline, rows: Int) throws {
        hits = []
        list = ListState()
        countIsDue = false
        guard !text.isEmpty else {
            results = nil
            return
        }
        results = try outline.find(text, firstScreen: rows)
        countIsDue = results?.isCounted == false
        try read(upTo: rows, in: outline)
        list = ListState(selected: hits.isEmpty ? nil : 0)
    }

    /// Runs the same search again after the outline changed: at least as many rows as were read, the chosen
    /// hit kept chosen by ID; when it is gone, the nearest hit after it that is still found (else before it).
    /// The chosen row stays where it was on screen when the list allows; on an error the panel stays as it was.
    func refresh(in outline: Outline, rows: Int) throws {
        guard let query = results?.query else { return }
        let before = (results, hits, list, countIsDue)
        let old = hits.map(\.id)
        let chosen = list.selected.flatMap { $0 < old.count ? $0 : nil }
        let offset = list.offset
        do {
            hits = []
            results = try outline.find(query, firstScreen: max(rows, old.count))
            countIsDue = results?.isCounted == false
            try read(upTo: max(rows, old.count), in: outline)
        } catch {
            (results, hits, list, countIsDue) = before
            throw error
        }
        guard !hits.isEmpty else {
            list = ListState()
            return
        }
        var selected = 0
        if let chosen {
            let now = Dictionary(hits.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
            let nearest = [old[chosen]] + old[(chosen + 1)...] + old[..<chosen].reversed()
            selected = nearest.lazy.compactMap { now[$0] }.first ?? min(chosen, hits.count - 1)
        }
        list = ListState(selected: selected, offset: max(0, offset + selected - (chosen ?? 0)))
    }

    /// Reads rows for hits until there are `n` (or every hit); a hit deleted since the search is left out.
    func read(upTo n: Int, in outline: Outline) throws {
        guard let results else { return }
        try results.load(upTo: n)
        var k = hits.count
        while hits.count < n, k < results.ordered.count {
            let id = results.ordered[k]
            k += 1
            guard let row = try outline.row(id) else { continue }
            let titles = try outline.titles(downTo: id)
            var note: String?
            if !SearchHighlight.matched(results.query, in: row.title).contains(true), row.hasNote {
                note = try outline.note(of: id).map { SearchPanel.excerpt(of: $0, around: results.query) }
            }
            hits.append(Hit(id: id, title: row.title, path: Array(titles.dropFirst().dropLast()), note: note))
        }
    }

    /// Moves the choice, reading more hits when it goes past those read.
    func move(by delta: Int, in outline: Outline) throws {
        if let results, let selected = list.selected, selected + delta >= hits.count,
            !results.isComplete || hits.count < results.ordered.count
        {
            try read(upTo: selected + delta + 1, in: outline)
        }
        list.move(by: delta, count: hits.count)
    }

    /// The line of `note` holding the match (its first one), so a hit in a long note shows why it matched.
    static func excerpt(of note: String, around query: String) -> String {
        let lines = note.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
        let line = lines.first { SearchHighlight.matched(query, in: String($0)).contains(true) } ?? lines.first ?? ""
        return String(line)
    }
}
