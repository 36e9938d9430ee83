import Foundation
import ObjectGraph
import Testing

@testable import BurrowApp
@testable import Outline

/// Tasks on screen: a row shows its state and priority before the title and its date before the count
/// (underlined when past), `t` cycles the state, `,` the priority, Space moves a task's state with done.
struct TaskKeysTests {
    /// 2026-11-29 12:00 UTC.
    static let noon = Date(timeIntervalSince1970: 1_795_953_600)

    private func harness(height: Int = 7) throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.perform {
            let ids = try o.append(titles: ["Review", "Call Bob", "Plain"], to: try o.root().objectID)
            let review = try #require(try o.context.existingObject(for: ids[0]) as? Item)
            review.extras = OutlineNode.Extras(state: "TODO", priority: "B", scheduled: "2026-12-01")
            let call = try #require(try o.context.existingObject(for: ids[1]) as? Item)
            call.extras = OutlineNode.Extras(state: "TODO", deadline: "2026-11-20")
        }
        let h = try AppHarness(width: 40, height: height, outline: o)
        h.app.timeZone = TimeZone(identifier: "UTC")!
        h.app.now = { Self.noon }
        h.draw()
        return h
    }

    /// Today's date is kept between frames only while the clock's second and the zone stay: a clock past
    /// midnight, or another zone, gives the new day at the next frame.
    @Test func todayFollowsTheClockAndTheZone() throws {
        let h = try harness()
        #expect(h.app.today() == "2026-11-29")
        h.app.now = { Self.noon.addingTimeInterval(12 * 3600 - 1) }
        #expect(h.app.today() == "2026-11-29")
        h.app.now = { Self.noon.addingTimeInterval(12 * 3600) }
        #expect(h.app.today() == "2026-11-30")
        h.app.timeZone = TimeZone(identifier: "America/New_York")!
        #expect(h.app.today() == "2026-11-29")
        h.app.now = { Date(timeIntervalSince1970: .nan) }
        #expect(h.app.today() == "1969-12-31")
    }

    @Test func rowsShowStatePriorityAndDate() throws {
        let h = try harness()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] TODO [#B] Review             Dec 1
             [ ] TODO Call Bob           due Nov 20
             [ ] Plain

                                             ?: help
            """)
        // The past deadline of a task not done is in the overdue style; a future date is not.
        let overdue = h.backend.cell(x: 35, y: 3)
        #expect(overdue.style.attributes.contains(.underline))
        #expect(!h.backend.cell(x: 35, y: 2).style.attributes.contains(.underline))
    }

    @Test func tCyclesTheStateAndCommaThePriority() throws {
        let h = try harness()
        try h.press("j j t")
        #expect(h.app.statusText == "TODO: “Plain”")
        try h.press("t")
        #expect(h.app.statusText == "DONE: “Plain”")
        #expect(h.backend.lines[4].hasPrefix(" [x] DONE Plain"), "\(h.backend.lines[4])")
        try h.press("t")
        #expect(h.app.statusText == "No state: “Plain”")
        #expect(h.backend.lines[4].hasPrefix(" [ ] Plain"), "\(h.backend.lines[4])")
        try h.press(", ,")
        #expect(h.app.statusText == "Priority B: “Plain”")
        #expect(h.backend.lines[4].hasPrefix(" [ ] [#B] Plain"), "\(h.backend.lines[4])")
        // Undo names what it undid and puts the priority back.
        try h.press("u")
        #expect(h.app.statusText?.hasPrefix("Undid: Give priority B to “Plain”") == true, "\(h.app.statusText ?? "")")
        #expect(h.backend.lines[4].hasPrefix(" [ ] [#A] Plain"), "\(h.backend.lines[4])")
    }

    @Test func spaceMovesATasksStateWithDone() throws {
        let h = try harness()
        try h.press("<Space>")
        #expect(h.backend.lines[2].hasPrefix(" [x] DONE [#B] Review"), "\(h.backend.lines[2])")
        let review = try #require(try h.outline.children(of: try h.outline.root()).first)
        #expect(review.state == "DONE" && review.extras?.closed != nil)
        try h.press("<Space>")
        #expect(h.backend.lines[2].hasPrefix(" [ ] TODO [#B] Review"), "\(h.backend.lines[2])")
        #expect(review.extras?.closed == nil)
    }

    @Test func theDetailsPaneShowsTheTask() throws {
        let h = try harness(height: 16)
        try h.press("I")
        #expect(h.backend.lines.contains { $0.hasPrefix("TODO · priority B · planned 2026-12-01") }, "\(h.backend.lines)")
    }

    /// The capture line says what it will take before Enter, and the item gets it.
    @Test func captureTakesTheTokens() throws {
        let h = try harness()
        try h.press("a")
        h.type("Pay rent !A due:fri")
        #expect(h.backend.lines.last?.contains("→ priority A · due 2026-12-04") == true, "\(h.backend.lines.last ?? "")")
        try h.press("<Enter> <Esc>")
        #expect(h.app.statusText == "Added “Pay rent” · priority A · due 2026-12-04")
        #expect(h.backend.lines[5].hasPrefix(" [ ] [#A] Pay rent"), "\(h.backend.lines)")
        #expect(h.backend.lines[5].hasSuffix("due Dec 4"), "\(h.backend.lines)")
    }

    /// Tags come after the title (and its note's mark) on a row, cut where the title would have less than
    /// 12 cells; a captured `#tag` is the item's; another process's tagging redraws the row.
    @Test func rowsShowTagsAndCaptureTakesThem() throws {
        let h = try harness()
        try h.press("a")
        h.type("Call Ann #work #[[big project]]")
        #expect(h.backend.lines.last?.contains("→ #work · #big project") == true, "\(h.backend.lines.last ?? "")")
        try h.press("<Enter> <Esc>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] TODO [#B] Review             Dec 1
             [ ] TODO Call Bob           due Nov 20
             [ ] Plain
             [ ] Call Ann #work #big project
            Added “Call Ann” · #work · #big… ?: help
            """)
        // Tagged by another process: the row follows, as it does a rename.
        let other = Outline(context: Context(store: h.outline.context.store))
        let plain = try #require(try other.children(of: try other.root()).first { $0.title == "Plain" }).objectID
        try other.perform { try other.setTags(plain, ["a-very-long-tag-name", "more"]) }
        h.tick()
        #expect(h.backend.lines[4] == " [ ] Plain #a-very-long-tag-name…", "\(h.backend.lines[4])")
    }
}
