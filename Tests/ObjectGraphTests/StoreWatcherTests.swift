import Foundation
import ObjectGraph
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `StoreWatcher`'s descriptor becomes readable when another connection commits to the store's file, so a
/// run loop can wake at once; other files in the folder do not count, and a store in memory has none.
@Suite struct StoreWatcherTests {
    /// Whether `fd` becomes readable within `milliseconds`.
    private func readable(_ fd: Int32, within milliseconds: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) > 0
    }

    @Test func anotherConnectionsCommitWakesIt() throws {
        let dir = TemporaryDirectory("objectgraph-watch")
        defer { withExtendedLifetime(dir) {} }
        let t = try TaskWorld(store: try Store(path: dir.path(), model: TaskModel.model))
        let watcher = try #require(t.store.makeWatcher())
        _ = watcher.drain()
        #expect(!readable(watcher.fileDescriptor, within: 50), "nothing changed yet")

        let theirs = Context(store: try Store(path: dir.path(), model: TaskModel.model))
        try theirs.addTask("theirs", to: try #require(try theirs.existingObject(for: t.home.objectID)), at: 35)
        try theirs.save()
        #expect(readable(watcher.fileDescriptor, within: 5_000), "a commit elsewhere wakes it")
        #expect(watcher.drain())
        #expect(try t.store.poll() == 1, "and polling then finds the commit")
        #expect(!readable(watcher.fileDescriptor, within: 50), "drained")

        // Another file in the folder is no news about the store.
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path("unrelated.txt")))
        if readable(watcher.fileDescriptor, within: 1_000) { #expect(!watcher.drain()) }
    }

    @Test func aStoreInMemoryHasNone() throws {
        let t = try TaskWorld(store: try Store(inMemoryWith: TaskModel.model))
        #expect(t.store.makeWatcher() == nil)
    }
}
