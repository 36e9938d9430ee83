import ObjectGraph
import TestSupport
import Testing

/// What a results controller delivers, and when, as Core Data's fetched results controller documents it,
/// through the public API only: nothing tracked without a handler, one reload signal on resume, user-driven
/// changes flagged, and the two shapes diffable data sources take (a snapshot of identifiers, a difference
/// with moves paired).
@Suite struct ResultsControllerShapesTests {
    static func titles(_ ids: [ObjectID], _ t: TaskWorld) -> [String] {
        ids.map { t.context.object(for: $0)["title"] as String }
    }

    /// Without a handler the controller keeps its last fetch (it follows nothing); a handler set later gets,
    /// with the next change, one batch from that fetch to now (every row that stayed named as updated: what
    /// changed in them went by unseen); `performFetch()` starts again from the store.
    @Test func withoutAHandlerTheLastFetchStays() throws {
        let t = try TaskWorld()
        let c = ResultsController(context: t.context, request: TaskModel.tasks(of: t.home))
        try c.performFetch()
        try t.context.addTask("f", to: t.home, at: 5)
        t.context.delete(t.h[4])
        try t.context.save()
        #expect(c.objectIDs == t.h.map(\.objectID))
        var batches: [ResultsBatch] = []
        c.onChange = { batches.append($0) }
        t.h[0]["title"] = "A"
        try t.context.save()
        // What changed in the rows that stayed went by unseen: each is named as updated.
        #expect(batches.map(\.description) == ["delete [0.4]; insert [0.0]; update [0.0->0.1, 0.1->0.2, 0.2->0.3, 0.3->0.4]"])
        #expect(Self.titles(c.objectIDs, t) == ["f", "A", "b", "c", "d"])
        // Handler gone: again nothing; a fetch reads what is stored.
        c.onChange = nil
        t.context.delete(t.h[1])
        try t.context.save()
        #expect(c.count == 5)
        try c.performFetch()
        #expect(Self.titles(c.objectIDs, t) == ["f", "A", "c", "d"])
        // A change to another entity while no handler is set leaves nothing to catch up on: the next batch
        // is the next change's own.
        t.work["name"] = "Office"
        try t.context.save()
        c.onChange = { batches.append($0) }
        batches = []
        t.h[2]["title"] = "C"
        try t.context.save()
        #expect(batches.map(\.description) == ["update [0.2->0.2]"])
    }

    /// `resume()` sends exactly one batch, flagged as a reload, even when nothing changed while paused.
    @Test func resumingSendsOneReload() throws {
        let t = try TaskWorld()
        let r = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        r.controller.pause()
        try r.controller.resume()
        #expect(r.take() == ["reload"])
        try r.controller.resume()  // not paused: nothing
        r.controller.pause()
        t.h[1]["position"] = 99
        try t.context.save()
        #expect(r.take() == [])
        try r.controller.resume()
        #expect(r.take() == ["move [0.1->0.4]; reload"])
        #expect(r.failures == [])
    }

    /// A change the user made on screen (a dragged row) comes back flagged, so the view takes it without
    /// animating it again; other changes are not flagged.
    @Test func userDrivenChangesAreFlagged() throws {
        let t = try TaskWorld()
        let r = try ResultsRecorder(ResultsController(context: t.context, request: TaskModel.tasks(of: t.home)))
        try r.controller.performUserDrivenChange {
            t.h[4]["position"] = 5
            try t.context.save()
        }
        #expect(r.take() == ["move [0.4->0.0]; user-driven"])
        t.h[0]["position"] = 99
        try t.context.save()
        #expect(r.take() == ["move [0.1->0.4]"])
        #expect(r.failures == [])
    }

    /// A view fed by snapshots or differences alone tells a user-driven change and a resume's reload as a
    /// batch observer does: the snapshot carries both flags; a difference handler reads the controller.
    @Test func snapshotsAndDifferencesTellUserDrivenChangesAndReloads() throws {
        let t = try TaskWorld()
        let c = ResultsController(context: t.context, request: TaskModel.tasks(of: t.home))
        var snapshots: [ResultsSnapshot] = [], differences: [(userDriven: Bool, count: Int)] = []
        c.onSnapshot = { snapshots.append($0) }
        c.onDifference = { [unowned c] in differences.append((c.isPerformingUserDrivenChange, $0.count)) }
        try c.performFetch()
        try c.performUserDrivenChange {
            t.h[4]["position"] = 5
            try t.context.save()
        }
        t.h[0]["position"] = 99
        try t.context.save()
        c.pause()
        try c.resume()
        #expect(snapshots.map(\.isUserDriven) == [true, false, false])
        #expect(snapshots.map(\.isReload) == [false, false, true])
        #expect(differences.map(\.userDriven) == [true, false, false] && differences.map(\.count) == [2, 2, 0])
        #expect(!c.isPerformingUserDrivenChange)
    }

    /// The snapshot names sections and items; the difference removes at old offsets, inserts at new ones,
    /// and pairs a moved row's two ends, also a row that left a section that went.
    @Test func snapshotsAndDifferences() throws {
        let t = try TaskWorld()
        t.h[2]["done"] = true
        try t.context.save()
        let c = ResultsController(context: t.context, request: SectionedResultsTests.byDone(t), sectionKey: "done")
        var snapshots: [ResultsSnapshot] = [], differences: [CollectionDifference<ObjectID>] = []
        c.onSnapshot = { snapshots.append($0) }
        c.onDifference = { differences.append($0) }
        try c.performFetch()
        let first = c.snapshot()
        #expect(first.sections.map(\.items.count) == [4, 1] && first.sections[1].items == [t.h[2].objectID])
        #expect(first.sections.map(\.value) == [.integer(0), .integer(1)] && first.reloaded.isEmpty)
        // c leaves the done section, which goes; b is renamed.
        t.h[2]["done"] = false
        t.h[1]["title"] = "B"
        try t.context.save()
        let ids = t.h.map(\.objectID)
        #expect(snapshots.last?.sections == [ResultsSnapshot.Section(value: .integer(0), items: ids)])
        #expect(snapshots.last?.reloaded == [ids[1], ids[2]])
        let difference = try #require(differences.last)
        #expect(Array(difference.removals) == [.remove(offset: 4, element: ids[2], associatedWith: 2)])
        #expect(Array(difference.insertions) == [.insert(offset: 2, element: ids[2], associatedWith: 4)])
        #expect(first.items.applying(difference) == ids)
        // A delete and an insert: no pairs.
        t.context.delete(t.h[0])
        let f = try t.context.addTask("f", to: t.home, at: 60)
        try t.context.save()
        #expect(
            Array(differences.last!) == [
                .remove(offset: 0, element: ids[0], associatedWith: nil), .insert(offset: 4, element: f.objectID, associatedWith: nil)
            ])
    }
}
