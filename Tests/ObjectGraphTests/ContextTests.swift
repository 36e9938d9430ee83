import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

@Suite struct ContextTests {
    static let model = try! Model {
        Entity("Row") {
            Attribute("n", .integer64, default: 0, indexed: true)
            Attribute("label", .string, default: "", maxLength: 20)
        }
    }

    func filled(_ count: Int) throws -> Store {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        for i in 0..<count {
            let r = try c.insert("Row")
            r["n"] = .integer(Int64(i))
            r["label"] = .string("row \(i)")
        }
        try c.save()
        return store
    }

    /// An object read after its row was deleted elsewhere is never handed out as existing, and is its row
    /// again once the row is back (restored by an undo elsewhere). Found by the sharing simulation: a
    /// refused redo made such an object, and a later save wrote to the missing row.
    @Test func anObjectReadAfterItsRowWentIsNotExistingUntilTheRowIsBack() throws {
        let store = try filled(2)
        let a = Context(store: store), b = Context(store: store)
        let id = try #require(try a.fetch(FetchRequest("Row", sortedBy: [SortKey("n")])).first).objectID
        let theirs = try #require(try b.existingObject(for: id))
        b.delete(theirs)
        try b.save()
        let mine = a.object(for: id)
        a.rowCache[id] = nil
        mine.turnIntoFault()
        _ = mine["label"]
        #expect(mine.isInaccessible)
        #expect(try a.existingObject(for: id) == nil)
        #expect(try b.undo() != nil)
        let back = try #require(try a.existingObject(for: id))
        #expect(back === mine && !back.isInaccessible)
        #expect(back["label"] == .string("row 0"))
    }

    /// A read that fails where the API cannot throw (a relationship's members, a fault) is not taken for
    /// "none" or "deleted" by the next save: it fails with the error, writing nothing, and the one after works.
    @Test func aReadThatFailedWhereNothingCouldThrowFailsTheNextSave() throws {
        let dir = TemporaryDirectory("og-read-failure")
        let path = dir.path("s.sqlite")
        let store = try Store(path: path, model: TaskModel.model)
        let c = Context(store: store)
        let list = try c.insert("List")
        list["name"] = .string("L")
        let task = try c.insert("Task")
        task.setObject(list, for: "list")
        try c.save()
        let fresh = Context(store: store)
        let l = try #require(try fresh.existingObject(for: list.objectID))
        // Another connection takes the tasks' table away: reading the list's tasks fails.
        let other = try DatabaseQueue(path: path)
        try other.write { try $0.execute(sql: "ALTER TABLE \"Task\" RENAME TO \"TaskAside\"") }
        #expect(l.objectIDs("tasks").isEmpty)
        l["name"] = .string("changed")
        #expect(performing: { try fresh.save() }, throws: { ($0 as? StoreError)?.message.contains("a read failed before it") == true })
        try other.write { try $0.execute(sql: "ALTER TABLE \"TaskAside\" RENAME TO \"Task\"") }
        #expect(try Context(store: store).existingObject(for: list.objectID)?["name"] == .string("L"), "nothing was saved")
        #expect(fresh.takeReadFailure() == nil, "told once")
        let again = try #require(try fresh.existingObject(for: list.objectID))
        again["name"] = .string("changed")
        try fresh.save()
        #expect(try Context(store: store).existingObject(for: list.objectID)?["name"] == .string("changed"))
    }

    @Test func fetchCreatesObjectsOnlyForWhatIsTouched() throws {
        let store = try filled(10_000)
        let c = Context(store: store)
        let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
        #expect(rows.count == 10_000)
        #expect(c.statistics.objectsCreated == 0)
        #expect(c.statistics.rowsLoaded == 0)
        for i in [0, 1, 2, 5000, 9999] { _ = rows[i]["label"] }
        #expect(c.statistics.objectsCreated == 5)
        #expect(c.statistics.rowsLoaded <= 3 * c.batchSize)
        #expect(c.statistics.batchLoads == 3)
        var sum: Int64 = 0
        for r in rows { sum += r["n"] }
        #expect(sum == Int64(10_000 * 9_999 / 2))
        // Reading on in order continues each batch from the last row read: one range scan, no ID lists.
        #expect(c.statistics.rowsReadInOrder >= 10_000 - 3 * c.batchSize)
        #expect(c.statistics.objectsCreated == 10_000)
        #expect(c.statistics.faultsFired == 0)
        #expect(c.statistics.batchLoads <= 10_000 / c.batchSize + 4)
    }

