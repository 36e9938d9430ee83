import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// The search index's chunks pushed where the random tests rarely go: rows whose texts put a chunk exactly
/// at its capacity, many chunks of one row each emptied and refilled by undo, IDs far apart, and chunk bytes
/// damaged in ways the codec refuses. Fast, in-process counterparts of the process tests in
/// `OutlineTests/SearchIndex*Tests`.
@Suite struct TextChunkAdversarialTests {
    static let model = try! Model(version: 1) {
        Entity("Card") {
            Attribute("front", .string, default: "")
            Attribute("back", .string, optional: true)
            FullTextIndex("front", "back")
        }
    }

    /// Every card's ID and folded texts, read as blobs (GRDB's `String` ends at a NUL).
    static func foldedRows(_ c: Context) throws -> [(id: Int64, texts: [[UInt8]])] {
        let rows = try c.store.read { db in
            try Row.fetchAll(db, sql: "SELECT id, CAST(front AS BLOB) AS front, CAST(back AS BLOB) AS back FROM Card ORDER BY id")
        }
        return rows.map { row in
            (
                row["id"],
                [row["front"] as Data?, row["back"] as Data?].compactMap {
                    $0.map { Array(TextFolding.fold(String(decoding: $0, as: UTF8.self)).utf8) }
                }
            )
        }
    }

    /// The IDs of the cards whose front or back holds `needle`, by folding every row and testing bytes.
    static func scan(_ rows: [(id: Int64, texts: [[UInt8]])], _ needle: String) -> [Int64] {
        let n = Array(TextFolding.fold(needle).utf8)
        return rows.filter { $0.texts.contains { $0.contains(n) } }.map(\.id)
    }

    static func chunks(_ c: Context) throws -> [(start: Int64, data: [UInt8])] {
        try c.store.read { db in
            try Row.fetchAll(db, sql: "SELECT start, data FROM og_text_Card ORDER BY start").map { ($0["start"], [UInt8]($0["data"] as Data)) }
        }
    }

