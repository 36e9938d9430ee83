import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// The two ends of redo (the newest done action, the oldest undone one) are found without an index on the
/// history's states, by walking back from the newest row: checked against full scans over random undo,
/// redo, new actions and skips, and the index older stores have is dropped when they open.
@Suite struct HistoryEndsTests {
    /// The ends as full scans read them (no walk, no assumption about the order of states).
    static func scannedEnds(_ store: Store) throws -> (undo: Int64?, redo: Int64?) {
        try store.read { db in
            (
                try Int64.fetchOne(db, sql: "SELECT max(seq) FROM og_history WHERE undone = 0"),
                try Int64.fetchOne(db, sql: "SELECT min(seq) FROM og_history WHERE undone = 1")
            )
        }
    }

    @Test(arguments: TestSeed.seeds([1, 2, 3, 4]))
    func theEndsAreTheOnesAFullScanFinds(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let dir = TemporaryDirectory("burrow-history-ends")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let history = t.context.undoHistory
        var added = 0
        for step in 0..<300 {
            switch rng.below(10) {
            case 0..<4:
                added += 1
                _ = try t.context.addTask("t\(added)", to: t.home, at: Int64(100 + added))
                try t.context.save(actionName: "Add t\(added)")
            case 4..<7: _ = try t.context.undo()
            case 7..<9: _ = try t.context.redo()
            default:
                // A conflict's skip: any action may be passed over, done or undone.
                try t.context.store.queue.writeWithoutTransaction { db in
                    try db.execute(
                        sql: "UPDATE og_history SET undone = 2 WHERE seq = (SELECT seq FROM og_history ORDER BY random() LIMIT 1)")
                }
            }
            let ends = try Self.scannedEnds(t.context.store)
            #expect(try history.nextUndo()?.sequence == ends.undo, "step \(step), \(rng.note)")
            #expect(try history.nextRedo()?.sequence == ends.redo, "step \(step), \(rng.note)")
        }
    }

    @Test func theOldStatesIndexIsDroppedWhenAStoreOpens() throws {
        let dir = TemporaryDirectory("burrow-history-ends")
        let first = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        _ = try first.context.addTask("p", to: first.home, at: 60)
        try first.context.save(actionName: "Add “p”")
        try first.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE INDEX og_history_undone ON og_history (undone, seq)")
        }
        let second = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        let indexes = try second.store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'og_history' AND type = 'index'")
        }
        #expect(!indexes.contains("og_history_undone"))
        #expect(try second.undo() == "Add “p”")
        #expect(try second.redo() == "Add “p”")
    }
}
