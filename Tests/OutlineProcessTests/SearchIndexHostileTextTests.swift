import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Texts chosen to confuse the search index's chunks: NUL bytes, U+FFFE / U+FFFF / U+FEFF and ÿ/þ (whose
/// code points are 0xFF and 0xFE, the bytes that end a text and stand for none), combining marks, emoji, CJK,
/// notes around a chunk's capacity and far past it, and texts written by another program as invalid UTF-8,
/// BLOBs, numbers or NULL; and items with IDs far apart. Real `burrow` processes write, search, check and
/// repair.
@Suite(.onAThreadOfItsOwn("processes")) struct SearchIndexHostileTextTests {
    /// One item of the hostile outline: a tag (unique, for telling what was found) and its texts.
    struct Hostile {
        var tag: String
        var title: String
        var note: String?
    }

    static let hostile: [Hostile] = {
        var out = [
            Hostile(tag: "h01", title: "nul\u{0}Gödel tail h01"),
            Hostile(tag: "h02", title: "bom\u{FEFF}mark h02", note: "nc\u{FFFE} and \u{FFFF} end"),
            Hostile(tag: "h03", title: "\u{FF}\u{FE} latin h03", note: "\u{FE}\u{FE}\u{FF}"),
            Hostile(tag: "h04", title: "e\u{301}cole combining h04"),
            Hostile(tag: "h05", title: "emoji 🎉 family 👨‍👩‍👧 h05"),
            Hostile(tag: "h06", title: "CJK 日本語 h06", note: "漢字\u{0}かな"),
            Hostile(tag: "h07", title: "controls h07", note: "tab\there\r\nCRLF \u{1B}[31m esc"),
            Hostile(tag: "h08", title: "five k h08", note: String(repeating: "abcdefghij", count: 500) + " needle5k"),
            Hostile(
                tag: "h09", title: "seventy k h09",
                note: String(repeating: "Zürich ", count: 5_000) + "needle70k " + String(repeating: "Gödel ", count: 5_000) + "end70k"),
            Hostile(tag: "h10", title: "ÉCOLE GÖDEL h10", note: "")
        ]
        // Notes from 3,770 to 3,809 bytes: the chunk capacity (3,800) falls inside some of these items, at
        // their start, or just after them. Each starts and ends with its own token.
        for (k, n) in stride(from: 3_770, to: 3_810, by: 3).enumerated() {
            let tag = "b\(k)x"
            let body = String(repeating: "q", count: n - 2 * (tag.utf8.count + 1))
            out.append(Hostile(tag: tag, title: "boundary " + tag, note: tag + " " + body + " " + tag))
        }
        return out
    }()

    /// The tags of the hostile items each query must find (hand-made: what a reader of the texts expects).
    static let expectations: [(query: String, tags: [String])] = [
        ("tail", ["h01"]), ("gödel tail", ["h01"]), ("nul", ["h01"]), ("\u{FEFF}", ["h02", "s01"]), ("bom\u{FEFF}m", ["h02"]), ("mark", ["h02"]),
        ("\u{FFFE}", ["h02", "r01"]), ("\u{FFFF} end", ["h02"]), ("c\u{FFFE} a", ["h02"]), ("þ latin", ["h03"]), ("þþ", ["h03"]),
        ("ÉCOLE", ["h04", "h10"]), ("cole comb", ["h04"]), ("🎉", ["h05"]), ("👩", ["h05"]), ("family 👨", ["h05"]), ("本語", ["h06"]),
        ("かな", ["h06"]), ("字", ["h06"]), ("\there", ["h07"]), ("\r\ncrlf", ["h07"]), ("\u{1B}[31m", ["h07"]), ("needle5k", ["h08"]),
        ("jabcdefghija", ["h08"]), ("needle70k", ["h09"]), ("end70k", ["h09"]), ("zurich needle70k godel", ["h09"]),
        ("gödel", ["h01", "h09", "h10"]), ("h1", ["h10"]), ("nowhere", []),
        // A query of 5,000 bytes: the whole run of letters of h08's note.
        (String(repeating: "abcdefghij", count: 500), ["h08"])
    ]

    /// The hostile outline written by `burrow` (a JSON import, then a note read from standard input and a
    /// rename): every query finds what it should, check is clean, the repair has nothing to do, and every
    /// boundary item is found by both its tokens.
    @Test func hostileTextsAreFoundExactly() throws {
        let folder = TemporaryDirectory("burrow-hostile")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "before", "--db", db]).status == 0)
        let items = Self.hostile.map { h -> [String: Any] in
            var o: [String: Any] = ["title": h.title]
            if let note = h.note { o["note"] = note }
            return o
        }
        let file = folder.path("hostile.json")
        try JSONSerialization.data(withJSONObject: ["items": items]).write(to: URL(fileURLWithPath: file))
        let imported = BurrowProcess.run(["import", file, "--db", db])
        #expect(imported.status == 0, "\(imported.err)")
        // The same texts through the other ways in: a note from standard input, a rename.
        #expect(BurrowProcess.run(["add", "stdin note s01", "--db", db]).status == 0)
        #expect(BurrowProcess.run(["note", "stdin note s01", "-", "--db", db], input: "before\u{0}after \u{FFFF}\u{FEFF} s01\n").status == 0)
        #expect(BurrowProcess.run(["rename", "before", "renamed \u{FFFE}\u{FF} r01", "--db", db]).status == 0)

        let oracle = try SearchOracle(db: db)
        func tag(_ e: SearchOracle.Entry) -> String {
            (e.title.split(separator: " ").last.map(String.init) ?? "")
        }
        // Every text read back as written.
        for h in Self.hostile {
            let e = oracle.entries.first { tag($0) == h.tag }
            #expect(e?.title == h.title && e?.note == h.note, "\(h.tag) reads back as \(e.map(\.description) ?? "nothing")")
        }
        var wrong: [String] = []
        var expectations = Self.expectations
        // (A query cannot hold a NUL: an argument ends at one.)
        expectations += [
            ("after \u{FFFF}\u{FEFF}", ["s01"]), ("before", ["s01"]), ("\u{FFFE}ÿ r01", ["r01"]), ("\u{FFFE}Y", ["r01"]), ("renamed", ["r01"])
        ]
        for (k, _) in stride(from: 3_770, to: 3_810, by: 3).enumerated() {
            expectations += [("b\(k)x q", ["b\(k)x"]), ("q b\(k)x", ["b\(k)x"])]
        }
        for (query, tags) in expectations {
            let want = oracle.entries.filter { tags.contains(tag($0)) }.map(\.id)
            switch SearchOracle.find(query, db: db) {
            case .failure(let e): wrong.append(e.message)
            case .success(let got) where got != want:
                wrong.append(
                    "find \(query.prefix(40).debugDescription): \(got.map { id in tag(oracle.entries.first { $0.id == id }!) }), expected \(tags)")
            default: break
            }
        }
        #expect(wrong == [])
        // The same answers as folding every stored text with the store's folding (only the index is under
        // test here) for queries drawn from the texts.
        var rng = SeededRandom(seed: TestSeed.seed(0x40571))
        let sampled = oracle.sampleQueries(12, using: &rng)
        for q in sampled {
            let want = try oracle.expected(needle: Array(TextFolding.fold(q).utf8)) { Array(TextFolding.fold($0).utf8) }
            let got = SearchOracle.find(q, db: db)
            #expect((try? got.get()) == want, "find \(q.debugDescription)")
        }
        let check = burrowCheck(db)
        #expect(check.status == 0, "\(check.text)")
        let repair = burrowCheck(db, repair: true)
        #expect(repair.status == 0 && !repair.text.contains("Repaired"), "\(repair.text)")
    }

    /// Runs SQL on the store from a connection of this process's own (as the `sqlite3` CLI would).
    static func sql(_ db: String, _ statements: String) throws {
        let queue = try DatabaseQueue(path: db)
        try queue.write { try $0.execute(sql: statements) }
        try queue.close()
    }

    /// Titles and notes written by another program as invalid UTF-8 text, BLOBs (with the bytes 0xFF and
    /// 0xFE and a NUL), a number and NULL: `burrow check` reports the index as stale (and the missing title),
    /// `burrow find` and `burrow ls` do not crash, `check --repair` leaves a clean store, and search then
    /// finds those items by their valid parts, and by U+FFFD where bytes were not UTF-8; renaming them
    /// through `burrow` keeps the store clean.
    @Test func textsWrittenByAnotherProgramAsBytes() throws {
        let folder = TemporaryDirectory("burrow-hostile-bytes")
        let db = folder.path()
        let add = BurrowProcess.run(["add", "one", "two", "three", "four", "five", "six", "--db", db])
        #expect(add.status == 0)
        let ids = SearchIndexProcessTests.addedIDs(add.out)
        #expect(ids.count == 6)
        try Self.sql(
            db,
            """
            UPDATE Item SET title = CAST(X'62616420fffec3207574663820746f6b656e' AS TEXT) WHERE id = \(ids[0]);
            UPDATE Item SET title = X'626c6f622000ff7469746c65' WHERE id = \(ids[1]);
            UPDATE Item SET note = 12345 WHERE id = \(ids[2]);
            UPDATE Item SET title = NULL WHERE id = \(ids[3]);
            UPDATE Item SET note = X'ff726177fe6e6565646c65ff' WHERE id = \(ids[4]);
            UPDATE Item SET title = 'plain six', note = CAST(X'c0af20736c617368' AS TEXT) WHERE id = \(ids[5]);
            """)
        let check = burrowCheck(db)
        #expect(check.status == 1 && check.text.contains("search index of Item holds old text"), "\(check.text)")
        for q in ["token", "blob", "2345", "one", "needle", "\u{FFFD}"] {
            if case .failure(let e) = SearchOracle.find(q, db: db) { Issue.record("before the repair: \(e)") }
        }
        let ls = BurrowProcess.run(["ls", "--notes", "--db", db])
        #expect(ls.status == 0, "\(ls.err)")

        let repair = burrowCheck(db, repair: true)
        #expect(repair.status == 0 && repair.text.contains("built the search index of Item again"), "\(repair.text)")
        #expect(burrowCheck(db).status == 0)
        func found(_ q: String) -> [Int64] { (try? SearchOracle.find(q, db: db).get()) ?? [-1] }
        #expect(found("utf8 token") == [ids[0]])
        #expect(found("BAD") == [ids[0]])
        #expect(found("blob") == [ids[1]])
        #expect(found("title") == [ids[1]])
        #expect(found("2345") == [ids[2]])
        #expect(found("raw") == [ids[4]])
        #expect(found("needle") == [ids[4]])
        #expect(found(" slash") == [ids[5]])
        #expect(found("one") == [], "the old title of the NULL one")
        #expect(found("\u{FFFD}") == [ids[0], ids[1], ids[4], ids[5]], "invalid bytes read as U+FFFD, in the index as in the outline")

        // Renamed and given notes through burrow: still clean, found by the new texts only.
        for (k, id) in ids.enumerated() {
            #expect(BurrowProcess.run(["rename", "#\(id)", "fixed \(k) Gödel", "--db", db]).status == 0)
        }
        #expect(BurrowProcess.run(["note", "#\(ids[4])", "", "--db", db]).status == 0)
        #expect(burrowCheck(db).status == 0)
        #expect(found("godel") == ids)
        #expect(found("needle") == [])
        #expect(found("\u{FFFD}") == [ids[5]], "the note of the sixth is still the bytes another program wrote")
    }

    /// Items inserted by another program with IDs far apart (2^40, 2^62 and a negative one): the check
    /// finds them missing from the index, the repair builds it, and then search, a rename, a removal and
    /// its undo keep check clean and search exact.
    @Test func farApartIDsAreIndexedAndKept() throws {
        let folder = TemporaryDirectory("burrow-far-ids")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "near garden", "--db", db]).status == 0)
        let far: [Int64] = [-(1 << 50), 1 << 40, 1 << 62]
        try Self.sql(
            db,
            far.enumerated().map { k, id in
                "INSERT INTO Item (id, childCount, done, \"order\", title, note, parent) VALUES (\(id), 0, 0, 'b\(k)', 'far \(k) garden', 'far note \(k)', 1);"
            }.joined() + "UPDATE Item SET childCount = 4 WHERE id = 1;")
        let check = burrowCheck(db)
        #expect(check.status == 1 && check.text.contains("lacks 3 rows"), "\(check.text)")
        #expect(burrowCheck(db, repair: true).status == 0)
        let clean = burrowCheck(db)
        #expect(clean.status == 0, "\(clean.text)")
        var oracle = try SearchOracle(db: db)
        var wrong = try oracle.mismatches(["garden", "far", "far note 2", "near"])
        #expect(wrong == [])
        #expect(BurrowProcess.run(["rename", "#\(far[2])", "renamed far Gödel", "--db", db]).status == 0)
        #expect(BurrowProcess.run(["rm", "#\(far[1])", "--db", db]).status == 0)
        #expect(BurrowProcess.run(["add", "new garden", "--db", db]).status == 0)
        #expect(BurrowProcess.run(["undo", "--db", db]).status == 0)
        #expect(BurrowProcess.run(["undo", "--db", db]).status == 0)  // the removal
        let after = burrowCheck(db)
        #expect(after.status == 0, "\(after.text)")
        oracle = try SearchOracle(db: db)
        #expect(
            oracle.entries.map(\.id).sorted() == ([far[0]] + oracle.entries.map(\.id).filter { $0 > 0 && $0 < far[1] } + [far[1], far[2]]).sorted())
        wrong = try oracle.mismatches(["garden", "far", "godel", "new", "far note 1"])
        #expect(wrong == [])
    }

    /// An item whose ID is Int64.min (inserted by another program) shares a chunk with #1, more than
    /// Int64.max apart: the chunk stores the difference as unsigned and reads it back, so a repaired
    /// store checks clean and search finds the item.
    @Test func anItemWithTheSmallestIDIsIndexed() throws {
        let folder = TemporaryDirectory("burrow-min-id")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "first", "--db", db]).status == 0)
        try Self.sql(
            db,
            "INSERT INTO Item (id, childCount, done, \"order\", title, parent) VALUES (\(Int64.min), 0, 0, 'a1', 'minimum far', 1);"
                + "UPDATE Item SET childCount = 2 WHERE id = 1;")
        let repair = burrowCheck(db, repair: true)
        #expect(repair.text.contains("built the search index of Item again"), "\(repair.text)")
        let check = burrowCheck(db)
        #expect(check.status == 0, "after the repair: \(check.text)")
        #expect((try? SearchOracle.find("far", db: db).get()) == [Int64.min])
    }

    /// An item whose ID is Int64.max (inserted by another program) is never a crash: the allocator never
    /// hands that ID out, so `check` reports only the index's missing row, a repair makes the store
    /// clean, adds go on below it, and search finds it. An allocator run up to the top refuses an add
    /// with a message and leaves the store as it was.
    @Test func anItemWithTheLargestIDIsNoCrash() throws {
        let folder = TemporaryDirectory("burrow-max-id")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "first", "--db", db]).status == 0)
        try Self.sql(
            db,
            "INSERT INTO Item (id, childCount, done, \"order\", title, parent) VALUES (\(Int64.max), 0, 0, 'a1', 'maximum far', 1);"
                + "UPDATE Item SET childCount = 2 WHERE id = 1;")
        let check = burrowCheck(db)
        #expect(check.status == 1 && check.text.contains("search index of Item lacks 1 row"), "\(check.status): \(check.text.prefix(300))")
        let repair = burrowCheck(db, repair: true)
        #expect(repair.status == 0, "burrow check --repair exited \(repair.status): \(repair.text.prefix(300))")
        #expect(burrowCheck(db).status == 0)
        #expect(BurrowProcess.run(["add", "far below", "--db", db]).status == 0)
        #expect((try? SearchOracle.find("far", db: db).get())?.contains(Int64.max) == true)

        try Self.sql(db, "UPDATE og_metadata SET value = \(Int64.max - 1_000) WHERE key = 'next_id';")
        let high = BurrowProcess.run(["add", "near the top", "--db", db])
        #expect(high.status == 0 && high.out.contains("#\(Int64.max - 1_000)"), "\(high.status): \(high.out) \(high.err)")
        try Self.sql(db, "UPDATE og_metadata SET value = \(Int64.max - 1) WHERE key = 'next_id';")
        let before = try SearchOracle(db: db)
        let add = BurrowProcess.run(["add", "one more", "--db", db])
        #expect(add.status == 1 && add.err.contains("no object IDs are left"), "\(add.status): \(add.err)")
        #expect(try SearchOracle(db: db).entries == before.entries)
        #expect(burrowCheck(db).status == 0)
    }
}
