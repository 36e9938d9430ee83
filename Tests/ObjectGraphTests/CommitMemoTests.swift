import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// A connection keeps what its last commit left of the undo history's newest row and of the outbox's table
/// (`CommitMemo`) for its next save, as long as nothing has committed since. Two connections to one file
/// record, undo, redo, group, trim, clear, save without recording and start or stop the outbox in a random
/// order: debug builds check every use of the memo against the rows (a stale one stops the test), and the
/// history keeps its rules after every step.
@Suite struct CommitMemoTests {
    /// A task added to Home inside a transaction (which reads what the other connection stored).
    static func add(_ title: String, in c: Context, named name: String? = nil) throws {
        try c.transaction(actionName: name) {
            let home = try #require(try c.fetch(FetchRequest("List", where: Property("name") == "Home")).first)
            _ = try c.addTask(title, to: home, at: 100)
        }
    }

    @Test(arguments: 0..<24) func twoConnectionsAtRandomNeverUseAStaleMemo(seed: Int) throws {
        let dir = TemporaryDirectory("burrow-commit-memo")
        let stores = [try Store(path: dir.path(), model: TaskModel.model), try Store(path: dir.path(), model: TaskModel.model)]
        let t = try TaskWorld(store: stores[0])
        let contexts = [t.context, Context(store: stores[1])]
        // The rules are read on a third connection: a read on either of the two would let its connection see
        // the other's commits before its next save begins, which is what that save must find out by itself.
        let checker = try Store(path: dir.path(), model: TaskModel.model)
        var rng = SeededRandom(seed: UInt64(seed))
        var kinds: [String: Int] = [:]
        var k = 0
        for step in 0..<80 {
            // Mostly the same connection as the step before: saves in a row are what the memo serves.
            if Int.random(in: 0..<4, using: &rng) == 0 { k = 1 - k }
            let c = contexts[k]
            let kind = ["save", "save", "save", "save", "save", "undo", "redo", "group", "unrecorded", "limits", "clear", "outbox"].randomElement(
                using: &rng)!
            kinds[kind, default: 0] += 1
            switch kind {
            case "save": try Self.add("t\(step)", in: c, named: "Add \(step)")
            // A conflict (the other connection changed what the step touches) drops the step; anything else fails.
            case "undo":
                do { _ = try c.undo() } catch is UndoConflict {}
            case "redo":
                do { _ = try c.redo() } catch is UndoConflict {}
            case "group":
                c.undoHistory.beginGroup("Group \(step)")
                try Self.add("g\(step)", in: c)
                // The other connection may record between the group's saves.
                if Bool.random(using: &rng) { try Self.add("o\(step)", in: contexts[1 - k], named: "Other \(step)") }
                try Self.add("h\(step)", in: c)
                try c.undoHistory.endGroup()
            case "unrecorded":
                c.undoHistory.recordsActions = false
                try Self.add("u\(step)", in: c)
                c.undoHistory.recordsActions = true
            case "limits":
                // Trimming removes the oldest rows, never the newest.
                c.undoHistory.limits = HistoryLimits(actions: Int.random(in: 1...6, using: &rng), bytes: 1 << 20)
            case "clear": try c.undoHistory.clear()
            default: try c.store.setOutbox(enabled: !(try c.store.outboxIsEnabled()))
            }
            #expect(try SharedHistoryGroupTests.problems(checker) == [], "seed \(seed), step \(step) (\(kind))")
        }
        let tallies = stores.map { $0.sqlite.historyMemoTally }
        let hits = tallies.map(\.hits).reduce(0, +), reads = tallies.map(\.reads).reduce(0, +)
        // Saves in a row on one connection find the memo; after the other's commit they read the row.
        #expect(hits > 0 && reads > 0, "seed \(seed): \(hits) appends from the memo, \(reads) read the row")
        if seed == 0 { print("CommitMemoTests seed 0: \(hits) appends from the memo, \(reads) read the row; steps \(kinds)") }
    }
}
