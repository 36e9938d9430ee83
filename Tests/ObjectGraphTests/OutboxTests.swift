import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// The outbox a replicator sends from: each action, undo and redo of a context that records actions is in
/// it, written by the save's own transaction, with the objects' values before and after; set-up saves,
/// changes that arrive from a sync, failed saves and stores without an outbox leave nothing. On the SQLite
/// store and the second store type alike.
@Suite struct OutboxTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, memory
        var testDescription: String { rawValue }

        func world(_ dir: TemporaryDirectory) throws -> TaskWorld {
            switch self {
            case .sqlite: return try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
            case .memory: return try TaskWorld(store: try MemoryStore(model: TaskModel.model).makeStore())
            }
        }
    }

    /// Each entry as "name: object before → after" lines, titles only, for comparing whole outboxes.
    static func summary(_ store: Store, after seq: Int64 = 0) throws -> [String] {
        try store.outbox(after: seq).map { e in
            let objects = e.objects.filter { $0.entity == "Task" }.map { o in
                func title(_ v: [String: Value]?) -> String {
                    guard let v else { return "-" }
                    if case .string(let s) = v["title"] ?? .null { return s }
                    return "?"
                }
                return "\(title(o.before))→\(title(o.after))"
            }
            return "\(e.name): " + objects.joined(separator: ", ")
        }
    }

    @Test(arguments: Backend.allCases)
    func actionsUndoAndRedoAreKeptInOrder(_ backend: Backend) throws {
        let dir = TemporaryDirectory("burrow-outbox")
        let t = try backend.world(dir)
        #expect(try !t.store.outboxIsEnabled())
        t.h[0]["title"] = "before the outbox"
        try t.context.save(actionName: "Rename a")
        #expect(try t.store.outbox(after: 0).isEmpty)
        #expect(try t.store.outboxCount() == 0)

        try t.store.setOutbox(enabled: true)
        #expect(try t.store.outboxIsEnabled())
        let milk = try t.context.addTask("milk", to: t.home, at: 60)
        try t.context.save(actionName: "Add milk")
        milk["title"] = "oat milk"
        try t.context.save(actionName: "Rename milk")
        t.context.delete(t.h[1])
        try t.context.save(actionName: "Delete b")
        _ = try t.context.undo()
        _ = try t.context.redo()
        // Set-up work and view state are not actions.
        _ = try t.context.addTask("setup", to: t.work, at: 90)
        try t.context.saveWithoutUndo()
        #expect(
            try Self.summary(t.store) == [
                "Add milk: -→milk", "Rename milk: milk→oat milk", "Delete b: b→-", "Undo Delete b: -→b", "Redo Delete b: b→-"
            ])
        // What each entry is, by a field: an action whose name begins "Undo " is still an action.
        #expect(try t.store.outbox(after: 0).map(\.kind) == [.action, .action, .action, .undo, .redo])
        // Which action each did, undid or redid: the undo and redo of "Delete b" name its action.
        let actions = try t.store.outbox(after: 0).map(\.history)
        #expect(actions.allSatisfy { $0 != nil } && Set(actions).count == 3 && actions[2] == actions[3] && actions[3] == actions[4], "\(actions)")
        let first = try #require(try t.store.outbox(after: 0).first)
        let inserted = try #require(first.objects.first { $0.entity == "Task" })
        #expect(inserted.id == milk.objectID && inserted.before == nil)
        #expect(inserted.after?["position"] == .integer(60) && inserted.after?["list"] == .integer(t.home.objectID.rowID))
        // A changed object's rows stay whole here (a replicator needs where it is), unlike in the history.
        let renamed = try #require(try t.store.outbox(after: 0)[1].objects.first { $0.entity == "Task" })
        #expect(renamed.before?["position"] == .integer(60) && renamed.before?["list"] == .integer(t.home.objectID.rowID))
        #expect(renamed.after?["position"] == .integer(60) && renamed.after?["list"] == .integer(t.home.objectID.rowID))

        // Sent entries go; numbers are never given again.
        let numbers = try t.store.outbox(after: 0).map(\.seq)
        #expect(try t.store.outboxCount() == 5)
        try t.store.removeOutbox(through: numbers[2])
        #expect(try t.store.outboxCount() == 2)
        #expect(try t.store.outbox(after: 0).map(\.seq) == Array(numbers[3...]))
        t.h[2]["title"] = "c2"
        try t.context.save(actionName: "Rename c")
        #expect(try t.store.outbox(after: numbers.last!).map(\.name) == ["Rename c"])
        #expect(try t.store.outbox(after: 0).first!.seq == numbers[3])

        // Stopping forgets it.
        try t.store.setOutbox(enabled: false)
        t.h[2]["title"] = "c3"
        try t.context.save(actionName: "Rename c again")
        #expect(try t.store.outbox(after: 0).isEmpty && !t.store.outboxIsEnabled())
    }

    @Test(arguments: Backend.allCases)
    func syncedChangesAndFailedSavesLeaveNothing(_ backend: Backend) throws {
        let dir = TemporaryDirectory("burrow-outbox")
        let t = try backend.world(dir)
        try t.store.setOutbox(enabled: true)
        // Changes arriving from a sync.
        t.context.undoHistory.recordsActions = false
        t.h[0]["title"] = "from the server"
        try t.context.save(actionName: "Sync")
        t.context.undoHistory.recordsActions = true
        // A unit of work that fails after writing.
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try t.context.transaction(actionName: "Half") {
                t.h[1]["title"] = "never"
                _ = try t.context.addTask("never either", to: t.home, at: 99)
                throw Failure()
            }
        }
        #expect(try t.store.outbox(after: 0).isEmpty)
        try t.context.transaction(actionName: "Whole") { t.h[1]["title"] = "b2" }
        #expect(try Self.summary(t.store) == ["Whole: b→b2"])
    }

    /// Another connection (another process) starts the outbox: this one's next save is in it, with no
    /// reopening; and when it stops it, this one records nothing more.
    @Test func anOutboxStartedElsewhereIsKeptAtOnce() throws {
        let dir = TemporaryDirectory("burrow-outbox")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        t.h[0]["title"] = "a1"
        try t.context.save(actionName: "Rename 1")
        let other = try Store(path: dir.path(), model: TaskModel.model)
        try other.setOutbox(enabled: true)
        t.h[0]["title"] = "a2"
        try t.context.save(actionName: "Rename 2")
        #expect(try Self.summary(other) == ["Rename 2: a1→a2"])
        try other.setOutbox(enabled: false)
        t.h[0]["title"] = "a3"
        try t.context.save(actionName: "Rename 3")
        #expect(try other.outbox(after: 0).isEmpty)
        try other.setOutbox(enabled: true)
        #expect(try other.outbox(after: 0).isEmpty)
    }

    @Test func anEntryThisModelCannotReadIsReportedNotSkipped() throws {
        let dir = TemporaryDirectory("burrow-outbox")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        try t.store.setOutbox(enabled: true)
        t.h[0]["title"] = "a1"
        try t.context.save(actionName: "Rename")
        try t.store.queue.writeWithoutTransaction { db in try db.execute(sql: "UPDATE og_outbox SET step = X'4F5531FF'") }
        #expect {
            try t.store.outbox(after: 0)
        } throws: { error in
            (error as? StoreError)?.code == .storage && "\(error)".contains("the outbox's entry 1 cannot be read")
        }
        try t.store.queue.writeWithoutTransaction { db in try db.execute(sql: "UPDATE og_outbox SET model_hash = 'another'") }
        #expect(throws: StoreError.self) { try t.store.outbox(after: 0) }
    }

    @Test func anOutboxFromBeforeKindsGetsThemFromItsNames() throws {
        // An outbox an older Burrow started (no `kind` column), with an undo waiting in it: read as an undo,
        // and the column added at the next save, the old entries keeping their kinds.
        let dir = TemporaryDirectory("burrow-outbox")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        try t.store.setOutbox(enabled: true)
        t.h[0]["title"] = "a1"
        try t.context.save(actionName: "Rename a")
        _ = try t.context.undo()
        try t.store.queue.writeWithoutTransaction { db in try db.execute(sql: "ALTER TABLE og_outbox DROP COLUMN kind") }
        #expect(try t.store.outbox(after: 0).map(\.kind) == [.action, .undo])
        t.h[1]["title"] = "Undo b"
        try t.context.save(actionName: "Undo b")
        #expect(try t.store.outbox(after: 0).map(\.kind) == [.action, .undo, .action])
    }

    @Test func anOutboxFromBeforeActionNumbersReadsNoneForItsEntries() throws {
        // Its entries name no action (a replicator sends them as they are); the next save adds the column.
        let dir = TemporaryDirectory("burrow-outbox")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        try t.store.setOutbox(enabled: true)
        t.h[0]["title"] = "a1"
        try t.context.save(actionName: "Rename a")
        try t.store.queue.writeWithoutTransaction { db in try db.execute(sql: "ALTER TABLE og_outbox DROP COLUMN history") }
        #expect(try t.store.outbox(after: 0).map(\.history) == [nil])
        _ = try t.context.undo()
        let entries = try t.store.outbox(after: 0)
        #expect(entries.map(\.kind) == [.action, .undo] && entries[0].history == nil && entries[1].history != nil)
    }

    @Test func onlyTheFirstSaveOfAGroupNamesItsAction() throws {
        // A later save of a group joins an action an earlier entry began: an undo of the group is then never
        // taken for the undo of that one entry alone.
        let dir = TemporaryDirectory("burrow-outbox")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        try t.store.setOutbox(enabled: true)
        t.context.undoHistory.beginGroup("Retitle")
        t.h[0]["title"] = "a1"
        try t.context.save()
        t.h[1]["title"] = "b1"
        try t.context.save()
        try t.context.undoHistory.endGroup()
        _ = try t.context.undo()
        let entries = try t.store.outbox(after: 0)
        #expect(entries.map(\.kind) == [.action, .action, .undo])
        #expect(entries[0].history != nil && entries[1].history == nil && entries[2].history == entries[0].history, "\(entries.map(\.history))")
    }
}
