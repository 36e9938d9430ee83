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

/// An object this context is changing that a commit made elsewhere changes (or deletes) meanwhile keeps
/// this unit's values until the unit ends; then, saved or rolled back, it reads what is stored (the other
/// commit's values beside this unit's), not the snapshot it had before that commit.
@Suite struct MergedWhileChangedTests {
    @Test func afterARollbackItReadsWhatIsStored() throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-merged-rollback")
        defer { withExtendedLifetime(dir) {} }
        let b = t.h[1], d = t.h[3]
        b["title"] = "mine"
        d["title"] = "mine too"
        let theirB = try #require(try theirs.existingObject(for: b.objectID))
        theirB["done"] = true
        theirs.delete(try #require(try theirs.existingObject(for: d.objectID)))
        try theirs.save()
        #expect(try t.store.poll() == 1)
        #expect(b["title"] as String == "mine" && !(b["done"] as Bool))  // the unit's view until it ends
        t.context.rollback()
        #expect(b["title"] as String == "b" && b["done"] as Bool)
        #expect(try t.context.existingObject(for: d.objectID) == nil)
        #expect(try t.titles(t.home) == ["a", "b", "c", "e"])
    }

    @Test(arguments: [false, true])
    func afterASaveItReadsWhatIsStored(overwriting: Bool) throws {
        let (dir, t, theirs) = try TaskWorld.withSecondConnection("objectgraph-merged-save")
        defer { withExtendedLifetime(dir) {} }
        let c = t.h[2]
        if overwriting {
            t.context.mergePolicy = .overwrite
            c["title"] = .string(c["title"] as String + "!")  // read, so only the policy lets it through
        } else {
            c["title"] = "c!"  // a blind write: the last writer wins
        }
        let theirC = try #require(try theirs.existingObject(for: c.objectID))
        theirC["done"] = true
        try theirs.save()
        #expect(try t.store.poll() == 1)
        try t.context.save()
        #expect(c["title"] as String == "c!" && c["done"] as Bool)
        let fresh = try #require(try Context(store: t.store).existingObject(for: c.objectID))
        #expect(fresh["title"] as String == "c!" && fresh["done"] as Bool)
    }
}