    /// A row read ahead in a result's batch and changed by another context's save before it is touched
    /// is read as saved, not as it was read ahead: a merge leaves no stale row in the batch.
    @Test func aRowReadAheadAndChangedElsewhereIsReadAsSaved() throws {
        let store = try filled(100)
        let c = Context(store: store)
        let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
        #expect(rows[3]["label"] == .string("row 3"))
        let other = Context(store: store)
        let changed = try #require(try other.existingObject(for: rows.objectID(at: 4)))
        changed["label"] = .string("changed")
        try other.save()
        #expect(rows[4]["label"] == .string("changed"))
        try other.batchUpdate(FetchRequest("Row"), set: ["label": "all"])
        #expect(rows[5]["label"] == .string("all"))
    }

    /// The first rows of a result made into objects another way (read by ID, as a screen's first rows are):
    /// the first batch after them is read in order from the start, one scan, not by a list of IDs, and the
    /// batches after it go on from it (found by timing: the first scroll of a level cost twice a key).
    @Test func theFirstBatchAfterRowsReadAnotherWayIsReadInOrder() throws {
        let store = try filled(1000)
        let c = Context(store: store)
        let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
        for i in 0..<22 { _ = try c.existingObject(for: rows.objectID(at: i))?["label"] }
        let before = c.statistics
        #expect(rows[22]["label"] == .string("row 22"))
        #expect(c.statistics.rowsReadInOrder - before.rowsReadInOrder >= c.batchSize)
        #expect(c.statistics.rowsLoaded - before.rowsLoaded == c.statistics.rowsReadInOrder - before.rowsReadInOrder, "none by ID")
        for i in 23..<1000 { #expect(rows[i]["label"] == .string("row \(i)")) }
        #expect(c.statistics.rowsLoaded - before.rowsLoaded == c.statistics.rowsReadInOrder - before.rowsReadInOrder, "none by ID")
        #expect(c.statistics.batchLoads - before.batchLoads == (1000 + 22) / c.batchSize + 1)
    }

    /// The first index where `a` and `b` differ (the shorter one's end when one is the other's start), or -1.
    /// A function of its own: the same closure inside `#expect`'s message took seconds to type-check.
    static func firstDifference(_ a: [Int64], _ b: [Int64]) -> Int {
        (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? (a.count == b.count ? -1 : min(a.count, b.count))
    }

    /// Batches read in order check each row's ID; when the store changed under a result, or the result
    /// holds unsaved rows, every element still is the object its ID names.
    @Test func batchedReadsStayCorrectWhenTheStoreChanges() throws {
        let store = try filled(2000)
        let reader = Context(store: store)
        reader.batchSize = 64
        let request = FetchRequest("Row", where: Property("n") >= Int64(10), sortedBy: [SortKey("n")])
        let rows = try reader.fetch(request)
        _ = rows[0]["n"]
        // Another context deletes some rows and inserts rows that sort in the middle of the result.
        let writer = Context(store: store)
        for r in try writer.fetch(FetchRequest("Row", where: Property("n") < Int64(300) && Property("n") >= Int64(100))) {
            writer.delete(r)
        }
        for i in 0..<50 {
            let r = try writer.insert("Row")
            r["n"] = .integer(Int64(500 + i))
            r["label"] = "new"
        }
        try writer.save()
        var seen: [Int64] = []
        for (i, r) in rows.enumerated() {
            if r.isInaccessible { continue }
            #expect(r.objectID.rowID == rows.rowIDs[i])
            seen.append(r["n"])
        }
        let survivors = [Int64](10..<100) + [Int64](300..<2000)
        #expect(seen.count == survivors.count)
        #expect(seen == survivors, "first difference at \(Self.firstDifference(seen, survivors))")
        // Unsaved rows merged into a result, and a descending order, read correctly too.
        let extra = try reader.insert("Row")
        extra["n"] = 150
        let merged = try reader.fetch(request)
        let expected = ([Int64](10..<100) + [150] + [Int64](300..<2000) + [Int64](500..<550)).sorted()
        let got = merged.map { $0["n"] as Int64 }
        #expect(got.count == expected.count)
        #expect(got == expected, "first difference at \(Self.firstDifference(got, expected))")
        let down = try reader.fetch(FetchRequest("Row", sortedBy: [SortKey("n", ascending: false)]))
        let values = down.map { $0["n"] as Int64 }
        #expect(values == values.sorted(by: >))
        #expect(values.count == 2000 - 200 + 50 + 1)
    }

    /// Ordered batches seek on the first sort key and skip the anchor's ties by ID: with a few ties, many
    /// ties (more than a batch), and none, every element is the right object and is read in order.
    @Test func orderedBatchesHandleTiedSortKeys() throws {
        for groups in [1, 7, 1000] {
            let store = try Store(inMemoryWith: Self.model)
            let w = Context(store: store)
            for i in 0..<1000 {
                let r = try w.insert("Row")
                r["n"] = .integer(Int64((i * 7919) % groups))
                r["label"] = .string("row \(i)")
            }
            try w.save()
            let c = Context(store: store)
            c.batchSize = 16
            let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
            var previous: (Int64, Int64) = (.min, .min)
            for (i, r) in rows.enumerated() {
                #expect(r.objectID.rowID == rows.rowIDs[i])
                let key = (r["n"] as Int64, r.objectID.rowID)
                #expect(key > previous)
                previous = key
                #expect(r["label"] as String == (w.registered[r.objectID]!["label"] as String))
            }
            #expect(c.statistics.rowsReadInOrder >= 1000 - c.batchSize, "groups: \(groups)")
            #expect(c.statistics.faultsFired == 0)
        }
    }

    @Test func saveIsAtomicOnValidationFailure() throws {
        let store = try filled(3)
        let c = Context(store: store)
        let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
        rows[0]["label"] = "this label is far too long"
        rows[1]["label"] = "fine"
        let extra = try c.insert("Row")
        extra["n"] = 5
        extra["label"] = .string(String(repeating: "x", count: 21))
        c.delete(rows[2])
        let errors = validationErrors { try c.save() }
        #expect(
            errors == [
                "Row \(extra.objectID).label is longer than 20",
                "Row \(rows[0].objectID).label is longer than 20"
            ])
        #expect(c.hasChanges)
        let other = Context(store: store)
        let stored = try other.fetch(FetchRequest("Row", sortedBy: [SortKey("n")])).map { $0["label"] as String }
        #expect(stored == ["row 0", "row 1", "row 2"])
        rows[0]["label"] = "short"
        extra["label"] = "ok"
        try c.save()
        let after = try Context(store: store).fetch(FetchRequest("Row", sortedBy: [SortKey("n")])).map { $0["label"] as String }
        #expect(after == ["short", "fine", "ok"])
    }

    @Test func rollbackDiscardsEverything() throws {
        let store = try filled(2)
        let c = Context(store: store)
        let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
        let first = rows[0], second = rows[1]
        first["label"] = "changed"
        c.delete(second)
        let added = try c.insert("Row")
        #expect(c.hasChanges)
        c.rollback()
        #expect(!c.hasChanges)
        #expect(first["label"] == .string("row 0"))
        #expect(!second.isDeleted)
        #expect(added.context == nil)
        #expect(try c.count(FetchRequest("Row")) == 2)
        try c.save()
    }

    @Test func objectsThatOutliveTheirContextLoseIt() throws {
        let store = try filled(2)
        var c: Context? = Context(store: store)
        weak let gone = c
        let (loaded, fault) = try { () throws -> (ManagedObject, ManagedObject) in
            let rows = try c!.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
            return (rows[0], c!.object(for: rows.objectID(at: 1)))
        }()
        #expect(fault.isFault)
        c = nil
        #expect(gone == nil)
        #expect(loaded.context == nil && fault.context == nil)
        // Still readable: what was loaded stays, a fault reads as defaults instead of reaching a freed context.
        #expect(loaded["label"] == .string("row 0"))
        #expect(fault["label"] == .string(""))
        #expect(fault.isInaccessible)
    }

    /// Every way an object leaves its context clears its link: inserted then deleted in one unit of work
    /// (the old code kept the link, which dangled once the context went), deleted and saved, rolled back,
    /// deleted by another context. Reading each after the context is gone reads nil, never freed memory.
    @Test func everyObjectThatLeavesItsContextLetsGoOfIt() throws {
        let store = try filled(3)
        var c: Context? = Context(store: store)
        weak let gone = c
        let objects = try { () throws -> [ManagedObject] in
            let c = c!
            let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
            let shortLived = try c.insert("Row")
            c.delete(shortLived)  // never saved: it simply stops existing
            let saved = rows[0]
            c.delete(saved)
            try c.save()
            let rolledBack = try c.insert("Row")
            c.rollback()
            let theirs = rows[1]
            _ = theirs["label"]
            let other = Context(store: store)
            other.delete(try #require(try other.existingObject(for: theirs.objectID)))
            try other.save()
            return [shortLived, saved, rolledBack, theirs]
        }()
        for o in objects { #expect(o.context == nil, "\(o)") }
        c = nil
        #expect(gone == nil)
        for o in objects {
            #expect(o.context == nil)
            _ = o["label"]
        }
    }

    /// Windows and ID lists of every size share a few prepared statements: 10,000 distinct positions and
    /// `IN` lists of 1…3,000 values leave the cache under its cap (it grew by one statement each before).
    @Test func theStatementCacheStaysBounded() throws {
        let store = try filled(10_000)
        let c = Context(store: store)
        for i in stride(from: 0, to: 10_000, by: 1) {
            var r = FetchRequest("Row", sortedBy: [SortKey("n")])
            r.offset = i
            r.limit = 1 + i % 7
            let found = try c.fetch(r)
            #expect(found.count == min(1 + i % 7, 10_000 - i))
            if i % 1000 == 0 { #expect(found[0]["n"] == .integer(Int64(i))) }
        }
        for n in stride(from: 1, through: 3000, by: 7) {
            let values = (0..<n).map { Int64($0) }
            #expect(try c.count(FetchRequest("Row", where: Property("n").oneOf(values))) == n)
        }
        #expect(store.cachedStatements <= Store.statementCacheLimit)
        #expect(store.cachedStatements < 64)
    }

    @Test func changeSetNamesInsertedUpdatedAndDeleted() throws {
        let store = try filled(3)
        let c = Context(store: store)
        var sets: [ChangeSet] = []
        c.observeChanges { sets.append($0) }
        let rows = try c.fetch(FetchRequest("Row", sortedBy: [SortKey("n")]))
        rows[0]["label"] = "renamed"
        rows[1]["n"] = 1  // no real change
        c.delete(rows[2])
        let added = try c.insert("Row")
        try c.save()
        try c.save()  // nothing to save: no change set
        #expect(sets.count == 1)
        let e = sets[0][0]
        #expect(e.inserted == [added.objectID])
        #expect(e.deleted == [rows[2].objectID])
        #expect(e.updated.count == 1)
        #expect(e.updated[rows[0].objectID]?.names(in: c.model.entities[0]) == ["label"])
    }

    @Test func objectChangedKeysAndHasChanges() throws {
        let store = try filled(1)
        let c = Context(store: store)
        let r = try c.fetch(FetchRequest("Row"))[0]
        #expect(!r.hasChanges)
        r["label"] = "x"
        #expect(r.hasChanges)
        #expect(r.changedKeys == ["label"])
        r["label"] = "row 0"
        #expect(r.changedKeys == [])
        try c.save()
        #expect(!c.hasChanges)
    }

    @Test func uniqueConstraintNamesEntityAndAttribute() throws {
        let model = try Model { Entity("User") { Attribute("login", .string, unique: true) } }
        let c = Context(store: try Store(inMemoryWith: model))
        let a = try c.insert("User"), b = try c.insert("User")
        a["login"] = "sam"
        b["login"] = "sam"
        let e = storeError { try c.save() }
        #expect(e?.code == .uniqueConstraint)
        #expect(e?.entity == "User")
        #expect(e?.property == "login")
        #expect(c.hasChanges)
        b["login"] = "max"
        try c.save()
    }

    /// Observers are called in the order they were added, on every context (a dictionary's order differs
    /// from one instance to the next).
    @Test func observersAreCalledInTheOrderTheyWereAdded() throws {
        let store = try Store(inMemoryWith: TaskModel.model)
        for round in 0..<20 {
            let context = Context(store: store)
            var calls: [Int] = []
            for i in 0..<6 { context.observeChanges { _ in calls.append(i) } }
            _ = try context.addList("r\(round)")
            try context.save()
            #expect(calls == Array(0..<6), "round \(round)")
        }
    }
}
