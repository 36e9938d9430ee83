import Foundation
import GRDB
import ObjectGraph
import Synchronization
import TestSupport
import Testing

@testable import Outline

/// The search index (`og_text_Item`, chunks of folded texts) kept by real `burrow` processes writing one
/// store at once, and by processes killed mid-write: afterwards `burrow check` is clean and `burrow find`
/// lists exactly the items whose title or note holds the query, as `SearchOracle` works out from `burrow ls`
/// and `burrow export` by the plainest folding.
@Suite(.serialized, .onAThreadOfItsOwn("processes")) struct SearchIndexProcessTests {
    /// Words whose folding the oracle knows (see `SearchOracle.plainFold`), in several cases and with and
    /// without diacritics.
    static let words = [
        "Gödel", "GÖDEL", "godel", "ÉCOLE", "école", "Ecole", "Zürich", "ZÜRICH", "garden", "Garden", "apple", "x", "Q7", "alpha",
        "BETA", "a b", "e", "O", "12"
    ]

    static func phrase(_ rng: inout SeededRandom, tag: String) -> String {
        ((0...rng.below(4)).map { _ in words[rng.below(words.count)] } + [tag]).joined(separator: " ")
    }

    /// A note of 2 to 12 KB: bigger than a chunk, so its item gets a chunk of its own.
    static func longNote(_ rng: inout SeededRandom, tag: String) -> String {
        (0..<(300 + rng.below(1500))).map { _ in words[rng.below(words.count)] }.joined(separator: " ") + " " + tag
    }

    /// A small JSON outline (3 to 12 items, nested) for `burrow import`.
    static func smallImport(_ rng: inout SeededRandom, tag: String) -> String {
        var n = 0
        func item(_ depth: Int) -> String {
            n += 1
            var s = "{\"title\": \"\(phrase(&rng, tag: "\(tag)i\(n)"))\""
            if rng.below(3) == 0 { s += ", \"note\": \"\(phrase(&rng, tag: "\(tag)n\(n)"))\"" }
            if depth < 2, rng.below(2) == 0 {
                s += ", \"children\": [" + (0...rng.below(3)).map { _ in item(depth + 1) }.joined(separator: ", ") + "]"
            }
            return s + "}"
        }
        var items: [String] = []
        while n < 3 + rng.below(10) { items.append(item(0)) }
        return "{\"format\": \"burrow-outline\", \"version\": 1, \"items\": [" + items.joined(separator: ", ") + "]}"
    }

    /// The IDs an add printed (“Added “x” #42 under …”).
    static func addedIDs(_ out: String) -> [Int64] {
        out.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: "” #") else { return nil }
            return Int64(line[r.upperBound...].prefix { $0.isNumber })
        }
    }

    /// IDs known to the workers (some deleted meanwhile: commands on those fail, which is fine).
    final class SharedIDs: Sendable {
        private let state: Mutex<(ids: [Int64], finished: Int, succeeded: Int)>
        init(_ ids: [Int64]) { state = Mutex((ids, 0, 0)) }
        func add(_ new: [Int64]) { state.withLock { $0.ids += new } }
        func remove(_ id: Int64) { state.withLock { $0.ids.removeAll { $0 == id } } }
        func pick(_ rng: inout SeededRandom) -> Int64? {
            state.withLock { s in s.ids.isEmpty ? nil : s.ids[rng.below(s.ids.count)] }
        }
        func finish() { state.withLock { $0.finished += 1 } }
        var writersFinished: Int { state.withLock { $0.finished } }
        /// Commands that exited 0: how much the writers did, whatever is left in the outline at the end.
        func succeeded() { state.withLock { $0.succeeded += 1 } }
        var commandsSucceeded: Int { state.withLock { $0.succeeded } }
    }

    /// What a command's failure may say: the user's mistakes (an item deleted by another process, a move
    /// into its own subtree, nothing to undo). Anything else (a crash, SQLite, a failed save) is a failure.
    static func acceptable(_ r: BurrowProcess.Result) -> Bool {
        if r.status == 0 { return true }
        guard r.status == 1 else { return false }
        let bad = ["SQLite", "cannot save", "corrupt", "malformed", "search", "index", "Fatal", "crash"]
        return !bad.contains { r.err.contains($0) || r.out.contains($0) }
    }

    /// Four processes at once add (at the end and at the top), rename, set short and long notes and remove
    /// them, delete subtrees, move, mark done, undo, redo and import small files, on items of each other's,
    /// while a fifth runs `burrow find` and `burrow check` over and over (the check reads one snapshot, so
    /// its search-index part must be clean every time). Afterwards `burrow check` is clean and `burrow find`
    /// answers fixed and sampled queries exactly, in outline order, with `--limit` too.
    @Test(arguments: TestSeed.seeds([0x5EA4C8, 0x5EA4C9]))
    func concurrentCommandsKeepSearchExact(seed: UInt64) throws {
        let folder = TemporaryDirectory("burrow-search-multi")
        let db = folder.path()
        let note = TestSeed.note(seed)
        let setup = BurrowProcess.run(["add", "R0 garden", "R1 Gödel", "R2 ÉCOLE", "--db", db])
        #expect(setup.status == 0, "\(setup.err)")
        let shared = SharedIDs(Self.addedIDs(setup.out))
        let roots = Self.addedIDs(setup.out)
        let workers = 4
        let steps = TestScale.size(ci: 36, big: 180)
        let reports = try BurrowProcess.concurrently(workers + 1) { w -> [String] in
            var rng = SeededRandom(seed: seed &+ UInt64(w) &* 0x9E37)
            var failures: [String] = []
            func burrow(_ args: [String], input: String? = nil) -> BurrowProcess.Result {
                let r = BurrowProcess.run(args + ["--db", db], input: input)
                if !Self.acceptable(r) { failures.append("worker \(w): \(args.prefix(4)): exit \(r.status): \(r.err.prefix(300))") }
                if r.status == 0 { shared.succeeded() }
                return r
            }
            if w == workers {
                // The reader: find and check while the others write.
                var rounds = 0
                while shared.writersFinished < workers || rounds < 2 {
                    rounds += 1
                    let q = ["godel", "ÉCOLE", "garden", "x", "a b"][rng.below(5)]
                    if case .failure(let e) = SearchOracle.find(q, db: db) { failures.append("reader: \(e)") }
                    let check = burrowCheck(db)
                    if check.text.contains("search index") { failures.append("reader: a concurrent check said: \(check.text)") }
                }
                return failures
            }
            defer { shared.finish() }
            for step in 0..<steps {
                let tag = "w\(w)s\(step)"
                let target = shared.pick(&rng)
                switch rng.below(20) {
                case 0...4, 18...19:
                    let titles = (0...rng.below(3)).map { k in Self.phrase(&rng, tag: "\(tag)k\(k)") }
                    let under = rng.below(5) == 0 ? [] : ["--under", "#\(target ?? roots[0])"]
                    let r = burrow(["add"] + titles + under + (rng.below(4) == 0 ? ["--top"] : []))
                    if r.status == 0 { shared.add(Self.addedIDs(r.out)) }
                case 5...6:
                    _ = burrow(["rename", "#\(target ?? roots[0])", Self.phrase(&rng, tag: tag + "r")])
                case 7...8:
                    _ = burrow(["note", "#\(target ?? roots[0])", Self.phrase(&rng, tag: tag + "n")])
                case 9:
                    _ = burrow(["note", "#\(target ?? roots[0])", "-"], input: Self.longNote(&rng, tag: tag + "long"))
                case 10:
                    _ = burrow(["note", "#\(target ?? roots[0])", ""])
                case 11:
                    if let target, !roots.contains(target), burrow(["rm", "#\(target)"]).status == 0 { shared.remove(target) }
                case 12:
                    let to = shared.pick(&rng) ?? roots[1]
                    _ = burrow(["mv", "#\(target ?? roots[2])", "--to", "#\(to)"] + (rng.below(2) == 0 ? ["--position", "1"] : []))
                case 13...14:
                    _ = burrow(["undo"] + (rng.below(3) == 0 ? ["2"] : []))
                case 15:
                    _ = burrow(["redo"])
                case 16:
                    let file = folder.path("\(tag).json")
                    try? Data(Self.smallImport(&rng, tag: tag).utf8).write(to: URL(fileURLWithPath: file))
                    _ = burrow(["import", file, "--under", "#\(target ?? roots[0])"])
                default:
                    _ = burrow(["done", "#\(target ?? roots[0])"])
                }
            }
            return failures
        }
        #expect(reports.flatMap { $0 } == [], "\(note)")
        let check = burrowCheck(db)
        #expect(check.status == 0 && check.text.contains("intact"), "\(check.text); \(note)")
        let oracle = try SearchOracle(db: db)
        // How many items are left depends on the interleaving (a move can put a root under an item another
        // process then deletes, `undo 2` takes back another's import), so the test's strength is the writes
        // that succeeded, not the outline's size (13 items once under AddressSanitizer, 50 to 130 without).
        #expect(shared.commandsSucceeded > 40, "\(shared.commandsSucceeded) commands succeeded; \(note)")
        var rng = SeededRandom(seed: seed)
        let queries =
            [
                "godel", "GÖDEL", "gödel", "ecole", "ÉCOLE", "zurich", "Zürich", "garden", "GARDEN", "x", "q7", "a b", "e", "o", " ", "12", "w1s",
                "k0", "long", "n", "nowhere-at-all"
            ] + oracle.sampleQueries(10, using: &rng)
        let wrong = try oracle.mismatches(queries, limitToo: true)
        #expect(wrong == [], "\(note)")
        // Nothing for a repair to do.
        let repaired = burrowCheck(db, repair: true)
        #expect(repaired.status == 0 && !repaired.text.contains("Repaired"), "\(repaired.text); \(note)")
    }

    // MARK: Killed mid-write

    /// A JSON outline of `groups` × 40 items in the plain alphabet, every third with a note, some of them
    /// long (2–12 KB, a chunk of their own) and one of 70 KB.
    static func bigImport(groups: Int, seed: UInt64) -> String {
        var rng = SeededRandom(seed: seed)
        var n = 0
        func item(_ children: [String]) -> String {
            n += 1
            var s = "{\"title\": \"\(phrase(&rng, tag: "big\(n)"))\""
            if n == 7 {
                s += ", \"note\": \"" + String(repeating: "apple Garden ", count: 5_500) + "needle70k\""
            } else if n % 3 == 0 {
                s += ", \"note\": \"" + (n % 15 == 0 ? longNote(&rng, tag: "bign\(n)") : phrase(&rng, tag: "bign\(n)")) + "\""
            }
            if !children.isEmpty { s += ", \"children\": [" + children.joined(separator: ",\n") + "]" }
            return s + "}"
        }
        let items = (0..<groups).map { _ in item((0..<39).map { _ in item([]) }) }
        return "{\"items\": [\n" + items.joined(separator: ",\n") + "\n]}\n"
    }

    /// `burrow check` clean and `burrow find` exact for a few queries (the problems, as sentences).
    /// The outline read by the oracle is kept in `last`.
    static func verify(_ db: String, _ queries: [String], _ what: String, last: inout SearchOracle?) throws -> [String] {
        let check = burrowCheck(db)
        var out = check.status == 0 ? [] : ["after \(what): check exited \(check.status): \(check.text)"]
        let oracle = try SearchOracle(db: db)
        last = oracle
        out += try oracle.mismatches(queries).map { "after \(what): \($0)" }
        return out
    }

    static let killQueries = ["godel", "ÉCOLE", "garden", "needle70k", "big1", "bign45", "x", "apple garden"]

    /// `burrow import` of 1,000 items with long notes killed with SIGKILL at random points of what a whole
    /// import writes: after each kill, check clean and search exact (the import is all there or not at all,
    /// and so are its chunks).
    @Test func importsKilledMidWriteLeaveSearchExact() throws {
        let folder = TemporaryDirectory("burrow-search-kill")
        let db = folder.path()
        let seed = TestSeed.seed(0x4B111)
        let note = TestSeed.note(seed)
        var rng = SeededRandom(seed: seed)
        #expect(BurrowProcess.run(["add", "P", "Gödel garden", "--db", db]).status == 0)
        let file = folder.path("big.json")
        try Data(Self.bigImport(groups: 25, seed: seed).utf8).write(to: URL(fileURLWithPath: file))
        let whole = try BurrowProcess.measured(["import", file, "--under", "P", "--db", db])
        #expect(whole.status == 0 && whole.written > 0, "\(note)")
        var last: SearchOracle?
        var problems = try Self.verify(db, Self.killQueries, "a whole import", last: &last)
        let kills = try BurrowProcess.killRuns(
            ["import", file, "--under", "P", "--db", db], whole: whole.written, wanted: 2, rng: &rng,
            after: { problems += try Self.verify(db, Self.killQueries, $0, last: &last) })
        print("SearchIndexProcessTests imports: \(kills)")
        #expect(kills.killed >= 2, "\(kills); \(note)")
        #expect(problems == [], "\(note)")
    }

    /// `burrow rm` of a subtree of 1,000 items, and `burrow undo` of it, killed with SIGKILL at random
    /// points: after each, check clean and search exact; the rest undone and redone whole.
    @Test func removalsAndUndosKilledMidWriteLeaveSearchExact() throws {
        let folder = TemporaryDirectory("burrow-search-kill")
        let db = folder.path()
        let seed = TestSeed.seed(0x4B112)
        let note = TestSeed.note(seed)
        var rng = SeededRandom(seed: seed)
        #expect(BurrowProcess.run(["add", "P", "Gödel garden", "--db", db]).status == 0)
        let file = folder.path("big.json")
        try Data(Self.bigImport(groups: 25, seed: seed).utf8).write(to: URL(fileURLWithPath: file))
        #expect(BurrowProcess.run(["import", file, "--under", "P", "--db", db]).status == 0)
        // Items after P's subtree, so that its chunks have neighbours on both sides.
        #expect(BurrowProcess.run(["add", "after garden", "ÉCOLE after", "--db", db]).status == 0)
        let rm = try BurrowProcess.measured(["rm", "P", "--db", db])
        #expect(rm.status == 0, "\(note)")
        var last: SearchOracle?
        var problems = try Self.verify(db, Self.killQueries, "a whole rm", last: &last)
        let undo = try BurrowProcess.measured(["undo", "--db", db])
        #expect(undo.status == 0, "\(note)")
        problems += try Self.verify(db, Self.killQueries, "a whole undo", last: &last)
        // A kill can land after the commit, so whether P is there is looked up, not inferred from the kill.
        func hasP() -> Bool { last?.entries.contains { $0.title == "P" } ?? false }
        let rmKills = try BurrowProcess.killRuns(
            ["rm", "P", "--db", db], whole: rm.written, wanted: 2, rng: &rng,
            before: { if !hasP() { #expect(BurrowProcess.run(["undo", "--db", db]).status == 0) } },
            after: { problems += try Self.verify(db, Self.killQueries, $0, last: &last) })
        let undoKills = try BurrowProcess.killRuns(
            ["undo", "--db", db], whole: undo.written, wanted: 2, rng: &rng,
            before: { if hasP() { #expect(BurrowProcess.run(["rm", "P", "--db", db]).status == 0) } },
            after: { problems += try Self.verify(db, Self.killQueries, $0, last: &last) })
        print("SearchIndexProcessTests rm: \(rmKills); undo: \(undoKills)")
        #expect(rmKills.killed >= 2 && undoKills.killed >= 2, "rm: \(rmKills); undo: \(undoKills); \(note)")
        #expect(problems == [], "\(note)")
        // The subtree is still whole in the history: undone once more if it is gone, it is all back.
        if !hasP() { #expect(BurrowProcess.run(["undo", "--db", db]).status == 0) }
        let back = try SearchOracle(db: db)
        #expect(back.entries.count == 2 + 25 * 40 + 2, "\(note)")
        let wrong = try back.mismatches(Self.killQueries)
        #expect(wrong == [], "\(note)")
    }

    /// The index made stale (stamped as another version's and its chunks scrambled), then `burrow check
    /// --repair` and `burrow add` (which builds the index at its open) killed with SIGKILL while they build
    /// it: after each kill the check either still names the stale index or is clean, and search is exact
    /// either way (through the rows, or through a whole new index); a last repair leaves the store clean.
    @Test func rebuildsKilledMidWriteLeaveSearchExact() throws {
        let folder = TemporaryDirectory("burrow-search-kill")
        let db = folder.path()
        let seed = TestSeed.seed(0x4B113)
        let note = TestSeed.note(seed)
        var rng = SeededRandom(seed: seed)
        let file = folder.path("big.json")
        try Data(Self.bigImport(groups: 25, seed: seed).utf8).write(to: URL(fileURLWithPath: file))
        #expect(BurrowProcess.run(["import", file, "--db", db]).status == 0)
        func makeStale() throws {
            let queue = try DatabaseQueue(path: db)
            try queue.write { d in
                try d.execute(sql: "UPDATE og_metadata SET value = 'built by another version' WHERE key = 'fulltext_Item'")
                // Chunks that would answer wrongly if they were trusted: every chunk's data swapped with the next one's.
                try d.execute(
                    sql:
                        "UPDATE og_text_Item SET data = COALESCE((SELECT data FROM og_text_Item AS n WHERE n.start > og_text_Item.start ORDER BY n.start LIMIT 1), data)"
                )
            }
            try queue.close()
        }
        try makeStale()
        let whole = try BurrowProcess.measured(["check", "--repair", "--db", db])
        #expect(whole.status == 0 && whole.written > 0, "\(note)")
        var last: SearchOracle?
        var problems = try Self.verify(db, Self.killQueries, "a whole repair", last: &last)
        func afterKill(_ what: String) throws {
            let check = burrowCheck(db)
            if check.status != 0 && !check.text.contains("built by another version") {
                problems.append("after \(what): \(check.text)")
            }
            problems += try SearchOracle(db: db).mismatches(Self.killQueries + ["added"]).map { "after \(what): \($0)" }
        }
        let repairKills = try BurrowProcess.killRuns(
            ["check", "--repair", "--db", db], whole: whole.written, wanted: 2, rng: &rng, before: makeStale, after: afterKill)
        let addKills = try BurrowProcess.killRuns(
            ["add", "added garden", "--db", db], whole: whole.written, wanted: 2, rng: &rng, before: makeStale, after: afterKill)
        print("SearchIndexProcessTests repair: \(repairKills); add: \(addKills)")
        #expect(repairKills.killed >= 2 && addKills.killed >= 2, "repair: \(repairKills); add: \(addKills); \(note)")
        #expect(problems == [], "\(note)")
        let repair = burrowCheck(db, repair: true)
        #expect(repair.status == 0, "\(repair.text); \(note)")
    }

    // MARK: An index built again while others write

    /// The index stamped as another version's and emptied (as after an upgrade): several writers open the
    /// store at once (the first builds the index at its open, in its own transaction), while a reader,
    /// which cannot build it, searches: every search of an item no one edits finds exactly that item,
    /// whether it scanned the rows or read the chunks, and afterwards check is clean and search exact.
    @Test func anIndexBuiltAgainWhileOthersWriteAndSearch() throws {
        let folder = TemporaryDirectory("burrow-search-rebuild")
        let db = folder.path()
        let file = folder.path("items.json")
        let items = (0..<400).map { n in "{\"title\": \"stable \(n) s\(String(format: "%04d", n))x Gödel\", \"note\": \"garden \(n)\"}" }
        try Data(("{\"items\": [" + items.joined(separator: ",") + "]}").utf8).write(to: URL(fileURLWithPath: file))
        #expect(BurrowProcess.run(["import", file, "--db", db]).status == 0)
        let queue = try DatabaseQueue(path: db)
        try queue.write { d in
            try d.execute(sql: "UPDATE og_metadata SET value = 'built by another version' WHERE key = 'fulltext_Item'")
            try d.execute(sql: "DELETE FROM og_text_Item")
        }
        try queue.close()
        let stale = burrowCheck(db)
        #expect(stale.status == 1 && stale.text.contains("built by another version"), "\(stale.text)")
        let stable = try SearchOracle(db: db)
        let shared = SharedIDs([])
        let seed = TestSeed.seed(0x4EB1)
        let reports = try BurrowProcess.concurrently(4) { w -> [String] in
            var rng = SeededRandom(seed: seed &+ UInt64(w))
            var failures: [String] = []
            if w == 3 {
                var rounds = 0
                while shared.writersFinished < 3 || rounds < 3 {
                    rounds += 1
                    let e = stable.entries[rng.below(stable.entries.count)]
                    let token = String(e.title.split(separator: " ")[2])
                    switch SearchOracle.find(token, db: db) {
                    case .failure(let error): failures.append("reader: \(error)")
                    case .success(let ids) where ids != [e.id]: failures.append("reader: find \(token) gave \(ids), not [\(e.id)]")
                    default: break
                    }
                }
                return failures
            }
            defer { shared.finish() }
            // (No undo here: it could undo the import, which is not this test's business.)
            var mine: [Int64] = []
            for step in 0..<8 {
                let r: BurrowProcess.Result
                switch (rng.below(3), mine.popLast()) {
                case (0, let id?): r = BurrowProcess.run(["rm", "#\(id)", "--db", db])
                case (1, let id?):
                    r = BurrowProcess.run(["rename", "#\(id)", "writer \(w) renamed \(step) Zürich", "--db", db])
                    mine.append(id)
                case (let k, let id):
                    if let id { mine.append(id) }
                    r = BurrowProcess.run(["add", "writer \(w) step \(step) garden ÉCOLE", "--db", db] + (k == 2 ? ["--top"] : []))
                    mine += Self.addedIDs(r.out)
                }
                if !Self.acceptable(r) { failures.append("writer \(w): exit \(r.status): \(r.err.prefix(300))") }
            }
            return failures
        }
        #expect(reports.flatMap { $0 } == [])
        let check = burrowCheck(db)
        #expect(check.status == 0, "\(check.text)")
        let wrong = try SearchOracle(db: db).mismatches(["garden", "ecole", "godel", "writer 1", "s0399x", "stable 1", "renamed", "zurich"])
        #expect(wrong == [])
    }
}
