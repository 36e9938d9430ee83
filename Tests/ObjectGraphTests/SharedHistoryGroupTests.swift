import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// An explicit undo group (several saves, one action) while another connection to the same file records,
/// trims or undoes actions between its saves: the history it leaves must still add up, and every change
/// the group saved must be undoable.
@Suite struct SharedHistoryGroupTests {
    /// What breaks the history's rules, read with SQL on `store`'s own connection: positions 1, 2, 3… with
    /// no gap, each running total (`cum`) the one before plus the row's size (its size alone at position 1),
    /// the stored sizes those the entries report, and no done action after an undone one (skipped ones may
    /// be anywhere).
    static func problems(_ store: Store) throws -> [String] {
        let rows = try store.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, CAST(position AS INTEGER), CAST(cum AS INTEGER), CAST(size AS INTEGER), length(step), \
                    CAST(undone AS INTEGER) FROM og_history ORDER BY seq
                    """)
        }
        var out: [String] = []
        var previous: Row?
        var sawUndone = false
        for r in rows {
            let (seq, position, cum, size, length, state): (Int64, Int64, Int64, Int64, Int64, Int) = (r[0], r[1], r[2], r[3], r[4], r[5])
            if size != length { out.append("seq \(seq): size \(size) of a step of \(length) bytes") }
            if let p = previous {
                if position != (p[1] as Int64) &+ 1 { out.append("seq \(seq): position \(position) after \(p[1] as Int64)") }
                if cum &- (p[2] as Int64) != size { out.append("seq \(seq): cum \(cum) after \(p[2] as Int64), size \(size)") }
            } else if position < 1 || cum < size || (position == 1 && cum != size) {
                out.append("seq \(seq): the oldest at position \(position) with cum \(cum), size \(size)")
            }
            if state == HistoryState.undone.rawValue { sawUndone = true }
            if state == HistoryState.done.rawValue && sawUndone { out.append("seq \(seq): done after an undone action") }
            previous = r
        }
        return out
    }

    /// The checks above find damage: a running total off by one, a gap, a done action after an undone one.
    @Test(arguments: [
        "UPDATE og_history SET cum = cum + 1 WHERE seq = 2", "UPDATE og_history SET position = 9 WHERE seq = 2",
        "UPDATE og_history SET undone = 1 WHERE seq = 1", "UPDATE og_history SET size = size - 1"
    ])
    func theChecksFindDamage(sql: String) throws {
        let dir = TemporaryDirectory("burrow-history-group")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        try t.context.addTask("p", to: t.home, at: 60)
        try t.context.save(actionName: "Add “p”")
        try t.context.addTask("q", to: t.home, at: 70)
        try t.context.save(actionName: "Add “q”")
        #expect(try Self.problems(t.context.store) == [])
        try t.context.store.queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        #expect(try Self.problems(t.context.store) != [])
    }

    /// Positions with a gap (damage: 1 then 3) and a limit of one action: trimming counts rows by position,
    /// lands on the row just recorded, and must keep it (the action is undoable, and the connection's memo of
    /// its newest row stays true, which debug builds check on the next save).
    @Test func aTrimOverAGapKeepsTheActionJustRecorded() throws {
        let dir = TemporaryDirectory("burrow-history-group")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let h = t.context.undoHistory
        try t.context.addTask("p", to: t.home, at: 60)
        try t.context.save(actionName: "Add “p”")
        try t.context.addTask("q", to: t.home, at: 70)
        try t.context.save(actionName: "Add “q”")
        try t.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE og_history SET position = 3 WHERE seq = (SELECT max(seq) FROM og_history)")
        }
        h.limits = HistoryLimits(actions: 1, bytes: 1 << 20)
        try t.context.addTask("r", to: t.home, at: 80)
        try t.context.save(actionName: "Add “r”")
        let fresh = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        #expect(try fresh.undoHistory.entries().first?.name == "Add “r”")
        try t.context.addTask("s", to: t.home, at: 90)
        try t.context.save(actionName: "Add “s”")
        #expect(try h.entries().map(\.name) == ["Add “s”"])
        #expect(try Self.problems(t.context.store) == [])
        #expect(try t.context.undo() == "Add “s”")
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e", "p", "q", "r"])
    }

    /// Another connection, keeping one action, records one between the group's two saves: the group's
    /// action is trimmed away, so its second save has no row to grow, and goes on as a new action of the
    /// group's name holding that save. The history keeps its rules, and the task the second save added can
    /// be undone (the first one's action is gone with its row).
    @Test func aGroupWhoseActionIsTrimmedElsewhereGoesOnAsANewAction() throws {
        let dir = TemporaryDirectory("burrow-history-group")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        theirs.undoHistory.limits = HistoryLimits(actions: 1, bytes: 1 << 20)
        let h = t.context.undoHistory

        h.beginGroup("Paste 2 tasks")
        try t.context.addTask("p", to: t.home, at: 60)
        try t.context.save()
        #expect(try h.entries().map(\.name) == ["Paste 2 tasks"])

        let work = try #require(try theirs.fetch(FetchRequest("List", where: Property("name") == "Work")).first)
        try theirs.addTask("theirs", to: work, at: 50)
        try theirs.save(actionName: "Add “theirs”")
        #expect(try h.entries().map(\.name) == ["Add “theirs”"])

        try t.context.addTask("q", to: t.home, at: 70)
        try t.context.save()
        // A third save of the group grows the new action, not a second one.
        try t.context.addTask("r", to: t.home, at: 80)
        try t.context.save()
        try h.endGroup()
        #expect(try Self.problems(t.context.store) == [])
        #expect(try h.entries().map(\.name) == ["Paste 2 tasks", "Add “theirs”"])
        #expect(try h.entries().first?.objectCount == 2)
        // Undoing it takes "q" and "r" away: they were saved as the user's action; "p" stays.
        #expect(try t.context.undo() == "Paste 2 tasks")
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e", "p"])
        #expect(try Self.problems(t.context.store) == [])
        #expect(try t.context.redo() == "Paste 2 tasks")
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e", "p", "q", "r"])
    }

    /// Another connection undoes the group's action between its saves: the group's later save must not
    /// grow an action that is undone (a redo would then "redo" what is already there) but go on as a new
    /// action (which cuts redo), and the history keeps its rules.
    @Test func aGroupWhoseActionIsUndoneElsewhereStaysConsistent() throws {
        let dir = TemporaryDirectory("burrow-history-group")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        let h = t.context.undoHistory

        h.beginGroup("Paste 2 tasks")
        try t.context.addTask("p", to: t.home, at: 60)
        try t.context.save()
        #expect(try theirs.undo() == "Paste 2 tasks")
        try t.context.addTask("q", to: t.home, at: 70)
        try t.context.save()
        try h.endGroup()
        #expect(try Self.problems(t.context.store) == [])
        let titles = try t.titles(t.home)
        #expect(titles == ["a", "b", "c", "d", "e", "q"])
        // q is there and was the user's action: undo takes it away; the undone action was cut.
        #expect(try h.entries().map(\.state) == [.done])
        #expect(try t.context.undo() == "Paste 2 tasks")
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e"])
        #expect(try t.context.undo() == nil)
        #expect(try Self.problems(t.context.store) == [])
    }

    /// Another connection records an action between the group's two saves, so the group's action is no
    /// longer the newest when its second save grows it: the running totals of the rows after it must grow
    /// with it, and undo takes theirs first, then the whole group.
    @Test func aGroupThatGrowsUnderAnotherActionKeepsTheRunningTotals() throws {
        let dir = TemporaryDirectory("burrow-history-group")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        let h = t.context.undoHistory

        h.beginGroup("Paste 3 tasks")
        try t.context.addTask("p", to: t.home, at: 60)
        try t.context.save()
        let work = try #require(try theirs.fetch(FetchRequest("List", where: Property("name") == "Work")).first)
        try theirs.addTask("theirs", to: work, at: 50)
        try theirs.save(actionName: "Add “theirs”")
        for (title, at) in [("q", 70), ("r", 80)] as [(String, Int64)] {
            try t.context.addTask(title, to: t.home, at: at)
            try t.context.save()
            #expect(try Self.problems(t.context.store) == [])
        }
        try h.endGroup()
        #expect(try h.entries().map(\.name) == ["Add “theirs”", "Paste 3 tasks"])
        #expect(try h.entries().last?.objectCount == 3)
        #expect(try t.context.undo() == "Add “theirs”")
        #expect(try t.context.undo() == "Paste 3 tasks")
        #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e"])
        #expect(try Self.problems(t.context.store) == [])
    }
}
