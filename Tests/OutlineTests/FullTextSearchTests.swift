import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// Search through the full-text index (model version 5): Unicode folding, notes, substrings, short
/// queries, the index kept by every kind of write, an exact count and outline order with many hits, and a
/// missing index found by check and built by repair.
@Suite struct FullTextSearchTests {
    private func outline() throws -> Outline {
        Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
    }

    private func titles(_ o: Outline, _ text: String) throws -> [String] {
        try o.searchIDs(text, limit: 1_000_000).map { try #require(try o.row($0)).title }
    }

    @Test func foldsCaseAndDiacriticsAsUnicodeDoes() throws {
        let o = try outline()
        let root = try o.root()
        for t in ["Gödel", "Straße", "e\u{301}cole (combining)", "Écoles", "日本語のメモ", "Party 🎉🎈 time", "İstanbul", "kırmızı", "ΣΟΦΙΑ"] {
            try o.append(t, to: root)
        }
        try o.save()
        #expect(try titles(o, "GÖDEL") == ["Gödel"])
        #expect(try titles(o, "godel") == ["Gödel"])
        #expect(try titles(o, "gödel") == ["Gödel"])
        #expect(try titles(o, "STRASSE") == ["Straße"])
        #expect(try titles(o, "ss") == ["Straße"])
        #expect(try titles(o, "ecole") == ["e\u{301}cole (combining)", "Écoles"])
        #expect(try titles(o, "ÉCOLE") == ["e\u{301}cole (combining)", "Écoles"])
        #expect(try titles(o, "本語") == ["日本語のメモ"])
        #expect(try titles(o, "本") == ["日本語のメモ"])
        #expect(try titles(o, "🎈") == ["Party 🎉🎈 time"])
        #expect(try titles(o, "🎉🎈 t") == ["Party 🎉🎈 time"])
        #expect(try titles(o, "σοφια") == ["ΣΟΦΙΑ"])
        #expect(try titles(o, "sofia").isEmpty, "no transliteration")
        // İ folds to i; the dotless ı stays its own letter (Turkish rules are not applied).
        #expect(try titles(o, "istanbul") == ["İstanbul"])
        #expect(try titles(o, "kirmizi").isEmpty)
        #expect(try titles(o, "KIRMIZI").isEmpty)
        #expect(try titles(o, "kırmızı") == ["kırmızı"])
    }

    @Test func findsSubstringsInTitlesAndNotesAndShortQueries() throws {
        let o = try outline()
        let root = try o.root()
        let a = try o.append("Breakfast", to: root)
        a.note = "porridge with MILK"
        try o.append("Buttermilk", to: a)
        try o.append("ab", to: root)
        try o.append("x", to: root)
        try o.save()
        #expect(try titles(o, "ilk") == ["Breakfast", "Buttermilk"])
        #expect(try titles(o, "rmil") == ["Buttermilk"])
        #expect(try titles(o, "ridge w") == ["Breakfast"])
        #expect(try titles(o, "ab") == ["ab"])
        #expect(try titles(o, "x") == ["x"])
        #expect(try titles(o, "K") == ["Breakfast", "Buttermilk"])
        #expect(try titles(o, "fast\"") == [])  // a quote is text, not FTS syntax
        #expect(try titles(o, "\" OR \"") == [])
        #expect(try titles(o, "*").isEmpty)
        #expect(try titles(o, "burrow").isEmpty, "the top item is not a hit")
        #expect(try o.find("ilk").count == 2)
        #expect(try o.find("k").count == 2)
    }

    @Test func theIndexFollowsEditsUndoRedoDeletesAndImports() throws {
        let o = try outline()
        let root = try o.root().objectID
        let a = try o.perform("Add") { try o.append("Alpha", to: root) }
        let b = try o.perform("Add") { try o.append("Beta", to: a) }
        _ = try o.perform("Add") { try o.append("Gamma below beta", to: b) }
        #expect(try titles(o, "beta") == ["Beta", "Gamma below beta"])
        try o.perform("Rename") { try o.rename(b, to: "Delta") }
        #expect(try titles(o, "beta") == ["Gamma below beta"])
        #expect(try titles(o, "delta") == ["Delta"])
        try o.perform("Note") { _ = try o.setNote(a, to: "a note with beta", ifStill: "", title: "Alpha", keepingUnder: root) }
        #expect(try titles(o, "beta") == ["Alpha", "Gamma below beta"])
        #expect(try o.context.undo() == "Note")
        #expect(try titles(o, "beta") == ["Gamma below beta"])
        #expect(try o.context.redo() == "Note")
        #expect(try titles(o, "beta") == ["Alpha", "Gamma below beta"])
        try o.perform("Delete") { try o.delete(b) }
        #expect(try titles(o, "gamma").isEmpty, "a deleted subtree leaves the index")
        #expect(try o.context.undo() == "Delete")
        #expect(try titles(o, "gamma") == ["Gamma below beta"])
        _ = try o.perform("Import") {
            try o.add([OutlineNode("Imported Gödel", note: "NOTE ÜBER", children: [OutlineNode("Child")])], under: root)
        }
        #expect(try titles(o, "godel") == ["Imported Gödel"])
        #expect(try titles(o, "uber") == ["Imported Gödel"])
        #expect(try o.check().isEmpty)
    }

    @Test func anotherConnectionsWritesAreSearchedAtOnce() throws {
        let dir = TemporaryDirectory("burrow-fts-two")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        let mine = try Outline(path: path)
        let theirs = try Outline(path: path)
        let root = try theirs.root().objectID
        let x = try theirs.perform("Add") { try theirs.append("Written elsewhere", to: root) }
        #expect(try titles(mine, "elsewhere") == ["Written elsewhere"])
        try theirs.perform("Rename") { try theirs.rename(x, to: "Renamed") }
        #expect(try mine.searchIDs("elsewhere").isEmpty)
        #expect(try mine.searchIDs("renamed") == [x])
    }

    /// 24,000 hits (more than the old cap of 10,000, and past the size ordered at once): the count is
    /// exact and the walk gives them all, in the outline's order.
    @Test func manyHitsAreCountedExactlyAndWalkedInOutlineOrder() throws {
        let o = try outline()
        let root = try o.root().objectID
        var random = SeededRandom(seed: TestSeed.seed(0x5EA2C4))
        var nodes: [OutlineNode] = []
        for i in 0..<300 {
            var kids: [OutlineNode] = []
            for j in 0..<90 { kids.append(OutlineNode(random.next() % 10 < 9 ? "hit \(i).\(j)" : "other \(i).\(j)")) }
            nodes.append(OutlineNode(i % 2 == 0 ? "hit group \(i)" : "group \(i)", children: kids))
        }
        _ = try o.perform("Import") { try o.add(nodes, under: root) }
        // Moved out of ID order: outline order is not the order of IDs.
        let first = try #require(o.context.fetch(Outline.level(of: root)).first).objectID
        _ = try o.perform("New first") { try o.insert("hit first", before: first) }
        let results = try o.find("HIT")
        let expected = try o.documentOrder(try o.context.fullTextMatches("hit", entity: "Item"))
        #expect(results.count == expected.count)
        #expect(results.count > 20_000)
        try results.load(upTo: 50)
        #expect(!results.isComplete)
        #expect(results.ordered == Array(expected.prefix(results.ordered.count)))
        #expect(try o.row(try #require(results.ordered.first))?.title == "hit first")
        try results.loadAll()
        #expect(results.isComplete && results.ordered == expected && results.count == expected.count)
    }

    @Test func aDroppedIndexIsFoundByCheckAndBuiltByRepair() throws {
        let dir = TemporaryDirectory("burrow-fts-drop")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        do {
            let o = try Outline(path: path)
            let root = try o.root().objectID
            _ = try o.perform("Add") { try o.append("Findable", to: root) }
            try o.context.store.read { db in try db.execute(sql: "DROP TABLE og_text_Item") }
            #expect(try o.check().contains { $0.contains("search index of Item is missing") })
            #expect(try titles(o, "findable") == ["Findable"], "without its index, search scans")
            _ = try o.perform("Add") { try o.append("Added meanwhile", to: root) }
            #expect(try o.repair().contains { $0.contains("search index") })
            #expect(try o.check().isEmpty)
            #expect(try titles(o, "meanwhile") == ["Added meanwhile"])
            // Damaged text: the index holds what a title no longer says.
            try o.context.store.read { db in
                for row in try Row.fetchAll(db, sql: "SELECT start, data FROM og_text_Item") {
                    let bytes = [UInt8]((row["data"] as Data))
                    let from = Array("findable".utf8), to = Array("stalexxx".utf8)
                    guard let at = (0...(bytes.count - from.count)).first(where: { Array(bytes[$0..<($0 + from.count)]) == from }) else { continue }
                    let damaged = Array(bytes[..<at]) + to + Array(bytes[(at + from.count)...])
                    try db.execute(sql: "UPDATE og_text_Item SET data = ? WHERE start = ?", arguments: [Data(damaged), row["start"] as Int64])
                }
            }
            #expect(try o.check().contains { $0.contains("old text of 1 row") })
            _ = try o.repair()
            #expect(try o.check().isEmpty)
            #expect(try titles(o, "stale").isEmpty)
        }
        // Dropped while closed: the next writer builds it when it opens.
        try Outline(path: path).context.store.read { db in try db.execute(sql: "DROP TABLE og_text_Item") }
        let again = try Outline(path: path)
        #expect(try again.check().isEmpty)
    }

    /// The outline model as version 4 declared it.
    static let version4 = try! Model(version: 4) {
        Entity("Item", type: Item.self) {
            Attribute("title", .string, default: "")
            Attribute("note", .string, optional: true)
            Attribute("done", .bool, default: false)
            Attribute("order", .string, default: "a0")
            Attribute.count("childCount", of: "children")
            Attribute("rootMarker", .integer64, optional: true, unique: true)
            Attribute("created", .date, optional: true)
            Attribute("modified", .date, optional: true)
            Attribute.viewState("expanded", .bool, optional: true)
            Attribute.viewState("hidesDone", .bool, optional: true)
            Relationship.toOne("parent", "Item", inverse: "children")
            Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
            CompoundIndex("parent", "order")
            CompoundIndex("expanded", "parent", sparse: true)
        }
    }

    @Test func aVersion4StoreIsSearchedByAReaderAndIndexedByAWriter() throws {
        let dir = TemporaryDirectory("burrow-fts-v4")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        do {
            let c = Context(store: try Store(path: path, model: Self.version4))
            let root = try c.insert("Item")
            root["title"] = "Burrow"
            root["rootMarker"] = 1
            let a = try c.insert("Item")
            a["title"] = "Gödel from version 4"
            a.setObject(root, for: "parent")
            try c.save()
            c.store.checkpoint()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let reader = try Outline(readingAt: path)
            #expect(try titles(reader, "GODEL") == ["Gödel from version 4"])
            #expect(try reader.item(at: "Gödel from version 4").title == "Gödel from version 4")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "a reader changes no byte")
        let writer = try Outline(path: path)
        #expect(try writer.check().isEmpty)
        let tables = try writer.context.store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name IN ('og_text_Item', 'og_ix_Item_parent_title') ORDER BY name")
        }
        #expect(tables == ["og_ix_Item_parent_title", "og_text_Item"])
        #expect(try titles(writer, "godel") == ["Gödel from version 4"])
    }

    @Test func foldingASCIIBytewiseIsFoundationsFolding() {
        let ascii = String(decoding: (1..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(TextFolding.fold(ascii) == ascii.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
        // Each path: nothing to lower, the bytes either side of A–Z, a non-ASCII byte after an upper-case one.
        for text in ["", "already lower 1.2", "@AZ[`az{", "L4 1.2.3.7 quick BROWN fox", "ABC Ärger", "Zürich"] {
            #expect(TextFolding.fold(text) == text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), "\(text)")
        }
    }
}
