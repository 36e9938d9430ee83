import ObjectGraph
import TestSupport
import Testing

/// An object changed and changed back within one unit of work has nothing to save, and must come out of the
/// save exactly as an untouched object does: what another connection commits later reaches it, it reports
/// no changes, and its next change records what is stored then (so undoing that change puts back only
/// what it changed). Public API only.
@Suite struct ChangedBackTests {
    @Test(arguments: [false, true])
    func anObjectChangedBackFollowsCommitsMadeElsewhere(inTransaction: Bool) throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-changed-back")
        defer { withExtendedLifetime(dir) {} }
        let a = t.h[0]
        if inTransaction {
            try t.context.transaction {
                a["done"] = true
                a["done"] = false
            }
        } else {
            a["done"] = true
            a["done"] = false
            try t.context.save()
        }
        #expect(!a.hasChanges && !t.context.hasChanges)
        // Another connection renames it; this one takes the commit in.
        let theirA = try #require(try theirs.existingObject(for: a.objectID))
        theirA["title"] = "renamed there"
        try theirs.save()
        #expect(try t.store.poll() == 1)
        #expect(a["title"] as String == "renamed there")
        #expect(!a.hasChanges && !t.context.hasChanges)
        // A results controller places it by what is stored.
        let r = try ResultsRecorder(ResultsController(context: t.context, request: SectionedResultsTests.byDone(t), sectionKey: "done"))
        theirA["done"] = true
        try theirs.save()
        _ = try t.store.poll()
        #expect(r.take() == ["insertSections [1]; move [0.0->1.0]"])
        #expect(a["done"] as Bool)
        // Its next change is undone alone: the rename made there stays.
        a["position"] = 99
        try t.context.save()
        #expect(try t.context.undo() != nil)
        let stored = try #require(try Context(store: t.store).existingObject(for: a.objectID))
        #expect(stored["title"] as String == "renamed there" && stored["position"] as Int64 == 10 && stored["done"] as Bool)
        try r.checkAgainstFetch(t.store)
        #expect(r.failures == [])
    }
}
