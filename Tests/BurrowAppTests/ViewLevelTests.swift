import Foundation
import ObjectGraph
import Testing

@testable import BurrowApp
@testable import Outline

/// Views are levels: the agenda (`=`), a tag's items (`#`, `:tag`), a search (`:find`) and a saved search (an
/// item that keeps a query) open like any level, show items from everywhere live, and Enter goes to an
/// item's own place.
struct ViewLevelTests {
    /// 2026-11-29 12:00 UTC.
    static let noon = Date(timeIntervalSince1970: 1_795_953_600)

    private func harness(width: Int = 44, height: Int = 10) throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.perform {
            let top = try o.root().objectID
            let work = try o.append("Work", to: try o.resolve(top))
            try o.append(captured: "TODO Review code #work due:2026-12-02", to: work.objectID, today: "2026-11-29")
            try o.append(captured: "TODO Call Bob #work sched:2026-11-30", to: work.objectID, today: "2026-11-29")
            try o.append(captured: "TODO Pay rent #home due:2026-11-20", to: top, today: "2026-11-29")
            try o.append(captured: "DONE Ship #work due:2026-11-29", to: top, today: "2026-11-29")
            try o.append(captured: "TODO Far away due:2027-03-01", to: top, today: "2026-11-29")
        }
        let h = try AppHarness(width: width, height: height, outline: o)
        h.app.timeZone = TimeZone(identifier: "UTC")!
        h.app.now = { Self.noon }
        h.draw()
        return h
    }

    @Test func theAgendaShowsWhatIsDueByDayAndGoesToItsPlace() throws {
        let h = try harness(width: 56)
        try h.press("=")
        h.expect(
            """
            Burrow › Agenda to 2026-12-05
            + Add to Burrow…
            Overdue     [ ] TODO Pay rent #home          due Nov 20
            Tomorrow    [ ] TODO Call Bob #work              Nov 30
            Wed Dec 2   [ ] TODO Review code #work        due Dec 2




                                                             ?: help
            """)
        // Another edit anywhere reaches it live: Review becomes done, so it leaves; a new task arrives.
        try h.outline.perform {
            let review = try #require(try h.outline.items(matching: ItemQuery("review", today: "2026-11-29")).first)
            try h.outline.setState(review, to: "DONE")
            try h.outline.append(captured: "TODO Dentist sched:2026-12-01", to: try h.outline.root().objectID, today: "2026-11-29")
        }
        _ = h.app.poll()
        h.draw()
        // Each day's first row is labelled: the overdue together, then by day.
        #expect(
            h.backend.lines[2...5].map { $0.trimmingCharacters(in: .whitespaces) } == [
                "Overdue     [ ] TODO Pay rent #home          due Nov 20", "Tomorrow    [ ] TODO Call Bob #work              Nov 30",
                "Tue Dec 1   [ ] TODO Dentist                      Dec 1", ""
            ])
        // Structural keys are refused with a word; Enter goes to the item's own level, back returns.
        try h.press("j >")
        #expect(h.app.statusText?.hasPrefix("A view shows items from everywhere") == true, "\(h.app.statusText ?? "")")
        try h.press("<Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "Agenda to 2026-12-05", "Work"])
        #expect(h.app.top.selectedRow?.title == "Call Bob")
        try h.press("h")
        #expect(h.app.breadcrumbs == ["Burrow", "Agenda to 2026-12-05"])
    }

    @Test func aTagsItemsAndASavedSearch() throws {
        let h = try harness()
        // `#` on an item with tags: its first tag's items, from everywhere.
        try h.press("j #")
        #expect(h.app.breadcrumbs == ["Burrow", "#home"])
        #expect(h.app.top.count == 1 && h.app.top.selectedRow?.title == "Pay rent")
        try h.press("h")
        try h.press(":")
        h.type("tag work")
        try h.press("<Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "#work"])
        #expect((0..<h.app.top.count).map { h.app.top.row(at: $0).title } == ["Review code", "Call Bob", "Ship"])
        // A capture in a tag view adds at the top, tagged: it shows here at once.
        try h.press("a")
        h.type("Plan")
        try h.press("<Enter> <Esc>")
        #expect((0..<h.app.top.count).map { h.app.top.row(at: $0).title }.last == "Plan")
        #expect(h.app.statusText == "Added “Plan” · #work", "\(h.app.statusText ?? "")")
        // A search, kept as an item: Enter on it opens it again.
        try h.press("h :")
        h.type("find state:TODO #work")
        try h.press("<Enter>")
        #expect(h.app.top.count == 2, "Review code and Call Bob")
        try h.press(":")
        h.type("save Work to do")
        try h.press("<Enter>")
        #expect(h.app.statusText?.hasPrefix("Kept “Work to do”") == true, "\(h.app.statusText ?? "")")
        try h.press("~ G")
        #expect(h.app.top.selectedRow?.title == "Work to do")
        try h.press("<Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "Work to do"])
        #expect(h.app.top.count == 2)
        // Captured in a search of one state and a tag: given both, so it shows there.
        try h.press("a")
        h.type("Draft !B")
        try h.press("<Enter> <Esc>")
        #expect(h.app.top.count == 3 && h.app.statusText == "Added “Draft” · TODO · priority B · #work", "\(h.app.statusText ?? "")")
        // In the agenda, for today unless the line names a day.
        try h.press("~ =")
        try h.press("a")
        h.type("Dentist")
        try h.press("<Enter> <Esc>")
        #expect((0..<h.app.top.count).map { h.app.top.row(at: $0).title }.contains("Dentist"))
        // A query that cannot be read says why.
        try h.press(":")
        h.type("find due:someday")
        try h.press("<Enter>")
        #expect(h.app.statusText?.hasPrefix("Cannot read the query") == true, "\(h.app.statusText ?? "")")
    }

    /// A parent shows how many of the tasks among its sub-items are done, as Org's `[1/2]`, kept as they change.
    @Test func parentsShowTheirTasksProgress() throws {
        let h = try harness()
        #expect(h.backend.lines[2].hasPrefix(" [ ] Work [0/2]"), "\(h.backend.lines[2])")
        try h.press("l <Space>")
        try h.press("h")
        #expect(h.backend.lines[2].hasPrefix(" [ ] Work [1/2]"), "\(h.backend.lines[2])")
        // A plain sub-item is no task: not counted.
        try h.outline.perform { _ = try h.outline.append(titles: ["Note to self"], to: try #require(h.app.top.selectedID)) }
        _ = h.app.poll()
        h.draw()
        #expect(h.backend.lines[2].hasPrefix(" [ ] Work [1/2]") && h.backend.lines[2].hasSuffix("3 ›"), "\(h.backend.lines[2])")
    }

    /// In a level far longer than the screen, every parent shown has its figures, wherever the screen goes
    /// (they are read around the screen, not for the whole level), and a change from another program reaches
    /// a parent already drawn.
    @Test func progressIsShownAllTheWayDownALongLevelAndKeptLive() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        var lastTask: ObjectID?
        try o.perform {
            let top = try o.root().objectID
            for i in 0..<300 {
                let parent = try o.append("P\(i)", to: try o.resolve(top)).objectID
                lastTask = try o.append(captured: "TODO t\(i)", to: parent, today: "2026-11-29")
                if i % 3 == 0 { try o.append(captured: "DONE d\(i)", to: parent, today: "2026-11-29") }
            }
        }
        let h = try AppHarness(width: 30, height: 8, outline: o)
        let figures = { (i: Int) in i % 3 == 0 ? "[1/2]" : "[0/1]" }
        var seen = Set<Int>()
        func check() {
            for line in h.backend.lines[2..<7] {
                guard let title = line.split(separator: " ").first(where: { $0.hasPrefix("P") }), let i = Int(title.dropFirst()) else { continue }
                #expect(line.contains(figures(i)), "\(line)")
                seen.insert(i)
            }
        }
        for _ in 0..<299 {
            try h.press("j")
            check()
        }
        // Back to the top in one jump, and down again: rows read long ago and rows never read.
        try h.press("g g")
        check()
        try h.press("G")
        check()
        #expect(seen.count == 300)
        #expect(h.backend.lines[6].hasPrefix(" [ ] P299 [0/1]"), "\(h.backend.lines)")
        // Another program finishes P299's task: its row, already drawn with its figures, shows the new ones.
        let other = Outline(context: Context(store: store))
        try other.perform { try other.setState(try #require(lastTask), to: "DONE") }
        _ = h.app.poll()
        h.draw()
        #expect(h.backend.lines[6].hasPrefix(" [ ] P299 [1/1]"), "\(h.backend.lines)")
    }

    /// Tags a `#word` cannot name (several words, a number first) are one tag in their view and in what is
    /// captured there; an item that keeps a query but has sub-items opens them.
    @Test func tagsOfSeveralWordsOrDigits() throws {
        let h = try harness()
        try h.outline.perform {
            let top = try h.outline.root().objectID
            let report = try h.outline.append("Report", to: try h.outline.resolve(top)).objectID
            try h.outline.setTags(report, ["big project", "2024"])
            let kept = try h.outline.appendSavedSearch("Kept", query: "#work", to: top)
            _ = try h.outline.append(titles: ["Inside"], to: kept)
        }
        _ = h.app.poll()
        try h.press("G k #")
        #expect(h.app.breadcrumbs == ["Burrow", "#big project"])
        #expect(h.app.top.count == 1 && h.app.top.selectedRow?.title == "Report")
        try h.press("h :")
        h.type("tag 2024")
        try h.press("<Enter> a")
        h.type("Plan")
        try h.press("<Enter> <Esc>")
        #expect((0..<h.app.top.count).map { h.app.top.row(at: $0).title } == ["Report", "Plan"])
        try h.press("~ G k <Enter>")
        #expect(
            h.app.breadcrumbs == ["Burrow", "Kept"] && h.app.top.selectedRow?.title == "Inside",
            "\(h.app.breadcrumbs) \(h.app.top.selectedRow?.title ?? "")")
    }

    /// What is done in a view is recorded at the item's own place: undone from there, it comes back there.
    @Test func undoOfAnActionInAViewGoesToTheItemsPlace() throws {
        let h = try harness()
        try h.press(":")
        h.type("find review")
        try h.press("<Enter> d d")
        #expect(h.app.top.count == 0)
        try h.press("~ <Enter> u")
        #expect(h.app.breadcrumbs == ["Burrow", "Work"], "\(h.app.breadcrumbs)")
        #expect(h.app.top.selectedRow?.title == "Review code")
        #expect(h.app.statusText?.hasPrefix("Undid: Delete") == true, "\(h.app.statusText ?? "")")
    }
}
