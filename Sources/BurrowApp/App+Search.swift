import ObjectGraph
import Outline

extension App {
    /// Runs a search from the search line and goes to the first match.
    func search(_ query: String) {
        let text = query.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        do {
            let found = try outline.searchIDs(text)
            searchMatches = found
            searchQuery = text
            guard !found.isEmpty else {
                status = .info("Nothing contains \(quoted(text))")
                return
            }
            // The first match at or after the selection when it is one, else the first.
            let here = top.selectedID.flatMap { id in searchMatches.firstIndex(of: id) }
            showMatch(here ?? 0)
        } catch {
            fail("Cannot search", error)
        }
    }

    /// Goes to the next (or previous) match of the last search, wrapping around; matches deleted since are
    /// skipped.
    func stepMatch(by delta: Int) {
        guard let query = searchQuery else {
            status = .info("No search yet: \(keymap.label(for: .search) ?? "/") searches")
            return
        }
        let n = searchMatches.count
        guard n > 0 else {
            status = .info("Nothing contains \(quoted(query))")
            return
        }
        var i = searchIndex
        for _ in 0..<n {
            i = ((i + delta) % n + n) % n
            if (try? outline.row(searchMatches[i])) != nil {
                showMatch(i)
                return
            }
        }
        status = .info("The matches of \(quoted(query)) are gone")
    }

    private func showMatch(_ index: Int) {
        searchIndex = index
        reveal(searchMatches[index])
        let keys = [keymap.label(for: .nextMatch), keymap.label(for: .previousMatch)].compactMap { $0 }.joined(separator: "/")
        status = .info("\(quoted(searchQuery ?? "")): match \(index + 1) of \(searchMatches.count) · \(keys): next/previous")
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
