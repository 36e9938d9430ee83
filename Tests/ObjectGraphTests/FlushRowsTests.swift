import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// `Context.flushRows`: rows written a batch at a time inside one transaction, committed (or rolled back)
/// together, recorded for undo by fingerprint, published as one change set.
@Suite struct FlushRowsTests {
    static let model = DeleteTreeTests.model

    /// A saved root, then inside one `c.transaction`: its children in `batches` batches of `perBatch`, each
    /// child with two children of its own in the next batch (so rows point to rows of an earlier flush),
    /// every batch but the last flushed. Returns the root's ID and the rows' IDs.
    static func importTree(_ c: Context, batches: Int, perBatch: Int, name: String = "Import") throws -> (root: ObjectID, rows: [ObjectID]) {
        let e = c.model.entity("Node")!
        let nameSlot = e.slot("name")!, parentSlot = e.slot("parent")!
        let root = try c.insert("Node")
        root["name"] = "root"
        try c.saveWithoutUndo()
        return try c.transaction(actionName: name) {
            var all: [ObjectID] = []
            var previous: [ObjectID] = []
            for b in 0..<batches {
                let ids = try c.reserveObjectIDs(e, count: perBatch)
                var rows: [[Value]] = []
                for (k, _) in ids.enumerated() {
                    var row = e.defaults
                    row[nameSlot] = .string("node \(b).\(k)")
                    row[parentSlot] = .integer(previous.isEmpty ? root.objectID.rowID : previous[k / 2].rowID)
                    rows.append(row)
                }
                c.insertRows(e, ids: ids, values: rows)
                if b < batches - 1 { try c.flushRows() }
                all += ids
                previous = ids
            }
            return (root.objectID, all)
        }
    }

    static func count(_ store: Store) throws -> Int { try Context(store: store).count(FetchRequest("Node")) }

    /// A store in `dir` with one saved root, and a context on it.
    static func storeWithRoot(_ dir: TemporaryDirectory) throws -> (Store, Context, EntityDescription, ManagedObject) {
        let store = try Store(path: dir.path(), model: model)
        let c = Context(store: store)
        let root = try c.insert("Node")
        root["name"] = "root"
        try c.saveWithoutUndo()
        return (store, c, c.model.entity("Node")!, root)
    }