    /// Every query answered as the rows say, every chunk readable and within capacity (or one row), and the
    /// check clean.
    static func expectExact(_ c: Context, _ queries: [String], _ note: String) throws {
        let rows = try foldedRows(c)
        for q in queries {
            #expect(try c.fullTextMatches(q, entity: "Card").map(\.rowID) == scan(rows, q), "\(note): “\(q.prefix(30))”")
        }
        for chunk in try chunks(c) {
            let read = chunk.data.withUnsafeBytes { TextChunk(decoding: $0, start: chunk.start, columns: 2) }
            #expect(read != nil, "\(note): chunk \(chunk.start) does not read")
            if let read { #expect(chunk.data.count <= TextChunk.capacity + 16 || read.count == 1, "\(note): \(chunk.data.count) bytes") }
        }
        #expect(try c.store.check().isEmpty, "\(note)")
    }

    /// For every size of a big first row from 3,700 to 3,830 bytes, followed by small rows: the writer's
    /// split lands before, at and after the capacity; the rows at either side of it are found by their
    /// first and last bytes, whether inserted in one save, appended one by one, or edited to that size.
    @Test func rowsAroundTheCapacityAreSplitAndFoundExactly() throws {
        for size in stride(from: 3_700, through: 3_830, by: 7) {
            let c = Context(store: try Store(inMemoryWith: Self.model))
            let big = try c.insert("Card")
            big["front"] = "start" + String(repeating: "m", count: size - 8) + "end"
            for k in 0..<6 {
                let card = try c.insert("Card")
                card["front"] = "small\(k)x"
                card["back"] = k % 2 == 0 ? nil : "back\(k)y"
            }
            try c.save(actionName: "Add")
            try Self.expectExact(c, ["startm", "mend", "small0x", "small5x", "back3y", "x", "mmmmmmmmmmmmmmmmmmmm"], "size \(size)")
            // The big row grown byte by byte across the capacity, one save each.
            for grow in 0..<4 {
                big["back"] = String(repeating: "ü", count: 2 * grow) + "grown\(grow)"
                try c.save(actionName: "Edit")
                try Self.expectExact(c, ["grown\(grow)", "small5x", "uu"], "size \(size) + \(grow)")
            }
        }
    }

    /// 150 cards of 2,000 to 5,000 bytes (a chunk each, or two to a chunk), from two contexts (so their IDs
    /// come in blocks), then: every other one deleted in one save, texts swapped between big and empty,
    /// undo and redo of each, and the whole lot deleted and undone. After each step: exact search, every
    /// chunk readable, check clean.
    @Test(arguments: TestSeed.seeds([0xC4A1, 0xC4A2])) func manySmallChunksSurviveDeletesAndUndo(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let folder = TemporaryDirectory("chunks-many")
        let path = folder.path("cards.sqlite")
        let a = Context(store: try Store(path: path, model: Self.model))
        let b = Context(store: try Store(path: path, model: Self.model))
        func text(_ k: Int) -> String {
            // Mostly ASCII (folded byte by byte); every seventh through Foundation's folding.
            "t\(k)t " + String(repeating: ["godel ", "garden ", "ecole "][k % 3], count: 300 + rng.below(500)) + (k % 7 == 0 ? " ÉCOLE Gödel" : "")
                + " e\(k)e"
        }
        for k in 0..<150 {
            let c = k % 4 < 2 ? a : b
            let card = try c.insert("Card")
            card["front"] = text(k)
            if k % 5 == 0 { card["back"] = "back \(k)" }
            if k % 10 == 9 { try c.save(actionName: "Add") }
        }
        try a.save(actionName: "Add")
        try b.save(actionName: "Add")
        let queries = ["godel", "t17t", "e149e", "back 5", "garden garden", "t1", "ecole", " e"]
        try Self.expectExact(a, queries, "added; \(rng.note)")
        #expect(try Self.chunks(a).count > 40)

        let cards = try a.fetch(FetchRequest("Card"))
        for (k, card) in cards.enumerated() where k % 2 == 0 { a.delete(card) }
        try a.save(actionName: "Delete")
        try Self.expectExact(a, queries, "every other deleted; \(rng.note)")
        let left = try b.fetch(FetchRequest("Card"))
        for (k, card) in left.enumerated() {
            card["front"] = k % 3 == 0 ? "" : text(1000 + k)
            card["back"] = k % 3 == 1 ? text(2000 + k) : nil
        }
        try b.save(actionName: "Swap")
        try Self.expectExact(a, queries + ["t1000t", "t2001t"], "swapped; \(rng.note)")
        #expect(try b.undo() == "Swap")
        try Self.expectExact(a, queries + ["t1000t"], "swap undone; \(rng.note)")
        #expect(try a.undo() == "Delete")
        try Self.expectExact(a, queries, "delete undone; \(rng.note)")
        #expect(try a.redo() == "Delete")
        try Self.expectExact(a, queries, "delete redone; \(rng.note)")
        for card in try a.fetch(FetchRequest("Card")) { a.delete(card) }
        try a.save(actionName: "Delete all")
        #expect(try Self.chunks(a).isEmpty)
        try Self.expectExact(a, queries, "all deleted; \(rng.note)")
        #expect(try a.undo() == "Delete all")
        try Self.expectExact(a, queries, "all back; \(rng.note)")
        withExtendedLifetime(folder) {}
    }

    /// A scan of bytes the codec refuses (texts cut short, an extra 0xFF, a stray 0xFE) fails, so the
    /// store falls back to the rows, or finds exactly what the whole chunk held. 200 random chunks, each
    /// damaged three ways.
    @Test(arguments: TestSeed.seeds([21])) func scansOfBytesTheCodecRefusesFailOrAreExact(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var wrong: [String] = []
        for trial in 0..<200 {
            var chunk = TextChunk(columns: 2)
            var id = Int64(1 + rng.below(100))
            let start = id
            for _ in 0..<(2 + rng.below(20)) {
                let texts: [String?] = [
                    "front \(id) " + String(repeating: "ab", count: rng.below(20)),
                    rng.below(3) == 0 ? nil : "back \(id) " + String(repeating: "ba", count: rng.below(20))
                ]
                chunk.append(id) { texts[$0] }
                id += Int64(1 + rng.below(5))
            }
            let bytes = chunk.encoded(start: start)
            let textStart = bytes.count - chunk.ids.indices.reduce(0) { $0 + chunk.rowSize($1) }
            for damage in 0..<3 {
                var broken = bytes
                switch damage {
                case 0: broken.removeLast(1 + rng.below(min(40, broken.count - textStart - 1)))
                case 1: broken[textStart + rng.below(broken.count - textStart)] = 0xFF
                default:
                    let letters = (textStart..<broken.count).filter { broken[$0] != 0xFF && broken[$0] != 0xFE }
                    broken[letters[rng.below(letters.count)]] = 0xFE
                }
                guard broken.withUnsafeBytes({ TextChunk(decoding: $0, start: start, columns: 2) }) == nil else { continue }
                for needle in ["front", "back", "ab", "ba", "b", " "] {
                    var hits: [Int64] = []
                    var scanner = TextChunkScanner(needle: Array(needle.utf8), columns: 2)
                    let ok = broken.withUnsafeBytes { scanner.scan($0, start: start, among: nil, limit: .max, into: &hits) }
                    var whole: [Int64] = []
                    var wholeScanner = TextChunkScanner(needle: Array(needle.utf8), columns: 2)
                    _ = bytes.withUnsafeBytes { wholeScanner.scan($0, start: start, among: nil, limit: .max, into: &whole) }
                    if ok && hits != whole {
                        wrong.append("trial \(trial), damage \(damage), “\(needle)”: scan of refused bytes gave \(hits), the chunk holds \(whole)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong scans, first: \(wrong.prefix(3)); \(rng.note)")
    }

    /// Every chunk the writer makes reads back as written, even holding IDs more than Int64.max apart
    /// (rows written by another program).
    @Test func chunksOfIDsFarApartReadBackAsWritten() {
        for ids in [[Int64.min, 1], [Int64.min, 0, Int64.max], [-(1 << 62), 1 << 62], [Int64.min + 1, Int64.max]] {
            var chunk = TextChunk(columns: 2)
            for id in ids { chunk.append(id) { $0 == 0 ? "row \(id)" : nil } }
            let bytes = chunk.encoded(start: ids[0])
            let back = bytes.withUnsafeBytes { TextChunk(decoding: $0, start: ids[0], columns: 2) }
            #expect(back?.ids == ids, "\(ids)")
        }
    }

    /// After a chunk's format byte is damaged, search is right (it falls back to the rows), and an edit
    /// of a row in that chunk keeps it right: the save marks the index damaged rather than rewriting the
    /// chunk from the edit alone.
    @Test func anEditOverAnUnreadableChunkKeepsItsOtherRowsFound() throws {
        let folder = TemporaryDirectory("chunks-damaged-edit")
        let path = folder.path("cards.sqlite")
        let c = Context(store: try Store(path: path, model: Self.model))
        var cards: [ManagedObject] = []
        for k in 0..<200 {
            let card = try c.insert("Card")
            card["front"] = "card \(k) common " + String(repeating: "x", count: 40)
            cards.append(card)
        }
        try c.save(actionName: "Add")
        let all = try Self.chunks(c)
        #expect(all.count >= 3)
        let middle = all[all.count / 2]
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE og_text_Card SET data = ? WHERE start = ?", arguments: [Data([7] + middle.data.dropFirst()), middle.start])
        }
        try queue.close()
        #expect(try c.fullTextMatches("common", entity: "Card").count == 200, "the damaged chunk is searched through the rows")
        let inside = try #require(cards.first { $0.objectID.rowID > middle.start })
        inside["front"] = "edited common"
        try c.save(actionName: "Edit")
        let found = try c.fullTextMatches("common", entity: "Card").map(\.rowID)
        #expect(found == Self.scan(try Self.foldedRows(c), "common"), "\(found.count) found")
        withExtendedLifetime(folder) {}
    }
}

extension Array where Element == UInt8 {
    /// True when `needle`'s bytes appear in a row here: the plainest search (through raw buffers, so a
    /// debug build tests a few megabytes in milliseconds).
    fileprivate func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard count >= needle.count else { return false }
        return withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { n in
                for i in 0...(hay.count - n.count) where hay[i] == n[0] {
                    var k = 1
                    while k < n.count && hay[i + k] == n[k] { k += 1 }
                    if k == n.count { return true }
                }
                return false
            }
        }
    }
}
