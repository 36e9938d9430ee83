import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// The search index's chunks (`TextChunk`, `og_text_<Entity>`) against the simplest model there is: every
/// row's text folded, and a substring test. Random saves of inserts, renames, notes set and cleared,
/// deletes of many rows, undo and redo, with texts from empty to bigger than a chunk, in several
/// contexts (so IDs come in blocks with gaps, and undo brings rows back between others): after each, every
/// query finds what a scan of the rows finds, the chunks hold disjoint runs within their capacity, and the
/// store's check is clean.
@Suite struct TextChunkIndexTests {
    static let model = try! Model(version: 1) {
        Entity("Card") {
            Attribute("front", .string, default: "")
            Attribute("back", .string, optional: true)
            FullTextIndex("front", "back")
        }
    }

    // MARK: The codec and the byte search

    @Test(arguments: TestSeed.seeds([1, 2, 3])) func chunksReadBackAsWrittenAndBrokenOnesAreRefused(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let columns = Int.random(in: 1...3, using: &rng)
            var chunk = TextChunk(columns: columns)
            let start = Int64.random(in: 0...1_000_000, using: &rng)
            var id = start + Int64.random(in: 0...5, using: &rng)
            var expected: [(Int64, [String?])] = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                let texts: [String?] = (0..<columns).map { _ in
                    Bool.random(using: &rng) ? nil : String(repeating: "ab€\u{0}", count: Int.random(in: 0...30, using: &rng))
                }
                chunk.append(id) { texts[$0] }
                expected.append((id, texts))
                id += Int64.random(in: 1...300, using: &rng)
            }
            let bytes = chunk.encoded(start: start)
            #expect(abs(bytes.count - chunk.size) <= 12, "the running size is close to the encoded one")
            let back = try #require(bytes.withUnsafeBytes { TextChunk(decoding: $0, start: start, columns: columns) })
            for k in 0..<back.count {
                #expect(back.ids[k] == expected[k].0)
                #expect(back.texts(ofRow: k) == expected[k].1)
            }
            // Every cut and many single-byte changes: refused or read, never a crash or an overrun.
            for cut in Set(Array(0..<min(bytes.count, 40)) + Array(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)))) {
                #expect(Array(bytes[..<cut]).withUnsafeBytes { TextChunk(decoding: $0, start: start, columns: columns) } == nil)
            }
            for _ in 0..<50 {
                var broken = bytes
                broken[Int.random(in: 0..<broken.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                let read = broken.withUnsafeBytes { TextChunk(decoding: $0, start: start, columns: columns) }
                // A scan of damaged bytes never reads past them; of bytes that still read as a chunk, it finds
                // what that chunk's texts say.
                for needle in ["a", "b€", "\u{0}a"] {
                    var hits: [Int64] = []
                    var scanner = TextChunkScanner(needle: Array(needle.utf8), columns: columns)
                    let scanned = broken.withUnsafeBytes { scanner.scan($0, start: start, among: nil, limit: .max, into: &hits) }
                    if let read {
                        #expect(scanned && hits == Self.rows(of: read, containing: needle))
                    }
                }
            }
            for needle in ["a", "b€", "\u{0}a", "€\u{0}ab"] {
                var hits: [Int64] = []
                var scanner = TextChunkScanner(needle: Array(needle.utf8), columns: columns)
                let scanned = bytes.withUnsafeBytes { scanner.scan($0, start: start, among: nil, limit: .max, into: &hits) }
                #expect(scanned && hits == Self.rows(of: back, containing: needle))
                #expect(hits == expected.filter { $0.1.contains { $0?.contains(needle) ?? false } }.map(\.0))
            }
        }
    }

    /// The rows of `chunk` with a text holding `needle`, by the plainest test.
    static func rows(of chunk: TextChunk, containing needle: String) -> [Int64] {
        var out: [Int64] = []
        for k in 0..<chunk.count where chunk.texts(ofRow: k).contains(where: { $0.map { Array($0.utf8).holds(Array(needle.utf8)) } ?? false }) {
            out.append(chunk.ids[k])
        }
        return out
    }

    /// Chunks of texts from a tiny alphabet (so matches are everywhere, at every offset of the 16-byte
    /// blocks the scan reads, and across texts and rows without being matches), scanned for short needles:
    /// the rows found are what testing each text finds, whatever the limit and the IDs asked for.
    @Test(arguments: TestSeed.seeds([4, 5])) func scansFindWhatTestingEachTextFinds(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let letters = ["a", "b", "é", "\u{0}"]
        for _ in 0..<1_500 {
            let columns = Int.random(in: 1...3, using: &rng)
            var chunk = TextChunk(columns: columns)
            var id = Int64.random(in: 1...50, using: &rng)
            let start = id - Int64.random(in: 0...3, using: &rng)
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                let texts: [String?] = (0..<columns).map { _ in
                    Int.random(in: 0..<5, using: &rng) == 0
                        ? nil : (0..<Int.random(in: 0...12, using: &rng)).map { _ in letters.randomElement(using: &rng)! }.joined()
                }
                chunk.append(id) { texts[$0] }
                id += Int64.random(in: 1...3, using: &rng)
            }
            let needle = (0..<Int.random(in: 1...4, using: &rng)).map { _ in letters.randomElement(using: &rng)! }.joined()
            let expected = Self.rows(of: chunk, containing: needle)
            let bytes = chunk.encoded(start: start)
            let limit = Bool.random(using: &rng) ? Int.max : Int.random(in: 0...5, using: &rng)
            let among = Bool.random(using: &rng) ? nil : chunk.ids.filter { _ in Bool.random(using: &rng) }
            var scanner = TextChunkScanner(needle: Array(needle.utf8), columns: columns)
            var hits: [Int64] = [-1]
            let ok = bytes.withUnsafeBytes { scanner.scan($0, start: start, among: among, limit: limit, into: &hits) }
            let wanted = expected.filter { id in among.map { $0.contains(id) } ?? true }
            #expect(ok && hits == [-1] + wanted.prefix(max(0, limit - 1)), "“\(needle)” in \(chunk.count) rows of \(columns)")
        }
    }

    // MARK: The index against a scan of the rows

    @Test(arguments: TestSeed.seeds([11, 12, 13, 14])) func randomSavesKeepTheIndexEqualToTheRows(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let folder = TemporaryDirectory("chunks-random")
        let path = folder.path("cards.sqlite")
        let contexts = try (0..<3).map { _ in Context(store: try Store(path: path, model: Self.model)) }
        // Saves here race on purpose, over what the other side read (the invariants under test are the store's): last writer wins (`MergePolicy.overwrite`), as before that policy was the default.
        for c in contexts { c.mergePolicy = .overwrite }
        // The searching store holds the index in memory from its second search on (`TextIndexCache`),
        // patched from the log after each save here or in the other stores; half the seeds scan it in two
        // halves at once from two chunks on.
        if seed % 2 == 1 { contexts[0].store.sqlite.heldIndexParallelChunks = 2 }
        let words = ["Gödel", "ÉCOLE", "straße", "garden", "x", "", "日本", "a\nb", "zz", "nul\u{0}byte"]
        func text() -> String {
            switch Int.random(in: 0..<60, using: &rng) {
            case 0: return String(repeating: "long garden text ", count: Int.random(in: 250...350, using: &rng))
            case 1: return ""
            default: return (0..<Int.random(in: 1...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
            }
        }
        for step in 0..<40 {
            let c = contexts.randomElement(using: &rng)!
            let cards = try c.fetch(FetchRequest("Card"))
            switch Int.random(in: 0..<12, using: &rng) {
            case 0...2:
                for _ in 0..<Int.random(in: 1...400, using: &rng) {
                    let card = try c.insert("Card")
                    card["front"] = text()
                    if Bool.random(using: &rng) { card["back"] = text() }
                }
                try c.save(actionName: "Add")
            case 3...4 where !cards.isEmpty:
                for _ in 0..<Int.random(in: 1...20, using: &rng) {
                    let card = cards.randomElement(using: &rng)!
                    if Bool.random(using: &rng) { card["front"] = text() } else { card["back"] = Bool.random(using: &rng) ? text() : nil }
                }
                try c.save(actionName: "Edit")
            case 5...6 where !cards.isEmpty:
                let share = Double.random(in: 0.05...0.6, using: &rng)
                for card in cards where Double.random(in: 0...1, using: &rng) < share { c.delete(card) }
                try c.save(actionName: "Delete")
            case 10...11 where !cards.isEmpty:
                // A run of neighbours (a subtree imported together): whole chunks are emptied.
                // Half the time exactly the rows of one chunk of the index, leaving its neighbours as they are.
                let sorted = cards.sorted { $0.objectID.rowID < $1.objectID.rowID }
                let starts = try c.store.read { db in try Int64.fetchAll(db, sql: "SELECT start FROM og_text_Card ORDER BY start") }
                if Bool.random(using: &rng), let k = starts.indices.randomElement(using: &rng) {
                    let end = k + 1 < starts.count ? starts[k + 1] : Int64.max
                    for card in sorted where card.objectID.rowID >= starts[k] && card.objectID.rowID < end { c.delete(card) }
                } else {
                    let from = Int.random(in: 0..<sorted.count, using: &rng)
                    for card in sorted[from..<min(sorted.count, from + Int.random(in: 50...500, using: &rng))] { c.delete(card) }
                }
                try c.save(actionName: "Delete run")
                // Undone before the next search, half the time: the emptied chunks' rows come back into their
                // neighbours where there is room, so the held index's cuts and the file's differ.
                if Bool.random(using: &rng) { _ = try c.undo() }
            case 7...8, 10...11:
                _ = try c.undo()
            default:
                _ = try c.redo()
            }
            // Not after every save: a held index patched over several saves meets chunks emptied by one and
            // filled again by the next (an undo of a delete), where its chunks and the file's are cut apart.
            if step == 39 || Bool.random(using: &rng) { try expectIndexMatchesRows(contexts[0], &rng, "step \(step), " + TestSeed.note(seed)) }
        }
        let tally = contexts[0].store.sqlite.heldIndexTally
        print(
            "held index, seed \(seed): \(tally.patches) patches, \(tally.ranges) ranges read, \(tally.widened) widened past a start the file "
                + "no longer has, \(tally.wholeReads) whole reads")
        #expect(tally.patches >= 10 && tally.ranges >= 30 && tally.widened >= 1, "the held index was patched too rarely to prove anything")
        withExtendedLifetime(folder) {}
    }

    /// The held index scanned in two halves at once (each half's hits written to its own slot of a class
    /// shared across the two threads, `ScanResults`) finds exactly what one thread finds and what testing
    /// each text finds, with limits and with `among`, many times over (a slot written by the wrong half, or
    /// hits lost between the threads, would show); a damaged chunk in either half fails both ways.
    @Test(arguments: TestSeed.seeds([31, 32])) func aHeldIndexScannedInTwoHalvesFindsWhatOneThreadFinds(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let words = ["garden", "gödel", "x", "report", "zz", "straße"]
        var starts: [Int64] = [], chunks: [[UInt8]] = [], texts: [(Int64, String)] = []
        var id: Int64 = 1
        for _ in 0..<60 {
            var chunk = TextChunk(columns: 1)
            let start = id
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                let t = TextFolding.fold(
                    (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " "))
                chunk.append(id) { _ in t }
                texts.append((id, t))
                id += Int64.random(in: 1...3, using: &rng)
            }
            starts.append(start)
            chunks.append(chunk.encoded(start: start))
        }
        let cache = TextIndexCache(seq: 0, build: nil, starts: starts, chunks: chunks)
        for round in 0..<200 {
            let needle = TextFolding.fold(words.randomElement(using: &rng)!)
            let limit = round % 3 == 0 ? Int.random(in: 1...50, using: &rng) : Int.max
            let among = round % 4 == 0 ? texts.map(\.0).filter { _ in Bool.random(using: &rng) } : nil
            let expected = texts.filter { $0.1.contains(needle) && (among?.contains($0.0) ?? true) }.map(\.0).prefix(limit)
            let one = cache.scan(Array(needle.utf8), columns: 1, among: among, limit: limit, parallelFrom: Int.max)
            let two = cache.scan(Array(needle.utf8), columns: 1, among: among, limit: limit, parallelFrom: 2)
            #expect(one.map(Array.init) == Array(expected), "round \(round), “\(needle)”, \(rng.note)")
            #expect(two == one, "round \(round), “\(needle)”, \(rng.note)")
        }
        for damaged in [5, 50] {
            var broken = chunks
            broken[damaged][0] = 0x7F
            let bad = TextIndexCache(seq: 0, build: nil, starts: starts, chunks: broken)
            #expect(bad.scan(Array("x".utf8), columns: 1, among: nil, limit: .max, parallelFrom: 2) == nil)
            #expect(bad.scan(Array("x".utf8), columns: 1, among: nil, limit: .max, parallelFrom: .max) == nil)
        }
    }

    /// A held chunk is passed by when its pair filter lacks one of the needle's pairs of bytes: it must find
    /// exactly what reading every chunk finds (titles and notes, notes absent, rare and common words, pieces
    /// of words, limits, `among`), pass by many chunks doing so, and still report a damaged chunk the needle
    /// is not in.
    @Test(arguments: TestSeed.seeds([41, 42, 43])) func chunksWithoutTheNeedlesPairsArePassedBy(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let common = ["garden", "report", "x", "item 12", "straße"], rare = ["zürich", "qoph", "gödel", "zz top"]
        var starts: [Int64] = [], chunks: [[UInt8]] = [], rows: [(id: Int64, title: String, note: String?)] = []
        var id: Int64 = 1
        for _ in 0..<80 {
            var chunk = TextChunk(columns: 2)
            let start = id
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                func text() -> String {
                    TextFolding.fold(
                        (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                            rng.below(25) == 0 ? rare.randomElement(using: &rng)! : common.randomElement(using: &rng)!
                        }.joined(separator: " "))
                }
                let title = text(), note = rng.below(3) == 0 ? text() : nil
                chunk.append(id) { $0 == 0 ? title : note }
                rows.append((id, title, note))
                id += Int64.random(in: 1...3, using: &rng)
            }
            starts.append(start)
            chunks.append(chunk.encoded(start: start))
        }
        let cache = TextIndexCache(seq: 0, build: nil, starts: starts, chunks: chunks)
        // Made in two halves on two threads (as a whole index held is), the filters are those made on one.
        let one = TextIndexCache.filters(of: chunks, parallelFrom: .max), two = TextIndexCache.filters(of: chunks, parallelFrom: 2)
        #expect(one.filters == two.filters && one.shapes.map { [$0.rows, $0.texts] } == two.shapes.map { [$0.rows, $0.texts] })
        #expect(one.filters == cache.filters && one.filters.contains { $0 != 0 })
        var passedBy = 0, roundsPassing = 0, roundsFinding = 0, amongFinding = 0, nothingToRead = 0
        for round in 0..<300 {
            let needle: String
            switch round % 3 {
            case 0: needle = TextFolding.fold((common + rare).randomElement(using: &rng)!)
            case 1:
                // A piece of a stored text: found at least there.
                let t = rows.randomElement(using: &rng)!.title
                let from = rng.below(t.count), count = 1 + rng.below(min(8, t.count - from))
                needle = String(t.dropFirst(from).prefix(count))
            default: needle = String((0..<2).map { _ in "abcdeqxzü ".randomElement(using: &rng)! })
            }
            let limit = round % 5 == 0 ? Int.random(in: 1...20, using: &rng) : Int.max
            let among = round % 7 == 0 ? rows.map(\.id).filter { _ in Bool.random(using: &rng) } : nil
            let expected = rows.filter { r in
                (r.title.contains(needle) || r.note?.contains(needle) == true) && (among?.contains(r.id) ?? true)
            }.map(\.id).prefix(limit)
            for parallelFrom in [2, Int.max] {
                let found = cache.scan(Array(needle.utf8), columns: 2, among: among, limit: limit, parallelFrom: parallelFrom)
                #expect(found.map(Array.init) == Array(expected), "round \(round), “\(needle)”, \(rng.note)")
            }
            passedBy += cache.passedBy
            // A search its filters say reads nothing finds nothing (among every row, no limit).
            let share = cache.shareToRead(Array(needle.utf8), columns: 2)
            #expect(share >= 0 && share <= 1)
            if share == 0 {
                nothingToRead += 1
                #expect(rows.allSatisfy { !$0.title.contains(needle) && $0.note?.contains(needle) != true }, "“\(needle)”")
            }
            if cache.passedBy > 0 { roundsPassing += 1 }
            if cache.passedBy > 0 && !expected.isEmpty { roundsFinding += 1 }
            // Only the chunks of some IDs (a page of a walk: a run of them, or a scattered few, with IDs no row
            // has and IDs below the first chunk), as the store asks when its index is held.
            let from = rng.below(rows.count)
            var some =
                rng.below(2) == 0
                ? rows[from..<min(rows.count, from + 1 + rng.below(60))].map(\.id)
                : rows.map(\.id).filter { _ in rng.below(10) == 0 }
            some += (0..<rng.below(4)).map { _ in Int64(rng.below(Int(id) + 5)) - 2 }
            some = Array(Set(some)).sorted()
            let wanted = rows.filter { r in (r.title.contains(needle) || r.note?.contains(needle) == true) && some.contains(r.id) }
            #expect(cache.scan(Array(needle.utf8), columns: 2, onlyAmong: some) == wanted.map(\.id), "round \(round), “\(needle)”")
            if !wanted.isEmpty { amongFinding += 1 }
        }
        // The case under test must happen often: chunks passed by, in searches that also find rows.
        print("pair filters (seed \(seed)): \(passedBy) chunks passed by in \(roundsPassing) of 300 searches, \(roundsFinding) of them finding rows")
        #expect(roundsPassing > 100 && roundsFinding > 30, "\(roundsPassing) searches passed chunks by, \(roundsFinding) finding rows")
        print("searches of some IDs (seed \(seed)): \(amongFinding) of 300 finding rows; \(nothingToRead) with nothing to read")
        #expect(amongFinding > 60 && nothingToRead > 10)
        // A chunk damaged inside its texts (a stray 0xFE) is scanned, though the needle's pairs are not in it.
        let k = 7
        var broken = chunks
        broken[k].withUnsafeBytes { bytes in
            let text = TextChunk.textStart(bytes)!.1.text
            broken[k][text + 1] = 0xFE
        }
        let bad = TextIndexCache(seq: 0, build: nil, starts: starts, chunks: broken)
        for parallelFrom in [2, Int.max] {
            #expect(bad.scan(Array("no such words".utf8), columns: 2, among: nil, limit: .max, parallelFrom: parallelFrom) == nil)
        }
        #expect(bad.scan(Array("no such words".utf8), columns: 2, onlyAmong: [starts[k]]) == nil)
        #expect(bad.scan(Array("no such words".utf8), columns: 2, onlyAmong: [starts[k + 1]]) == [])
        // Two chunks that overlap (a stale copy of row 3 that matches, then its current text that does not):
        // the chunk passed by still shows the damage.
        var stale = TextChunk(columns: 2), current = TextChunk(columns: 2)
        for row in Int64(1)...3 { stale.append(row) { $0 == 0 ? "zurich \(row)" : nil } }
        current.append(3) { $0 == 0 ? "garden" : nil }
        current.append(4) { $0 == 0 ? "report" : nil }
        let overlapping = TextIndexCache(seq: 0, build: nil, starts: [1, 3], chunks: [stale.encoded(start: 1), current.encoded(start: 3)])
        for parallelFrom in [2, Int.max] {
            #expect(overlapping.scan(Array("zurich".utf8), columns: 2, among: nil, limit: .max, parallelFrom: parallelFrom) == nil)
        }
        #expect(overlapping.passedBy == 0)
        // Asked for rows 1 to 3, the first chunk claims row 3, which lies in the second one's run.
        #expect(overlapping.scan(Array("zurich".utf8), columns: 2, onlyAmong: [1, 2, 3]) == nil)
        #expect(overlapping.scan(Array("zurich".utf8), columns: 2, onlyAmong: [1, 2]) == [1, 2])
    }

    /// An index bigger than a store holds is read from the file by each search, and the whole read that
    /// found it too big is not made again until the log moves on.
    @Test func anIndexTooBigToHoldIsReadFromTheFileAndNotTriedAgainEachSearch() throws {
        let folder = TemporaryDirectory("held-index-too-big")
        let c = Context(store: try Store(path: folder.path("cards.sqlite"), model: Self.model))
        for k in 0..<2_000 { try c.insert("Card")["front"] = "card number \(k) of many" }
        try c.save()
        c.store.sqlite.heldIndexLimit = 4_000
        let expected = try c.store.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM Card WHERE front LIKE '%number 1%' ORDER BY id") }
        for _ in 0..<4 { #expect(try c.fullTextMatches("number 1", entity: "Card").map(\.rowID) == expected) }
        #expect(c.store.sqlite.textIndexCaches.isEmpty)
        #expect(c.store.sqlite.heldIndexTally.wholeReads == 1, "one whole read found it too big; the next searches did not try again")
        try c.insert("Card")["front"] = "number 1 again"
        try c.save()
        #expect(try c.fullTextMatches("number 1", entity: "Card").count == expected.count + 1)
        #expect(c.store.sqlite.heldIndexTally.wholeReads == 2, "the log moved on: tried once more")
        withExtendedLifetime(folder) {}
    }

    /// A store holding the index in memory reads it whole again when the index was built again since: rows
    /// written by another program (no log entry tells of them) and a repair that builds the index from them
    /// are seen at the next search.
    @Test func aHeldIndexIsReadAgainAfterTheIndexIsBuiltAgain() throws {
        let folder = TemporaryDirectory("held-index-rebuilt")
        let path = folder.path("cards.sqlite")
        let a = Context(store: try Store(path: path, model: Self.model))
        for k in 0..<300 { try a.insert("Card")["front"] = "card \(k)" }
        try a.save()
        #expect(try a.fullTextMatches("zebra", entity: "Card").isEmpty)
        #expect(try a.fullTextMatches("zebra", entity: "Card").isEmpty, "held from the second search")
        #expect(a.store.sqlite.textIndexCaches.count == 1)
        let b = try Store(path: path, model: Self.model)
        try b.queue.write { db in try db.execute(sql: "UPDATE Card SET front = 'zebra ' || front WHERE id % 7 = 0") }
        #expect(try !b.check().isEmpty, "the index no longer matches the rows")
        #expect(try b.repairDerived().contains { $0.contains("search index") })
        let rows = try b.queue.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM Card WHERE id % 7 = 0 ORDER BY id") }
        #expect(try a.fullTextMatches("zebra", entity: "Card").map(\.rowID) == rows)
        withExtendedLifetime(folder) {}
    }

    /// Every chunk within its capacity (or holding one row), the check clean, and queries (substrings of
    /// stored texts, short ones, ones found nowhere) answered as folding every row and testing it says.
    private func expectIndexMatchesRows(_ c: Context, _ rng: inout SeededRandom, _ note: String) throws {
        // As blobs: GRDB's `String` ends a text at its first NUL.
        let rows = try c.store.read { db in
            try Row.fetchAll(db, sql: "SELECT id, CAST(front AS BLOB) AS front, CAST(back AS BLOB) AS back FROM Card ORDER BY id")
        }
        let folded = rows.map { row in
            (
                id: row["id"] as Int64,
                texts: [row["front"] as Data?, row["back"] as Data?].map { $0.map { TextFolding.fold(String(decoding: $0, as: UTF8.self)) } }
            )
        }
        let chunks = try c.store.read { db in try Row.fetchAll(db, sql: "SELECT start, data FROM og_text_Card ORDER BY start") }
        for chunk in chunks {
            let data = chunk["data"] as Data
            let rowsIn = try #require(
                [UInt8](data).withUnsafeBytes { TextChunk(decoding: $0, start: chunk["start"], columns: 2) }, Comment(rawValue: note))
            #expect(data.count <= TextChunk.capacity + 16 || rowsIn.count == 1, "\(note): a chunk of \(data.count) bytes holds \(rowsIn.count) rows")
        }
        #expect(try c.store.check().isEmpty, Comment(rawValue: note))
        var queries = ["godel", "STRASSE", "ss", "x", "日", "\n", "garden text long", "nowhere at all", "e", "zzz", "\u{0}byte"]
        for _ in 0..<6 {
            guard let row = folded.randomElement(using: &rng), let t = row.texts.compactMap({ $0 }).randomElement(using: &rng), !t.isEmpty
            else { continue }
            let chars = Array(t)
            let a = Int.random(in: 0..<chars.count, using: &rng)
            queries.append(String(chars[a..<min(chars.count, a + Int.random(in: 1...6, using: &rng))]))
        }
        let bytes = folded.map { $0.texts.map { $0.map { Array($0.utf8) } } }
        for q in queries {
            let needle = Array(TextFolding.fold(q).utf8)
            let expected = zip(folded, bytes).filter { $1.contains { $0?.holds(needle) ?? false } }.map(\.0.id)
            let found = try c.fullTextMatches(q, entity: "Card").map(\.rowID)
            #expect(found == expected, "\(note): “\(q)”")
            #expect(try c.fullTextCount(q, entity: "Card") == expected.count, "\(note): “\(q)”")
            let some = folded.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }.map { ObjectID(entity: 0, rowID: $0.id) }
            let wanted = Set(some.map(\.rowID))
            let among = try c.fullTextMatches(q, entity: "Card", among: some).map(\.rowID)
            #expect(among == expected.filter(wanted.contains), "\(note): “\(q)” among \(some.count)")
        }
    }
}

extension Array where Element == UInt8 {
    /// True when `needle`'s bytes appear in a row here (an empty needle is everywhere): the plainest search.
    fileprivate func holds(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        return withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { n in
                for i in 0...(hay.count - n.count) {
                    var k = 0
                    while k < n.count && hay[i + k] == n[k] { k += 1 }
                    if k == n.count { return true }
                }
                return false
            }
        }
    }
}
