import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// The agenda: overdue tasks once, each day's planned and due tasks (a task under both of its days), done
/// ones left out; read through the indexes of planned and due days, not by reading every item.
@Suite struct AgendaTests {
    @Test func daysAndOverdue() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.perform {
            let top = try o.root().objectID
            let project = try o.append("Project", to: top)
            for line in [
                "TODO Late due:2030-05-24 sched:2030-05-20", "Plan sched:2030-06-02 14:00", "Early sched:2030-06-02 8:30",
                "Both sched:2030-06-03 due:2030-06-04", "DONE Finished sched:2030-06-02", "Far sched:2030-07-01", "Plain"
            ] {
                try o.append(captured: line, to: project, today: "2030-06-02")
            }
        }
        let agenda = try o.agenda(from: "2030-06-02", days: 3)
        #expect(agenda.overdue.map(\.row.title) == ["Late"])
        #expect(agenda.overdue[0].path == ["Project"])
        // Listed by the earlier of its days: planned the 20th, due the 24th.
        #expect(!agenda.overdue[0].isDeadline)
        #expect(agenda.days.map(\.day) == ["2030-06-02", "2030-06-03", "2030-06-04"])
        #expect(agenda.days.map { $0.entries.map(\.row.title) } == [["Early", "Plan"], ["Both"], ["Both"]])
        #expect(agenda.days[0].entries.map(\.time) == ["08:30", "14:00"])
        #expect(agenda.days[2].entries[0].isDeadline && !agenda.days[1].entries[0].isDeadline)
        #expect(try o.agenda(from: "not a day", days: 3) == Agenda(overdue: [], days: []))
    }

    /// The agenda's condition is answered from the two sparse indexes (SQLite's OR of two index searches).
    @Test func theAgendaReadsThroughItsIndexes() throws {
        let dir = TemporaryDirectory("agenda")
        _ = try Store(path: dir.path("a.sqlite"), model: OutlineModel.model)
        let plan = try DatabaseQueue(path: dir.path("a.sqlite")).read { db in
            try Row.fetchAll(
                db, sql: #"EXPLAIN QUERY PLAN SELECT "id" FROM "Item" WHERE ("deadline" < ? OR "scheduled" < ?) AND "done" IS ?"#,
                arguments: ["2030-06-05", "2030-06-05", false]
            ).map { $0["detail"] as String }
        }
        #expect(plan.joined().contains("og_ix_Item_deadline") && plan.joined().contains("og_ix_Item_scheduled"), "\(plan)")
    }
}
