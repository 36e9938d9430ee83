import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// A program's own values kept in the store: read back, removed, rolled back with a failed transaction,
/// seen by another connection, and kept apart from the store's own keys.
@Suite struct AppValueTests {
    @Test(arguments: OutboxTests.Backend.allCases)
    func valuesAreKeptRemovedAndRolledBack(_ backend: OutboxTests.Backend) throws {
        struct Stop: Error {}
        let dir = TemporaryDirectory("burrow-app-values")
        let t = try backend.world(dir)
        #expect(try t.store.appValue("sync.seq") == nil)
        try t.store.setAppValue("sync.seq", "41")
        #expect(try t.store.appValue("sync.seq") == "41")
        #expect(throws: Stop.self) {
            try t.context.transaction(actionName: "Rename a") {
                t.h[0]["title"] = "renamed"
                try t.store.setAppValue("sync.seq", "42")
                throw Stop()
            }
        }
        #expect(try t.store.appValue("sync.seq") == "41")
        try t.context.transaction(actionName: "Rename a") {
            t.h[0]["title"] = "renamed"
            try t.store.setAppValue("sync.seq", "42")
        }
        #expect(try t.store.appValue("sync.seq") == "42")
        try t.store.setAppValue("sync.seq", nil)
        #expect(try t.store.appValue("sync.seq") == nil)

        // Keys by their start, `_` and `%` taken as themselves, the store's own keys never among them.
        for key in ["sync.fresh.2", "sync.fresh.10", "sync_fresh.1", "sync.freshness", "other", "s%nc.x"] { try t.store.setAppValue(key, "v") }
        #expect(try t.store.appValueKeys(withPrefix: "sync.fresh.") == ["sync.fresh.10", "sync.fresh.2"])
        #expect(try t.store.appValueKeys(withPrefix: "sync.") == ["sync.fresh.10", "sync.fresh.2", "sync.freshness"])
        #expect(try t.store.appValueKeys(withPrefix: "s%") == ["s%nc.x"])
        #expect(try t.store.appValueKeys(withPrefix: "").count == 6)
    }

    @Test func anotherConnectionSeesThemAndTheStoresOwnKeysAreApart() throws {
        let dir = TemporaryDirectory("burrow-app-values")
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        try t.store.setAppValue("next_id", "1")
        let other = try Store(path: dir.path(), model: TaskModel.model)
        #expect(try other.appValue("next_id") == "1")
        // The allocator is the store's own: a program's "next_id" is not it.
        let task = try t.context.addTask("new", to: t.work, at: 99)
        try t.context.save(actionName: "Add")
        #expect(task.objectID.rowID > 1)
        #expect(try other.check().isEmpty)
    }
}
