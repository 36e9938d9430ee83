import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// The search index damaged by another program (here GRDB on the file, as the `sqlite3` CLI or Python
/// would): a chunk of `og_text_Item` cut short, bytes changed, chunks whose ranges overlap, an item in two
/// chunks. Real `burrow` processes then search, check, edit and repair: `find` must not crash and must list
/// exactly the right items (the store falls back to scanning the rows when a chunk cannot be read),
/// `check` must name the damage, edits must lose no item, and `check --repair` must leave a clean store
/// whose search is exact.
@Suite(.onAThreadOfItsOwn("processes")) struct SearchIndexDamageTests {
    /// Items in the template store (about a dozen chunks).
    static let itemCount = 300

    /// Item `n`'s title and note: every title has a unique token and alpha (even) or beta (odd); notes
    /// alternate gamma, delta and none, so a text counted under the wrong item shows in “gamma”/“delta”.
    static func title(_ n: Int) -> String { "item \(n) tok\(String(format: "%04d", n)) " + (n % 2 == 0 ? "alpha" : "beta") }
    static func note(_ n: Int) -> String? {
        switch n % 3 {
        case 0: return "gamma \(n) " + String(repeating: "filler ", count: 12)
        case 1: return "delta \(n) " + String(repeating: "filler ", count: 12)
        default: return nil
        }
    }

    /// A store of `itemCount` items made by `burrow import` (in a folder of its own), copied per test.
    static let template: (folder: TemporaryDirectory, path: String) = {
        let folder = TemporaryDirectory("burrow-damage-template", forTheProcess: true)
        let file = folder.path("items.json")
        let items = (0..<itemCount).map { n in
            var o: [String: Any] = ["title": title(n)]
            if let note = note(n) { o["note"] = note }
            return o
        }
        let data = try! JSONSerialization.data(withJSONObject: ["items": items])
        try! data.write(to: URL(fileURLWithPath: file))
        let db = folder.path()
        let r = BurrowProcess.run(["import", file, "--db", db])
        precondition(r.status == 0, "cannot make the template: \(r.err)")
        return (folder, db)
    }()

    /// A copy of the template store.
    static func copy(into folder: TemporaryDirectory) throws -> String {
        try folder.copy(ofStore: template.path, as: "store.sqlite")
    }

    typealias Chunk = (start: Int64, data: [UInt8])

    /// Reads every chunk, lets `body` change them in one transaction of a connection of this process's own
    /// (closed before `burrow` runs again).
    static func damage(_ db: String, _ body: (Database, [Chunk]) throws -> Void) throws {
        let queue = try DatabaseQueue(path: db)
        try queue.write { d in
            let rows = try Row.fetchAll(d, sql: "SELECT start, data FROM og_text_Item ORDER BY start")
            try body(d, rows.map { (start: $0["start"] as Int64, data: [UInt8]($0["data"] as Data)) })
        }
        try queue.close()
    }

    static func put(_ d: Database, _ start: Int64, _ bytes: [UInt8]) throws {
        try d.execute(sql: "INSERT OR REPLACE INTO og_text_Item (start, data) VALUES (?, ?)", arguments: [start, Data(bytes)])
    }

    static func decode(_ c: Chunk) -> TextChunk? {
        c.data.withUnsafeBytes { TextChunk(decoding: $0, start: c.start, columns: 2) }
    }

    /// The rows of a chunk as (ID, title, note), folded as stored.
    static func rows(_ chunk: TextChunk) -> [(Int64, [String?])] {
        (0..<chunk.count).map { k in (chunk.ids[k], chunk.texts(ofRow: k)) }
    }

    static func encode(_ rows: [(Int64, [String?])], start: Int64) -> [UInt8] {
        var chunk = TextChunk(columns: 2)
        for (id, texts) in rows { chunk.append(id) { texts[$0] } }
        return chunk.encoded(start: start)
    }

    /// Where `needle` first is in `bytes`.
    static func offset(of needle: String, in bytes: [UInt8]) -> Int? {
        let n = Array(needle.utf8)
        guard bytes.count >= n.count else { return nil }
        return (0...(bytes.count - n.count)).first { Array(bytes[$0..<($0 + n.count)]) == n }
    }

    /// The kinds of damage. “Unreadable” ones make the chunk's bytes no chunk at all (the codec refuses
    /// them); the others still read as chunks but break the index's rule that chunks hold disjoint runs
    /// below the next chunk's start.
    enum Damage: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case truncatedTail, truncatedInIDs, badFormatByte, emptyBlob, extraTextEnd, strayNoneByte, lastEndMissing, rowCountTooHigh,
            rowCountTooLow
        case startLoweredIntoPreviousChunk, idsPastNextStart, itemInTwoChunks

        var testDescription: String { rawValue }
        var unreadable: Bool {
            switch self {
            case .startLoweredIntoPreviousChunk, .idsPastNextStart, .itemInTwoChunks: false
            default: true
            }
        }
    }

    /// Damages the chunk in the middle of the index; returns the IDs of the items it held (before), and
    /// whether every chunk still reads as one (`TextChunk(decoding:)`) afterwards.
    static func apply(_ damage: Damage, to db: String) throws -> (held: [Int64], allRead: Bool) {
        var held: [Int64] = []
        try Self.damage(db) { d, chunks in
            let k = chunks.count / 2
            let c = chunks[k]
            guard let chunk = decode(c), k + 1 < chunks.count, let next = decode(chunks[k + 1]), let previous = decode(chunks[k - 1]) else {
                throw OracleError("the template's chunks do not read")
            }
            held = chunk.ids
            var bytes = c.data
            switch damage {
            case .truncatedTail:
                bytes.removeLast(150)
            case .truncatedInIDs:
                bytes = Array(bytes.prefix(8))
            case .badFormatByte:
                bytes[0] = 7
            case .emptyBlob:
                bytes = []
            case .extraTextEnd:
                // The space after “item” in the chunk's first title becomes the byte that ends a text.
                let at = try #require(offset(of: "item ", in: bytes))
                bytes[at + 4] = 0xFF
            case .strayNoneByte:
                // A byte inside the second row's token becomes the byte that stands for “no text”.
                let token = String(try #require(rows(chunk)[1].1[0]).split(separator: " ")[2])
                let at = try #require(offset(of: token, in: bytes))
                bytes[at + 3] = 0xFE
            case .lastEndMissing:
                bytes.removeLast()
            case .rowCountTooHigh, .rowCountTooLow:
                // The row count is the varint after the format byte (one byte here: under 128 rows).
                #expect(bytes[1] < 0x80 && bytes[1] > 5)
                bytes[1] = damage == .rowCountTooHigh ? bytes[1] + 3 : bytes[1] - 3
            case .startLoweredIntoPreviousChunk:
                // The same rows, stored under a start below the previous chunk's last ID: the two ranges
                // overlap (every item is still indexed once, under its own ID).
                try d.execute(sql: "DELETE FROM og_text_Item WHERE start = ?", arguments: [c.start])
                let start = previous.ids[previous.count - 1] - 1
                try put(d, start, encode(rows(chunk), start: start))
                return
            case .idsPastNextStart:
                // The next chunk's first three rows moved into this one: its IDs pass the next start.
                try put(d, c.start, encode(rows(chunk) + rows(next).prefix(3), start: c.start))
                try put(d, chunks[k + 1].start, encode(Array(rows(next).dropFirst(3)), start: chunks[k + 1].start))
                return
            case .itemInTwoChunks:
                // The next chunk's first row also here, with the same text.
                try put(d, c.start, encode(rows(chunk) + rows(next).prefix(1), start: c.start))
                return
            }
            try put(d, c.start, bytes)
        }
        var allRead = true
        try Self.damage(db) { _, chunks in allRead = chunks.allSatisfy { decode($0) != nil } }
        return (held, allRead)
    }

    /// Queries that tell every item apart in bulk: a text moved to the wrong item, a lost item or a lost
    /// note changes their answers. Plus the tokens of the first, second, middle and last items of the
    /// damaged chunk.
    static func queries(_ held: [Int64], _ oracle: SearchOracle) -> [String] {
        let tokens = [held.first, held.dropFirst().first, held[held.count / 2], held.last].compactMap { id in
            oracle.entries.first { $0.id == id }.map { String($0.title.split(separator: " ")[2]) }
        }
        return ["alpha", "beta", "gamma", "delta", "filler", "item 1", "tok02"] + tokens
    }

    /// After each kind of damage: `find` exact (no crash), `check` names the damage, edits (a rename and a
    /// note in the damaged range, a removal, an add, an undo) succeed and lose nothing from the outline,
    /// and `check --repair` leaves the store clean and search exact, even for the edited items.
    @Test(arguments: Damage.allCases)
    func damagedChunksAreSearchedRightReportedAndRepaired(damage: Damage) throws {
        let folder = TemporaryDirectory("burrow-damage")
        let db = try Self.copy(into: folder)
        let before = try SearchOracle(db: db)
        let (held, allRead) = try Self.apply(damage, to: db)
        #expect(allRead == !damage.unreadable, "\(damage)")
        let queries = Self.queries(held, before)

        let wrong = try before.mismatches(queries)
        #expect(wrong == [], "search over a chunk with \(damage)")
        let check = burrowCheck(db)
        #expect(check.status == 1 && check.text.contains("search index of Item"), "\(damage): check said \(check.text)")

        // Edits in and beside the damaged range: none fails, the outline keeps every item.
        let renamed = held[held.count / 3], noted = held[held.count / 2], removed = held[2]
        var edits = [
            BurrowProcess.run(["rename", "#\(renamed)", "Renamed Gödel", "--db", db]),
            BurrowProcess.run(["note", "#\(noted)", "noted ÉCOLE", "--db", db]),
            BurrowProcess.run(["rm", "#\(removed)", "--db", db]),
            BurrowProcess.run(["add", "added after damage", "--db", db])
        ]
        edits.append(BurrowProcess.run(["undo", "--db", db]))  // the add, undone
        edits.append(BurrowProcess.run(["add", "added after damage", "--db", db]))
        #expect(edits.map(\.status) == Array(repeating: 0, count: edits.count), "\(damage): \(edits.map(\.err))")
        let after = try SearchOracle(db: db)
        var want = before.entries.filter { $0.id != removed }
        for k in want.indices {
            if want[k].id == renamed { want[k].title = "Renamed Gödel" }
            if want[k].id == noted { want[k].note = "noted ÉCOLE" }
        }
        #expect(after.entries.filter { $0.title != "added after damage" } == want, "\(damage): the outline lost or changed items")
        #expect(after.entries.filter { $0.title == "added after damage" }.count == 1, "\(damage)")
        // An edit that met the damaged chunk marked the index damaged and the next writable open built it
        // again; otherwise check still names it. Either way search is exact meanwhile.
        let afterEdits = burrowCheck(db)
        #expect(afterEdits.status == 0 || afterEdits.text.contains("search index of Item"), "\(damage): \(afterEdits.text)")
        let wrongAfterEdits = try after.mismatches(queries + ["renamed godel", "noted ecole", "added after"])
        #expect(wrongAfterEdits == [], "\(damage), after the edits")

        let repair = burrowCheck(db, repair: true)
        #expect(repair.status == 0, "\(damage): \(repair.text)")
        if afterEdits.status != 0 {
            #expect(repair.text.contains("built the search index of Item again"), "\(damage): \(repair.text)")
        }
        let again = burrowCheck(db)
        #expect(again.status == 0, "\(damage): after the repair: \(again.text)")
        let wrongAfterRepair = try after.mismatches(queries + ["renamed godel", "noted ecole", "added after"])
        #expect(wrongAfterRepair == [], "\(damage), after the repair")
    }

    /// A chunk the codec refuses is never scanned as if it were whole (cut short, rows at its end would
    /// vanish; an extra 0xFF would count texts under the wrong row; a stray 0xFE would hide a match):
    /// the scan counts the ends and search gives the rows' answer.
    @Test(arguments: [Damage.truncatedTail, .extraTextEnd, .strayNoneByte])
    func chunksTheCodecRefusesAreNotScannedAsWhole(damage: Damage) throws {
        let folder = TemporaryDirectory("burrow-damage")
        let db = try Self.copy(into: folder)
        let before = try SearchOracle(db: db)
        let (held, allRead) = try Self.apply(damage, to: db)
        #expect(!allRead, "the codec refuses the chunk")
        let check = burrowCheck(db)
        #expect(check.status == 1 && check.text.contains("damaged chunk"), "\(damage): check said \(check.text)")
        let wrong = try before.mismatches(Self.queries(held, before))
        #expect(wrong == [], "search over a chunk with \(damage)")
    }

    /// An edit of an item whose chunk is damaged never drops other items from search: a chunk that cannot
    /// be read (badFormatByte, emptyBlob) would be rewritten from the edit alone, and one holding IDs at
    /// or past the next chunk's start (idsPastNextStart, itemInTwoChunks) would split onto its healthy
    /// neighbour's key; instead the save marks the index damaged and search folds the rows until it is
    /// built again.
    @Test(arguments: [Damage.badFormatByte, .emptyBlob, .idsPastNextStart, .itemInTwoChunks])
    func editsOverADamagedChunkKeepEveryItemFound(damage: Damage) throws {
        let folder = TemporaryDirectory("burrow-damage")
        let db = try Self.copy(into: folder)
        let before = try SearchOracle(db: db)
        let (held, _) = try Self.apply(damage, to: db)
        let queries = Self.queries(held, before)
        let wrongBefore = try before.mismatches(queries)
        #expect(wrongBefore == [], "\(damage): search before the edit")
        let renamed = held[held.count / 3]
        #expect(BurrowProcess.run(["rename", "#\(renamed)", "Renamed Gödel", "--db", db]).status == 0)
        let after = try SearchOracle(db: db)
        #expect(after.entries.count == before.entries.count && after.entries.contains { $0.id == renamed && $0.title == "Renamed Gödel" })
        let wrong = try after.mismatches(queries + ["renamed godel"])
        #expect(wrong == [], "\(damage): search after an edit, before a repair")
    }
}
