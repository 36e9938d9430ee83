import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// `Context.reading`: what `body` reads is one state of the store, whatever other connections commit
/// meanwhile; after it, their commits are seen.
@Suite struct ReadingSnapshotTests {
    static let model = DeleteTreeTests.model

    @Test func commitsElsewhereAreNotSeenInside() throws {
        let dir = TemporaryDirectory()
        let reader = Context(store: try Store(path: dir.path(), model: Self.model))
        let writer = Context(store: try Store(path: dir.path(), model: Self.model))
        _ = try writer.insert("Node")
        try writer.save()
        let (before, during) = try reader.reading { () throws -> (Int, Int) in
            let before = try reader.count(FetchRequest("Node"))
            _ = try writer.insert("Node")
            try writer.save()
            // Another connection of this process opened and closed on the file meanwhile (one that only reads).
            do { _ = try Context(store: try Store(readingAt: dir.path(), model: Self.model)).count(FetchRequest("Node")) }
            return (before, try reader.count(FetchRequest("Node")))
        }
        #expect(before == 1 && during == 1, "inside: \(before), then \(during)")
        #expect(try reader.count(FetchRequest("Node")) == 2)
    }
}
