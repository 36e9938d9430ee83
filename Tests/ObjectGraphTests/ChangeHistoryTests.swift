import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

/// The store's change history as public API (Core Data's persistent history): commits after a token, by
/// every context and process, with their authors, filtered by entity; a token whose commits are gone says
/// so. Public API only.
@Suite struct ChangeHistoryTests {
    @Test func commitsAfterATokenWithAuthorsAndEntities() throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-change-history")
        defer { withExtendedLifetime(dir) {} }
        let start = try t.store.currentChangeToken()
        let began = Date()
        t.context.transactionAuthor = "app"
        t.h[0]["title"] = "A"
        try t.context.save()
        theirs.transactionAuthor = "sync"
        let list = try theirs.addList("Errands")
        try theirs.addTask("post", to: list, at: 10)
        try theirs.save()
        // Unnamed, and an undo (a commit like any other, by this context's author).
        t.context.transactionAuthor = nil
        t.h[1]["done"] = true
        try t.context.save()
        t.context.transactionAuthor = "app"
        #expect(try t.context.undo() != nil)

        let all = try t.store.changeHistory(after: start)
        #expect(all.isComplete)
        #expect(all.commits.map(\.author) == ["app", "sync", nil, "app"])
        // Each with the time it was committed (the log's, whether the entry sits in og_changes or in an
        // action's history row), in order, between the test's first save and now.
        let dates = all.commits.compactMap(\.date).map(\.timeIntervalSince1970)
        #expect(dates.count == 4 && dates == dates.sorted(), "\(dates)")
        #expect(dates.allSatisfy { $0 >= began.timeIntervalSince1970 - 1 && $0 <= Date().timeIntervalSince1970 + 1 }, "\(dates)")
        #expect(all.commits.map(\.token) == all.commits.map(\.token).sorted() && all.token == all.commits.last?.token)
        let task = TaskModel.model.entity("Task")!.index, listEntity = TaskModel.model.entity("List")!.index
        #expect(all.commits[0].changes[task].updated[t.h[0].objectID] != nil)
        #expect(all.commits[1].changes[listEntity].inserted == [list.objectID])
        // Lists only: the commits that touched none are left out (the task count makes the add a change to a list).
        let lists = try theirs.store.changeHistory(after: start, entities: ["List"])
        #expect(lists.commits.map(\.author) == ["sync"])
        #expect(lists.commits[0].changes[task].isEmpty)
        // From the last token: nothing new; then one more commit.
        #expect(try t.store.changeHistory(after: all.token).commits.isEmpty)
        theirs.delete(list)
        try theirs.saveWithoutUndo()
        let next = try t.store.changeHistory(after: all.token)
        #expect(next.commits.map(\.author) == ["sync"] && next.isComplete)
        // That commit gone from the log (as the log prunes what is older than its retention): the history
        // after the old token says it is not complete; after the newest it is.
        let db = try DatabaseQueue(path: dir.path())
        try db.write { try $0.execute(sql: "DELETE FROM og_changes WHERE seq > ?", arguments: [all.token.value]) }
        let gap = try t.store.changeHistory(after: all.token)
        #expect(!gap.isComplete && gap.commits.isEmpty && gap.token == next.token)
        #expect(try t.store.changeHistory(after: next.token).isComplete)
        // The departure from Core Data (docs/OBJECTGRAPH.md): history is kept ten minutes, not until purged.
        #expect(Store.changeHistoryRetention == 600)
        #expect(storeError { _ = try t.store.changeHistory(after: start, entities: ["Colour"]) }?.code == .unknownEntity)
    }
}
