import ObjectGraph
import TestSupport
import Testing

/// An explicit undo group (several saves, one action) while another connection to the same file records,
/// trims or undoes actions between its saves: the history it leaves must still add up, and every change
/// the group saved must be undoable.
@Suite struct SharedHistoryGroupTests {
    /// What disagrees between a history's totals and its rows.
    static func problems(_ h: UndoHistory) throws -> [String] {
        let entries = try h.entries(limit: 100_000)
        let totals = try h.totals()
        let done = entries.filter { !$0.isUndone }.count
        let bytes = entries.map(\.size).reduce(0, +)
        guard totals.undo != done || totals.redo != entries.count - done || totals.bytes != bytes else { return [] }
        return ["totals \(totals), rows \(done) done, \(entries.count - done) undone, \(bytes) bytes"]
    }

    /// Another connection, keeping one action, records one between the group's two saves: the group's
    /// action is trimmed away, so its second save has no row to grow. The totals must still match the rows,
    /// and the task the second save added must still be undoable (or the history must at least not claim
    /// bytes it does not hold).
    @Test func aGroupWhoseActionIsTrimmedElsewhereKeepsTheTotalsRight() throws {
        let dir = TemporaryDirectory("burrow-history-group")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        theirs.undoHistory.limits = HistoryLimits(actions: 1, bytes: 1 << 20)
        let h = t.context.undoHistory

        h.beginGroup("Paste 2 tasks")
        try t.context.addTask("p", to: t.home, at: 60)
        try t.context.save()
        #expect(try h.entries().map(\.name) == ["Paste 2 tasks"])

        let work = try #require(try theirs.fetch(FetchRequest("List", where: Key("name") == "Work")).first)
        try theirs.addTask("theirs", to: work, at: 50)
        try theirs.save(actionName: "Add “theirs”")
        #expect(try h.entries().map(\.name) == ["Add “theirs”"])

        try t.context.addTask("q", to: t.home, at: 70)
        try t.context.save()
        try h.endGroup()
        let problems = try Self.problems(h)
        withKnownIssue("replaceHistoryStep adds the new step's size to the totals for a row that is gone") {
            #expect(problems == [])
        }
        // Undoing all there is must take "q" away: it was saved as the user's action.
        while try t.context.undo() != nil {}
        let left = try t.titles(t.home)
        withKnownIssue("the group's later saves are recorded nowhere once its row is gone: “q” cannot be undone") {
            #expect(!left.contains("q"), "\(left)")
        }
    }

    /// Another connection undoes the group's action between its saves: the group's later save must not
    /// grow an action that is undone (a redo would then "redo" what is already there), and the history
    /// must add up.
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
        #expect(try Self.problems(h) == [])
        let titles = try t.titles(t.home)
        #expect(titles == ["a", "b", "c", "d", "e", "q"])
        // q is there and was the user's action: undo can take it away, and a redo then an undo end where
        // the outline is now without q.
        let entries = try h.entries()
        withKnownIssue("the group's second save grows the undone action instead of recording a new one: q cannot be undone") {
            #expect(entries.first?.isUndone == false, "\(entries)")
            try t.context.undo()
            #expect(try t.titles(t.home) == ["a", "b", "c", "d", "e"])
        }
    }
}
