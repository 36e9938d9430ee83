import ObjectGraph
import Outline

/// What a view level shows instead of an item's sub-items: the items a query matches, wherever they are (a
/// tag's, a search's, the agenda's), live as items change anywhere. Enter goes to an item's own place.
struct LevelView {
    /// Its name in the breadcrumbs: `#work`, `Agenda`, `state:TODO due:<7d`.
    let title: String
    /// The items it shows, in its order.
    let request: FetchRequest
    /// What the status line says when it is empty.
    let emptyText: String
    /// The query it shows, when it is a search's (what `:save` keeps).
    var query: String? = nil

    /// The items `query` matches (see `ItemQuery`), in the order they were made.
    static func query(_ query: ItemQuery, title: String? = nil) -> LevelView {
        LevelView(
            title: title ?? query.source, request: FetchRequest(Item.entityName, where: query.predicate && Property("rootMarker").isNil),
            emptyText: "Nothing matches \(query.source)", query: query.source)
    }

    /// The tasks not done that are planned or due up to `last` (a day, `2026-12-06`), overdue first, by day.
    static func agenda(through last: String, next: String) -> LevelView {
        let request = Outline.agendaRequest(before: next)
        return LevelView(title: "Agenda to \(last)", request: request, emptyText: "Nothing planned or due")
    }
}
