import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Tasks in the outline: the workflow from the outline's settings, states cycled and done kept in step, the
/// closing time, priorities; all undoable.
@Suite(.onAThreadOfItsOwn("tasks")) struct TaskTests {
    func outline(settings: String? = nil) throws -> (Outline, ObjectID, ObjectID) {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        var ids: [ObjectID] = []
        try o.perform {
            let root = try o.root()
            root.note = settings
            ids = try o.append(titles: ["Ship", "Milk"], to: root.objectID)
        }
        return (o, ids[0], ids[1])
    }

    func item(_ o: Outline, _ id: ObjectID) throws -> Item { try #require(try o.context.existingObject(for: id) as? Item) }

    @Test func theWorkflowIsTheOutlinesOwn() throws {
        #expect(try outline().0.workflow() == .standard)
        let (o, ship, _) = try outline(settings: "#+TITLE: Plans\n#+TODO: TODO NEXT | DONE CANCELLED(c)")
        #expect(try o.workflow() == Workflow(todo: ["TODO", "NEXT"], done: ["DONE", "CANCELLED"]))
        var seen: [String?] = []
        var done: [Bool] = []
        for _ in 0..<5 {
            try o.perform { seen.append(try o.cycleState(ship)) }
            done.append(try item(o, ship).isDone)
        }
        #expect(seen == ["TODO", "NEXT", "DONE", "CANCELLED", nil])
        #expect(done == [false, false, true, true, false])
        // Each step is one undoable action.
        try o.context.undo()
        #expect(try item(o, ship).state == "CANCELLED" && item(o, ship).isDone)
    }

    @Test func doneMovesATasksStateAndClosesIt() throws {
        let (o, ship, milk) = try outline(settings: "#+TODO: TODO NEXT | DONE")
        try o.perform {
            try o.setState(ship, to: "NEXT")
            try o.setDone(ship, to: true)
            try o.setDone(milk, to: true)
        }
        let s = try item(o, ship)
        #expect(s.state == "DONE" && s.isDone)
        #expect(s.extras?.closed?.count == 16, "closed now, to the minute: \(s.extras?.closed ?? "nil")")
        // A plain item is done without a state.
        #expect(try item(o, milk).state == nil && item(o, milk).isDone)
        try o.perform { try o.setDone(ship, to: false) }
        #expect(try item(o, ship).state == "TODO" && !item(o, ship).isDone)
        #expect(try item(o, ship).extras?.closed == nil)
    }

    @Test func prioritiesCycle() throws {
        let (o, ship, _) = try outline()
        var seen: [String?] = []
        for _ in 0..<4 { try o.perform { seen.append(try o.cyclePriority(ship)) } }
        #expect(seen == ["A", "B", "C", nil])
        try o.perform { try item(o, ship).priority = "Z" }
        try o.perform { seen.append(try o.cyclePriority(ship)) }
        #expect(seen.last == .some(nil))
    }

    @Test func todayIsTheDayInTheTimeZone() {
        let instant = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06:40 UTC
        #expect(Outline.today(instant, in: TimeZone(identifier: "UTC")!) == "2026-11-18")
        #expect(Outline.today(instant, in: TimeZone(identifier: "Pacific/Kiritimati")!) == "2026-11-19")
        #expect(Outline.today(instant, in: TimeZone(identifier: "America/Los_Angeles")!) == "2026-11-18")
        // 2026-11-19 01:00 UTC is still the 18th in Los Angeles.
        #expect(Outline.today(Date(timeIntervalSince1970: 1_795_050_000), in: TimeZone(identifier: "America/Los_Angeles")!) == "2026-11-18")
    }

    /// The machine's local offset comes from the C library, not `TimeZone.current` (which loads ICU, and may
    /// hold other zone data than the system's): it is what `date` says in the same zone, at instants from 1906
    /// to 2096 and on both sides of each change of offset (on a machine set to UTC this checks little; the
    /// end-to-end test `todayIsTheDayOfTheZoneInTZ` runs the binary in other zones).
    @Test func theLocalOffsetIsWhatDateSays() throws {
        var instants = stride(from: -2_000_000_000, through: 4_000_000_000, by: 997_531).map { $0 }
        var date = Date(timeIntervalSince1970: 0)
        while let next = TimeZone.current.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 2_000_000_000 {
            let t = Int(next.timeIntervalSince1970)
            instants += [t - 1, t, t + 1]
            date = next
        }
        let dir = TemporaryDirectory("localoffset")
        let list = dir.path("instants.txt")
        try instants.map { "@\($0)" }.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        // `date` reads TZ and /etc/localtime as this process does (it inherits the environment).
        // `+05:45:00`: with the seconds, which zones had before standard time (Amsterdam's +00:19:32).
        let r = try Spawn.run("/bin/date", ["-f", list, "+%::z"])
        let said = r.out.split(separator: "\n").map { z -> Int in
            let parts = z.dropFirst().split(separator: ":").compactMap { Int($0) }
            guard parts.count == 3 else { return Int.min }
            return (z.hasPrefix("-") ? -1 : 1) * (parts[0] * 3_600 + parts[1] * 60 + parts[2])
        }
        try #require(r.status == 0 && said.count == instants.count, "\(r.err)")
        let wrong = zip(instants, said).filter { Outline.localOffset(at: $0.0) != $0.1 }.map(\.0)
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(TimeZone.current.identifier), of \(instants.count): \(wrong.prefix(5))")
    }

    /// A time from a damaged store (no number, infinite, beyond any calendar) is shown, never a crash: the
    /// detail pane writes every item's times through `minute`.
    @Test func aTimeBeyondTheCalendarIsClampedNotACrash() {
        let odd: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, -9.3e18, Date.distantFuture.timeIntervalSince1970]
        for t in odd {
            for zone in [nil, TimeZone(identifier: "Pacific/Kiritimati")] {
                let text = Outline.minute(Date(timeIntervalSince1970: t), in: zone)
                #expect(text.hasSuffix(":00") || text.count >= 16, "\(t): \(text)")
            }
        }
        #expect(Outline.minute(Date(timeIntervalSince1970: .nan), in: TimeZone(identifier: "UTC")) == "1970-01-01 00:00")
    }

    /// The wall-clock minute is worked out by arithmetic, not a Calendar: it says what the Calendar says, in
    /// zones with odd offsets and summer time, before 1970, on leap days and at the edges of days.
    @Test func theMinuteIsWhatTheCalendarSays() {
        let zones = ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kathmandu", "Pacific/Chatham", "Europe/Berlin"]
            .map { TimeZone(identifier: $0)! }
        var rng = SystemRandomNumberGenerator()
        var instants: [Double] = [951_782_400, 951_868_799, 1_709_164_800, -86_400, -1, 0, 1_774_746_000, 1_774_749_600]
        for _ in 0..<600 { instants.append(Double(Int64.random(in: -2_500_000_000...4_000_000_000, using: &rng)) + 0.5) }
        for zone in zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for t in instants {
                let date = Date(timeIntervalSince1970: t)
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
                let expected = String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
                #expect(Outline.minute(date, in: zone) == expected, "\(t) in \(zone.identifier)")
            }
        }
    }

    /// An Org file imported under an item left its `#+TODO:` lines in that item's note: its items follow them.
    @Test func theWorkflowOfAnItemIsItsAncestorsToo() throws {
        let (o, ship, milk) = try outline()
        try o.perform {
            try item(o, ship).note = "#+TODO: TODO WAIT | DONE CANCELLED"
            try o.move(milk, to: ship, at: 0)
        }
        var seen: [String?] = []
        for _ in 0..<5 { try o.perform { seen.append(try o.cycleState(milk)) } }
        #expect(seen == ["TODO", "WAIT", "DONE", "CANCELLED", nil])
        #expect(try o.workflow(at: milk) == Workflow(todo: ["TODO", "WAIT"], done: ["DONE", "CANCELLED"]))
        #expect(try o.workflow() == .standard)
    }

    /// A copy (duplicate, paste) keeps what makes its items tasks, below it too.
    @Test func aCopyKeepsTheTasks() throws {
        let (o, ship, milk) = try outline()
        try o.perform {
            try o.append(captured: "TODO Pack !B due:2030-06-04", to: ship, today: "2030-06-02")
            try o.setState(ship, to: "TODO")
        }
        var copy: ObjectID?
        try o.perform { copy = try o.duplicate(ship).0 }
        let c = try item(o, try #require(copy))
        #expect(c.state == "TODO")
        let below = try o.children(of: c)
        #expect(below.map(\.title) == ["Pack"])
        #expect(below[0].extras == OutlineNode.Extras(state: "TODO", priority: "B", deadline: "2030-06-04"))
        _ = milk
    }
}
