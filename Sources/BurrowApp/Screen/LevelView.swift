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
    /// Its rows are grouped by day (the agenda's): each day's first row is labelled in a gutter.
    var showsDays = false
    /// What an item captured here is given so that it shows in the view: the query's tags and state.
    var captureTags: [String] = []
    var captureState: String? = nil

    /// The items `query` matches (see `ItemQuery`), in the order they were made; never the top item `root`
    /// (left out by its ID, which every index holds: a condition on one of its columns made SQLite read each
    /// matching row, 68 ms for a tag's 20,000 items among a million, 12 ms without).
    static func query(_ query: ItemQuery, title: String? = nil, root: ObjectID) -> LevelView {
        LevelView(
            title: title ?? query.source, request: FetchRequest(Item.entityName, where: query.predicate && Property("id") != root.rowID),
            emptyText: "Nothing matches \(query.source)", query: query.source, captureTags: query.tags, captureState: query.state)
    }

    /// The tasks not done that are planned or due up to `last` (a day, `2026-12-06`), overdue first, by day.
    static func agenda(through last: String, next: String) -> LevelView {
        let request = Outline.agendaRequest(before: next)
        return LevelView(title: "Agenda to \(last)", request: request, emptyText: "Nothing planned or due", showsDays: true)
    }

    /// How wide the day gutter is: `Wed Dec 31 ` and a blank.
    static let dayGutter = 11

    /// The day a row is on the agenda: the earlier of its planned and due days.
    static func agendaDay(of row: ItemRow) -> String? {
        Item.agendaDay(scheduled: row.scheduled, deadline: row.deadline)
    }

    /// The section of `day` against `today`: every past day is one, "Overdue".
    static func section(of day: String?, today: String) -> String? {
        guard let day else { return nil }
        return day < today ? "overdue" : day
    }

    /// A section's label: `Overdue`, `Today`, `Tomorrow`, `Tue Dec 1`.
    static func label(of section: String, today: String) -> String {
        if section == "overdue" { return "Overdue" }
        if section == today { return "Today" }
        if section == Outline.day(today, plus: 1) { return "Tomorrow" }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let m = Int(section.dropFirst(5).prefix(2)), (1...12).contains(m), let d = Int(section.suffix(2)) else { return section }
        return Agenda.weekday(section) + " " + months[m - 1] + " \(d)"
    }

    /// A capture line as typed here, with what makes its item show in the view: the agenda plans it for
    /// today unless it names a day, a tag's view tags it, a search of one state gives it that state.
    func captureLine(_ line: String, today: String, workflow: Workflow) -> String {
        let read = CaptureLine(line, today: today, workflow: workflow).extras
        var out = line
        if showsDays && read?.scheduled == nil && read?.deadline == nil { out += " sched:today" }
        for tag in captureTags where !(read?.tags.contains(tag) ?? false) {
            // `#[[…]]` for a tag `#word` cannot name (`big project`, `2024`).
            out += CaptureLine.tag("#" + tag) == tag ? " #" + tag : " #[[" + tag + "]]"
        }
        if let state = captureState, read?.state == nil { out = state + " " + out }
        return out
    }
}
