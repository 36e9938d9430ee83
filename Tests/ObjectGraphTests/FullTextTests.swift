import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// A `FullTextIndex` on a model of its own: declared and validated, kept by the SQLite store and matched
/// the same way by the second store type, which folds every row instead.
@Suite struct FullTextTests {
    static let model = try! Model(version: 1) {
        Entity("Card") {
            Attribute("front", .string, default: "")
            Attribute("back", .string, optional: true)
            Attribute("points", .integer64, default: 0)
            FullTextIndex("front", "back")
        }
    }

    @Test func onlyStoredStringAttributesCanBeIndexed() {
        for bad in ["points", "missing"] {
            #expect(throws: ModelError.unknownIndexProperty(entity: "Card", property: bad)) {
                try Model(version: 1) {
                    Entity("Card") {
                        Attribute("front", .string, default: "")
                        Attribute("points", .integer64, default: 0)
                        FullTextIndex("front", bad)
                    }
                }
            }
        }
        let plain = try! Model(version: 1) { Entity("Card") { Attribute("front", .string, default: "") } }
        #expect(!String(decoding: plain.snapshot.json, as: UTF8.self).contains("fullText"), "a model without one keeps its hash")
        #expect(Self.model.versionHash != plain.versionHash)
    }

    @Test(arguments: ["sqlite", "memory"]) func matchesFoldedTextOnEitherStoreType(kind: String) throws {
        let store = kind == "sqlite" ? try Store(inMemoryWith: Self.model) : try MemoryStore(model: Self.model).makeStore()
        let c = Context(store: store)
        var ids: [ObjectID] = []
        for (front, back) in [("Gödel", nil), ("ÉCOLE", "a back with godel"), ("plain", "nothing"), ("ab", nil)] as [(String, String?)] {
            let card = try c.insert("Card")
            card["front"] = front
            card["back"] = back
            ids.append(card.objectID)
        }
        try c.save()
        #expect(try c.fullTextMatches("GODEL", entity: "Card") == [ids[0], ids[1]])
        #expect(try c.fullTextMatches("école", entity: "Card") == [ids[1]])
        #expect(try c.fullTextMatches("b", entity: "Card") == [ids[1], ids[3]])
        #expect(try c.fullTextMatches("godel", entity: "Card", among: [ids[1], ids[2]]) == [ids[1]])
        #expect(try c.fullTextMatches("o", entity: "Card", limit: 2) == [ids[0], ids[1]])
        #expect(try c.fullTextCount("godel", entity: "Card") == 2)
        #expect(try c.fullTextMatches("", entity: "Card").isEmpty)
        let first = try #require(try c.existingObject(for: ids[0]))
        first["front"] = "renamed"
        try c.save()
        #expect(try c.fullTextMatches("godel", entity: "Card") == [ids[1]])
        c.delete(try #require(try c.existingObject(for: ids[1])))
        try c.save()
        #expect(try c.fullTextMatches("godel", entity: "Card").isEmpty)
        #expect(try c.store.check().isEmpty)
    }

    /// A batch delete takes its rows out of the full-text index too, on either store type (the SQLite store
    /// deletes in one statement, the other by IDs as a save does), and leaves the store consistent.
    @Test(arguments: ["sqlite", "memory"]) func aBatchDeleteTakesItsRowsOutOfTheIndex(kind: String) throws {
        let store = kind == "sqlite" ? try Store(inMemoryWith: Self.model) : try MemoryStore(model: Self.model).makeStore()
        let c = Context(store: store)
        for k in 0..<300 {
            let card = try c.insert("Card")
            card["front"] = .string(k % 2 == 0 ? "gödel \(k)" : "plain \(k)")
            card["points"] = .integer(Int64(k % 2))
        }
        try c.save()
        #expect(try c.fullTextCount("godel", entity: "Card") == 150 && c.fullTextCount("plain", entity: "Card") == 150)
        let gone = try c.batchDelete(FetchRequest("Card", where: Property("points") == 1))
        #expect(gone.count == 150)
        #expect(try c.fullTextCount("plain", entity: "Card") == 0 && c.fullTextCount("godel", entity: "Card") == 150)
        #expect(try c.fullTextMatches("plain", entity: "Card").isEmpty)
        #expect(try c.count(FetchRequest("Card")) == 150)
        #expect(try c.store.check().isEmpty)
    }

    /// A text with NUL bytes is indexed whole, by the save and by a rebuild alike (GRDB's `String` would
    /// end it at the first NUL), and the check reads it whole too.
    @Test func textsWithNULAreIndexedWhole() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        let card = try c.insert("Card")
        card["front"] = "before\u{0}after"
        card["back"] = "\u{0}"
        try c.save()
        #expect(try c.fullTextMatches("AFTER", entity: "Card") == [card.objectID])
        #expect(try c.fullTextMatches("e\u{0}a", entity: "Card") == [card.objectID])
        #expect(try store.check().isEmpty)
        try store.read { db in _ = try SQLiteStore.buildFullText(db, Self.model, force: true) }
        #expect(try store.check().isEmpty)
        #expect(try c.fullTextMatches("after", entity: "Card") == [card.objectID])
    }

    /// Deletes of more rows than one statement takes (`SQLiteStore.deleteBatch`), in one save: every
    /// deleted row leaves the index and no other does.
    @Test func manyDeletesInOneSaveLeaveTheIndexExact() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        let n = SQLiteStore.deleteBatch * 2 + 7
        var cards: [ManagedObject] = []
        for k in 0..<n {
            let card = try c.insert("Card")
            card["front"] = "card \(k) " + (k % 3 == 0 ? "kept" : "gone")
            if k % 5 == 0 { card["back"] = "back \(k)" }
            cards.append(card)
        }
        try c.save()
        for (k, card) in cards.enumerated() where k % 3 != 0 { c.delete(card) }
        try c.save()
        let kept = cards.indices.filter { $0 % 3 == 0 }.map { cards[$0].objectID }
        #expect(try c.fullTextCount("gone", entity: "Card") == 0)
        #expect(try c.fullTextMatches("card", entity: "Card") == kept)
        #expect(try c.fullTextCount("back", entity: "Card") == kept.indices.filter { $0 % 5 == 0 }.count)
        #expect(try store.check().isEmpty)
    }

    /// A store whose index an earlier version kept in FTS5 (`og_fts_<Entity>`, stamped otherwise) gets the
    /// chunks when a writer opens it, the FTS5 table dropped; one stamped by this version but for chunks of
    /// another format is built again too.
    @Test func anFTS5IndexOfAnEarlierVersionIsReplaced() throws {
        let folder = TemporaryDirectory("fulltext-fts5")
        let path = folder.path("cards.sqlite")
        do {
            let c = Context(store: try Store(path: path, model: Self.model))
            for k in 0..<50 { try c.insert("Card")["front"] = "card \(k)" + (k % 10 == 0 ? " Gödel" : "") }
            try c.save()
        }
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DROP TABLE og_text_Card")
            try db.execute(sql: "CREATE VIRTUAL TABLE og_fts_Card USING fts5(c0, c1, tokenize = 'trigram case_sensitive 1', columnsize = 0)")
            try db.execute(sql: "INSERT INTO og_fts_Card(rowid, c0) SELECT id, lower(front) FROM Card")
            try db.execute(sql: "UPDATE og_metadata SET value = 'an earlier stamp' WHERE key = 'fulltext_Card'")
        }
        func tables() throws -> [String] {
            try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name IN ('og_fts_Card', 'og_text_Card') ORDER BY name")
            }
        }
        #expect(try tables() == ["og_fts_Card"])
        do {
            let c = Context(store: try Store(path: path, model: Self.model))
            #expect(try tables() == ["og_text_Card"])
            #expect(try c.fullTextCount("godel", entity: "Card") == 5)
            #expect(try c.store.check().isEmpty)
        }
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: "UPDATE og_metadata SET value = replace(value, 'chunks \(TextChunk.format) ', 'chunks 0 ') WHERE key = 'fulltext_Card'")
            try db.execute(sql: "DELETE FROM og_text_Card")
        }
        let c = Context(store: try Store(path: path, model: Self.model))
        #expect(try c.fullTextCount("card", entity: "Card") == 50)
        #expect(try c.store.check().isEmpty)
        withExtendedLifetime(folder) {}
    }

    /// Rows written a batch at a time (`Context.flushRows`) are in the index at once: whatever the
    /// transaction does after sees them (a search, an update and a delete of them, a check), the commit
    /// keeps them, and a rollback forgets them.
    @Test func rowsWrittenInBatchesAreSeenInsideTheTransaction() throws {
        let folder = TemporaryDirectory("fulltext-held")
        let store = try Store(path: folder.path("cards.sqlite"), model: Self.model)
        let c = Context(store: store)
        let e = c.model.entity("Card")!
        let front = e.slot("front")!
        func rows(_ ids: [ObjectID], _ word: String) -> [[Value]] {
            ids.indices.map { k in
                var row = e.defaults
                row[front] = .string("\(word) \(k)")
                return row
            }
        }
        try c.transaction(actionName: "Cards") {
            let ids = try c.reserveObjectIDs(e, count: 300)
            c.insertRows(e, ids: ids, values: rows(ids, "held"))
            try c.flushRows()
            #expect(try c.fullTextCount("held", entity: "Card") == 300)
            let more = try c.reserveObjectIDs(e, count: 200)
            c.insertRows(e, ids: more, values: rows(more, "held"))
            try c.flushRows()
            try #require(try c.existingObject(for: ids[0]))["front"] = "changed"
            c.delete(try #require(try c.existingObject(for: more[0])))
        }
        #expect(try c.fullTextCount("held", entity: "Card") == 498)
        #expect(try c.fullTextCount("changed", entity: "Card") == 1)
        #expect(try store.check().isEmpty)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try c.transaction(actionName: "Rolled back") {
                let ids = try c.reserveObjectIDs(e, count: 100)
                c.insertRows(e, ids: ids, values: rows(ids, "gone"))
                try c.flushRows()
                throw Stop()
            }
        }
        c.rollback()
        try c.transaction(actionName: "After") {
            let ids = try c.reserveObjectIDs(e, count: 10)
            c.insertRows(e, ids: ids, values: rows(ids, "after"))
        }
        #expect(try c.fullTextCount("gone", entity: "Card") == 0)
        #expect(try c.fullTextCount("after", entity: "Card") == 10)
        #expect(try store.check().isEmpty)
        withExtendedLifetime(folder) {}
    }

    /// A batch big enough that its folded texts and fingerprints are worked out on another thread
    /// (`RowPreparation`) is indexed and recorded exactly as row-by-row work would: searches by folded
    /// words in either column find every row, the check finds the index equal to the rows, and the undo
    /// step holds each row's own fingerprint.
    @Test(arguments: [RowPreparation.threshold - 1, RowPreparation.threshold, 3 * RowPreparation.threshold + 5])
    func aBigBatchIsIndexedAndFingerprintedAsASmallOne(rows count: Int) throws {
        let folder = TemporaryDirectory("fulltext-prepared")
        let store = try Store(path: folder.path("cards.sqlite"), model: Self.model)
        let c = Context(store: store)
        let e = c.model.entity("Card")!
        let front = e.slot("front")!, back = e.slot("back")!
        try c.transaction(actionName: "Cards") {
            let ids = try c.reserveObjectIDs(e, count: count)
            let rows: [[Value]] = ids.indices.map { k in
                var row = e.defaults
                row[front] = .string(k % 3 == 0 ? "Zürich \(k)" : "Card \(k)")
                if k % 2 == 0 { row[back] = .string("STRASSE Ĳssel \(k)") }
                return row
            }
            c.insertRows(e, ids: ids, values: rows)
            try c.flushRows()
            let expected = zip(ids, rows).map { ($0, UndoRecord.fingerprint($1, e)) }
            #expect(c.flushed.fingerprints.map(\.id) == expected.map(\.0))
            #expect(c.flushed.fingerprints.map(\.fingerprint) == expected.map(\.1))
        }
        #expect(try c.fullTextCount("zurich", entity: "Card") == (count + 2) / 3)
        #expect(try c.fullTextCount("strasse", entity: "Card") == (count + 1) / 2)
        #expect(try c.fullTextCount("card", entity: "Card") == count - (count + 2) / 3)
        #expect(try store.check().isEmpty)
        #expect(try c.undo() == "Cards")
        #expect(try c.count(FetchRequest("Card")) == 0)
        #expect(try c.fullTextCount("zurich", entity: "Card") == 0)
        withExtendedLifetime(folder) {}
    }
}