    /// A full disk in the middle of a flush ends SQLite's transaction (no statement journal to take back the
    /// one statement): a caller that catches it and flushes again writes nothing, and nothing commits (found by
    /// review: the later statements ran in autocommit and committed at once).
    @Test func aFullDiskInAFlushCommitsNothingEvenWhenCaught() throws {
        let dir = TemporaryDirectory()
        let (store, c, e, root) = try Self.storeWithRoot(dir)
        var caught: StoreError?, again: (any Error)?
        #expect(throws: StoreError.self) {
            try c.transaction(actionName: "Import") {
                let db = try #require((c.store.backend as? SQLiteStore)?.transaction)
                let pages = try #require(try Int.fetchOne(db, sql: "PRAGMA page_count"))
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages + 3)")
                let ids = try c.reserveObjectIDs(e, count: 256)
                let more = try c.reserveObjectIDs(e, count: 40)
                c.insertRows(e, ids: ids, values: Self.rows(e, count: 256, under: root.objectID, long: true))
                do { try c.flushRows() } catch let error as StoreError { caught = error }
                c.insertRows(e, ids: more, values: Self.rows(e, count: 40, under: root.objectID))
                do { try c.flushRows() } catch { again = error }
            }
        }
        #expect(caught?.code == .diskFull)
        #expect(again != nil)
        #expect(try Self.count(store) == 1)
    }

    static func rows(_ e: EntityDescription, count: Int, under parent: ObjectID, long: Bool = false) -> [[Value]] {
        (0..<count).map { k -> [Value] in
            var row = e.defaults
            row[e.slot("name")!] = .string((long ? String(repeating: "x", count: 1000) : "") + "n\(k)")
            row[e.slot("parent")!] = .integer(parent.rowID)
            return row
        }
    }

    /// A flush the store refuses part-way (a row takes a stored row's ID: in a statement of 32 rows, or among
    /// the last rows written one by one) fails its transaction even when the caller catches the error, and
    /// even when it then calls `rollback()` (found by review: the rollback cleared the failure): the rows
    /// written before the refused one are never committed, and the context goes on.
    @Test(arguments: [(40, false), (70, false), (40, true)])
    func aFailedFlushFailsItsTransactionEvenWhenCaught(badRow: Int, rollingBack: Bool) throws {
        let dir = TemporaryDirectory()
        let (store, c, e, root) = try Self.storeWithRoot(dir)
        var caught: StoreError?
        #expect(throws: StoreError.self) {
            try c.transaction(actionName: "Import") {
                var ids = try c.reserveObjectIDs(e, count: 80)
                ids[badRow] = root.objectID
                c.insertRows(e, ids: ids, values: Self.rows(e, count: 80, under: root.objectID))
                do {
                    try c.flushRows()
                } catch let error as StoreError {
                    caught = error
                    if rollingBack { c.rollback() }
                }
            }
        }
        #expect(caught?.code == .uniqueConstraint)
        #expect(try Self.count(store) == 1)
        let next = try c.insert("Node")
        next["name"] = "after"
        try c.save()
        #expect(try Self.count(store) == 2)
        #expect(root.count("children") == 0)
    }

    @Test func batchesCommitTogetherAsOneChangeAndOneStep() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path(), model: Self.model)
        let watcher = Context(store: try Store(path: dir.path(), model: Self.model))
        _ = try watcher.count(FetchRequest("Node"))
        let c = Context(store: store)
        var seen: [ChangeSet] = []
        _ = c.observeChanges { seen.append($0) }
        let (root, rows) = try Self.importTree(c, batches: 4, perBatch: 500)
        #expect(!c.hasChanges)
        #expect(try Self.count(store) == 1 + 2000)
        #expect(try store.check().isEmpty, "counts kept across batches")
        let e = c.model.entity("Node")!
        #expect(try c.existingObject(for: root)?["childCount"] == Int64(500))
        #expect(try c.existingObject(for: rows[0])?["childCount"] == Int64(2))
        #expect(seen.count == 2)
        #expect(seen[1][e.index].inserted.count == 2000)
        #expect(seen[1][e.index].updated.keys.map(\.self) == [root], "the root's count")
        #expect(seen[1][e.index].updated.count == 1, "a count of a row inserted in the same transaction is part of its insert")
        // Another connection takes the whole transaction in as one change.
        var merged: [ChangeSet] = []
        _ = watcher.observeChanges(includingMerged: true) { merged.append($0) }
        try watcher.store.poll()
        #expect(merged.count == 1 && merged[0][e.index].inserted.count == 2000 + 1)
        // The step keeps IDs and fingerprints: a few bytes a row, not the rows.
        let entry = try #require(try c.undoHistory.entries(limit: 1).first)
        #expect(entry.objectCount == 2000)
        #expect(entry.size < 2000 * 16)
    }

    @Test func undoRemovesEveryRowAndRedoBringsThemBack() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        let (_, rows) = try Self.importTree(c, batches: 3, perBatch: 300)
        // One row held here (shown, say): it is deleted as an object; the others as rows, no object made.
        let held = try #require(try c.existingObject(for: rows[450]))
        let made = c.statistics.objectsCreated
        #expect(try c.undo() == "Import")
        #expect(c.statistics.objectsCreated - made < 10, "no object per row")
        #expect(held.isDeleted || held.context == nil)
        #expect(try c.existingObject(for: rows[451]) == nil)
        #expect(try Self.count(store) == 1)
        #expect(try store.check().isEmpty)
        // The undo kept the rows it deleted in the step: redo has them, values and links.
        #expect(try c.redo() == "Import")
        #expect(try Self.count(store) == 901)
        let back = Context(store: store)
        let last = try #require(try back.existingObject(for: rows.last!))
        #expect(last["name"] == "node 2.299")
        #expect(last.object("parent")?.objectID == rows[300 + 149])
        #expect(try store.check().isEmpty)
        #expect(try c.undo() == "Import")
        #expect(try Self.count(store) == 1)
    }

    @Test func aRowChangedElsewhereStopsTheUndoAndIsKept() throws {
        let dir = TemporaryDirectory()
        let c = Context(store: try Store(path: dir.path(), model: Self.model))
        let (_, rows) = try Self.importTree(c, batches: 2, perBatch: 100)
        let other = Context(store: try Store(path: dir.path(), model: Self.model))
        let changed = try #require(try other.existingObject(for: rows[7]))
        other.undoHistory.recordsActions = false
        changed["name"] = "renamed elsewhere"
        try other.save()
        #expect(throws: UndoConflict.self) { try c.undo() }
        #expect(try Self.count(c.store) == 201, "nothing was deleted")
        #expect(try c.undoHistory.entries(limit: 1).first?.state == .skipped)
    }

    @Test func aBadBatchRollsBackEveryBatch() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        let e = c.model.entity("Node")!
        #expect(throws: (any Error).self) {
            try c.transaction(actionName: "Import") {
                let ids = try c.reserveObjectIDs(e, count: 10)
                c.insertRows(e, ids: ids, values: Array(repeating: e.defaults, count: 10))
                try c.flushRows()
                // A parent that does not exist: the store refuses it (deferred key, at commit).
                var bad = e.defaults
                bad[e.slot("parent")!] = .integer(999_999)
                let more = try c.reserveObjectIDs(e, count: 1)
                c.insertRows(e, ids: more, values: [bad])
                try c.flushRows()
            }
        }
        #expect(!c.hasChanges)
        #expect(try Self.count(store) == 0)
        #expect(try c.undoHistory.entries().isEmpty)
        // The context goes on: the next unit of work saves alone.
        _ = try c.insert("Node")
        try c.save(actionName: "Add")
        #expect(try Self.count(store) == 1)
        #expect(try c.undoHistory.entries().map(\.name) == ["Add"])
    }

    /// A step of fingerprints read by this build encodes and decodes to the same; a step is refused whole
    /// when any byte of its fingerprint part is cut off.
    @Test func fingerprintedStepsRoundTripAndRefuseTruncation() throws {
        var step = UndoRecord(name: "Import")
        step.append(ObjectID(entity: 0, rowID: 5), before: nil, after: [.string("a"), .null, .integer(1)])
        step.appendFingerprinted([(ObjectID(entity: 0, rowID: 6), 42), (ObjectID(entity: 0, rowID: 900), .max)])
        let bytes = step.encoded(changedOnly: false)
        let magic: [UInt8] = Array(bytes.prefix(3))
        #expect(magic == Array("OU2".utf8))
        let back = try #require(UndoRecord.decode(bytes, name: "Import", widths: [3]))
        #expect(back.fingerprinted.map(\.id.rowID) == [6, 900] && back.fingerprinted.map(\.fingerprint) == [42, .max])
        #expect(back.entries.count == 1)
        for cut in 1..<12 { #expect(UndoRecord.decode(Array(bytes.dropLast(cut)), name: "Import", widths: [3]) == nil) }
        var plain = UndoRecord(name: "Add")
        plain.append(ObjectID(entity: 0, rowID: 5), before: nil, after: [.null])
        let plainMagic: [UInt8] = Array(plain.encoded(changedOnly: true).prefix(3))
        #expect(plainMagic == Array("OU1".utf8), "a step without fingerprints stays readable by older builds")
    }
}
