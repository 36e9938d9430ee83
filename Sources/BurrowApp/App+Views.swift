import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// Views: levels of the items a query matches wherever they are (a tag's, a search's, the agenda), live as
/// items change anywhere. Enter goes to an item's own place; what only makes sense among real siblings
/// (inserting beside, moving, indenting, folds, pasting) is refused there with a word.
extension App {
    /// The commands a view refuses, and why.
    static let notInViews: [Command: String] = [
        .insertBelow: "insert in the item's own level", .insertAbove: "insert in the item's own level",
        .moveItemUp: "move it in its own level", .moveItemDown: "move it in its own level", .indent: "indent it in its own level",
        .outdent: "outdent it in its own level", .paste: "paste in a level", .pasteAbove: "paste in a level",
        .duplicate: "duplicate it in its own level", .visualRange: "select ranges in a level", .movePicker: "move it from its own level",
        .cut: "cut it from its own level", .openFold: "open it in its own level", .closeFold: "folds are in levels",
        .toggleFold: "open it in its own level", .openAllFolds: "folds are in levels", .closeAllFolds: "folds are in levels"
    ]

    /// Pushes a view level on the stack.
    func openView(_ view: LevelView) {
        do {
            stack.last?.pause()
            let root = try outline.rootRow()
            stack.append(try Level(parent: root, outline: outline, hidesDone: hidesDone, view: view))
            if top.count == 0 { status = .info(view.emptyText) }
        } catch {
            fail("Cannot open \(view.title)", error)
        }
    }

    /// The agenda: tasks not done, planned or due before today plus `days`, by day (the overdue first).
    func openAgenda(days: Int) {
        let today = today()
        guard let next = Outline.day(today, plus: days), let last = Outline.day(today, plus: days - 1) else { return }
        openView(.agenda(through: last, next: next))
    }

    /// The items of the selected item's first tag.
    func openTagOfSelected() {
        guard let row = top.selectedRow else { return }
        guard let tag = row.tags.first else {
            status = .info("\(quoted(row.title)) has no tags · :tag NAME shows any tag's items")
            return
        }
        // As `tag:"…"`: a tag of several words, or one `#word` cannot name (`2024`), is one tag.
        openQuery(#"tag:"\#(tag)""#, title: "#" + tag)
    }

    /// A view of the items `text` (an `ItemQuery`) matches.
    func openQuery(_ text: String, title: String? = nil) {
        do {
            let query = try ItemQuery(text, today: today(), workflow: (try? outline.workflow()) ?? .standard)
            guard query.hasFilters || !query.text.isEmpty else {
                status = .error("Nothing to find: :find state:TODO #work \"text\"")
                return
            }
            openView(.query(query, title: title, root: try outline.root().objectID))
        } catch {
            status = .error("Cannot read the query: \(error)")
        }
    }

    /// From a view row to the item's own level, on top of the view (back returns to it).
    func goToPlace(of row: ItemRow) {
        do {
            let chain = try outline.ancestors(of: row.id)
            let levels = chain.isEmpty ? [try outline.rootRow()] : chain
            for level in levels { try push(level) }
            top.select(id: row.id)
        } catch {
            fail("Cannot go to \(quoted(row.title))", error)
        }
    }

    /// A saved search's query (an item whose properties say `query:: state:TODO #work`); Enter on it opens
    /// its view.
    func savedQuery(of row: ItemRow) -> String? {
        // One with sub-items of its own opens them, as any item does.
        guard row.childCount == 0 else { return nil }
        return (try? outline.savedQuery(of: row.id)) ?? nil
    }

    /// Keeps the query of the view on screen as an item at the end of the top level (a saved search: Enter
    /// on it opens the view again, live), titled `name` or the view's title.
    func saveView(named name: String) {
        guard let view = top.view, let query = view.query else {
            status = .error("Only a search's view can be kept: :find state:TODO #work, then :save Work to do")
            return
        }
        let title = name.isEmpty ? view.title : name
        let rootID = top.parentID
        if perform("Save the search \(quoted(title))", naming: [(rootID, "top")], { try outline.appendSavedSearch(title, query: query, to: rootID) })
        {
            status = .info("Kept \(quoted(title)) at the end of the top level: Enter on it shows \(query)")
        }
    }
}
