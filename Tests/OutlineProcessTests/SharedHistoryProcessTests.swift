import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// The undo history every `burrow` process shares (issue 16), attacked with real processes: many at once
/// adding, deleting, renaming, undoing and redoing; imports and undos killed with SIGKILL at random moments;
/// tiny limits trimming while several processes record; damaged history rows. After each, the history and
/// the outline must agree.
@Suite(.onAThreadOfItsOwn("processes")) struct SharedHistoryProcessTests {
    /// One row of `burrow history --json`.
    struct Entry: Equatable, CustomStringConvertible {
        var sequence: Int64
        var name: String
        var origin: String
        /// "done", "undone" or "skipped".
        var state: String
        var bytes: Int
        var isDone: Bool { state == "done" }
        var isUndone: Bool { state == "undone" }
        var description: String { "\(sequence)\(isDone ? "" : " " + state) \(name)" }
    }

    /// Runs `burrow ARGS --db DB` with `environment` added to this process's (a config folder, say).
    static func burrow(_ arguments: [String], _ db: String, environment: [String: String] = [:]) -> BurrowProcess.Result {
        BurrowProcess.run(arguments + ["--db", db], environment: environment)
    }

    /// The whole history as `burrow history --json` lists it, newest first.
    static func history(_ db: String) throws -> [Entry] {
        let r = burrow(["history", "--json", "--limit", "100000"], db)
        try #require(r.status == 0, "history: \(r.status) \(r.err)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]], "\(r.out)")
        return try list.map { e in
            Entry(
                sequence: try #require((e["sequence"] as? NSNumber)?.int64Value), name: try #require(e["name"] as? String),
                origin: try #require(e["origin"] as? String), state: try #require(e["state"] as? String),
                bytes: try #require((e["bytes"] as? NSNumber)?.intValue))
        }
    }

    /// What is wrong with the history of `db`: sequence numbers repeated or out of order, a done action after
    /// an undone one (redo must take them back in order; skipped ones may be anywhere), and with
    /// `bookkeeping`, what `bookkeepingProblems` finds.
    static func historyProblems(_ db: String, bookkeeping: Bool = true) throws -> [String] {
        let entries = try history(db)
        var out: [String] = []
        let sequences = entries.map(\.sequence)
        if Set(sequences).count != sequences.count { out.append("repeated sequence numbers in \(sequences)") }
        if sequences != sequences.sorted(by: >) { out.append("not newest first: \(sequences)") }
        // Newest first: every undone entry comes before (is newer than) every done one.
        if let firstDone = entries.firstIndex(where: \.isDone), entries[firstDone...].contains(where: \.isUndone) {
            out.append("a done action is newer than an undone one: \(entries)")
        }
        if bookkeeping { out += try bookkeepingProblems(db) }
        return out
    }

    /// One row's bookkeeping, as stored (`typeof` included: text where a number belongs is damage too).
    struct Bookkeeping {
        var seq: Int64
        var position: Int64
        var cum: Int64
        var size: Int64
        var state: Int64
        var types: String
    }

    /// The rows of `og_history` oldest first, read in one statement (so of one committed state).
    static func bookkeeping(_ db: Database) throws -> [Bookkeeping] {
        let sql = """
            SELECT seq, CAST(position AS INTEGER), CAST(cum AS INTEGER), CAST(size AS INTEGER), CAST(undone AS INTEGER), \
            typeof(position) || typeof(cum) || typeof(size) || typeof(undone) FROM og_history ORDER BY seq
            """
        return try Row.fetchAll(db, sql: sql).map { Bookkeeping(seq: $0[0], position: $0[1], cum: $0[2], size: $0[3], state: $0[4], types: $0[5]) }
    }

    /// What breaks the bookkeeping's rules in `rows` (oldest first): integers throughout, a state of 0, 1 or 2
    /// (done, undone, skipped), positions 1, 2, 3… with no gap, each `cum` the previous one plus the row's own
    /// size, and the first row's `cum` at least its size (exactly it at position 1, where nothing was trimmed
    /// before it).
    static func bookkeepingProblems(_ rows: [Bookkeeping]) -> [String] {
        var out: [String] = []
        for (k, r) in rows.enumerated() {
            if r.types != "integerintegerintegerinteger" { out.append("seq \(r.seq): types \(r.types)") }
            if !(0...2).contains(r.state) { out.append("seq \(r.seq): state \(r.state)") }
            if r.size < 0 { out.append("seq \(r.seq): size \(r.size)") }
            guard k > 0 else {
                if r.position < 1 { out.append("seq \(r.seq): position \(r.position) of the oldest row") }
                if r.cum < r.size || (r.position == 1 && r.cum != r.size) {
                    out.append("seq \(r.seq): cum \(r.cum) for the oldest row (position \(r.position), size \(r.size))")
                }
                continue
            }
            let p = rows[k - 1]
            // Wrapping: damaged rows may hold the largest numbers.
            if r.position != p.position &+ 1 { out.append("seq \(r.seq): position \(r.position) after \(p.position)") }
            if r.cum &- p.cum != r.size { out.append("seq \(r.seq): cum \(r.cum) after \(p.cum), size \(r.size)") }
        }
        return out
    }

    /// `bookkeepingProblems` of the outline at `db`, read through this test's own connection.
    static func bookkeepingProblems(_ db: String) throws -> [String] {
        bookkeepingProblems(try Outline(readingAt: db).context.store.read(bookkeeping))
    }

    /// `burrow check` finds nothing wrong.
    static func expectClean(_ db: String, _ note: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let check = burrow(["check"], db)
        #expect(check.status == 0, "\(check.out)\(check.err); \(note)", sourceLocation: sourceLocation)
    }

    static func tree(_ db: String) -> String {
        burrow(["ls", "--tree"], db).out
    }

    /// What `burrow ls --tree` prints for an outline with nothing in it.
    static let empty = "(no items under the top level)\n"

    /// The item count below `path`, at every depth, read in this process.
    static func count(_ db: String, titlesStartingWith prefix: String) throws -> Int {
        let o = try Outline(readingAt: db)
        return try o.context.count(FetchRequest("Item", where: Property("title").beginsWith(prefix)))
    }

    /// The checks the tests below rely on can fail: each kind of inconsistency, made with SQL in an outline
    /// of three actions, is found.
    /// (A skipped action anywhere is no damage.)
    @Test(arguments: [
        ("UPDATE og_history SET undone = 1 WHERE seq = 2", "a done action is newer"),
        ("UPDATE og_history SET undone = 3 WHERE seq = 2", "seq 2: state"),
        ("UPDATE og_history SET cum = cum + 1 WHERE seq = 2", "seq 2: cum"),
        ("UPDATE og_history SET cum = cum - 1 WHERE seq = 1", "seq 1: cum"),
        ("UPDATE og_history SET size = size + 1 WHERE seq = 3", "seq 3: cum"),
        ("UPDATE og_history SET position = 7 WHERE seq = 1", "seq 2: position"),
        ("UPDATE og_history SET position = 0, cum = 0 WHERE seq = 1", "seq 1: position"),
        ("UPDATE og_history SET cum = 'x' || cum WHERE seq = 3", "seq 3: types"),
        ("DELETE FROM og_history WHERE seq = 2", "seq 3: position"),
        ("UPDATE og_history SET undone = 2 WHERE seq = 2", ""),
        ("UPDATE og_history SET undone = 2 WHERE seq = 3; UPDATE og_history SET undone = 1 WHERE seq = 2", ""),
        // The oldest trimmed away: no damage.
        ("DELETE FROM og_history WHERE seq = 1", "")
    ])
    func theHistoryChecksFindEachKindOfDamage(sql: String, found: String) throws {
        let folder = TemporaryDirectory("burrow-history")
        let db = folder.path()
        #expect(Self.burrow(["add", "A"], db).status == 0)
        #expect(Self.burrow(["add", "B"], db).status == 0)
        #expect(Self.burrow(["add", "C"], db).status == 0)
        #expect(try Self.historyProblems(db) == [])
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        let problems = try Self.historyProblems(db)
        if found.isEmpty {
            #expect(problems == [])
        } else {
            #expect(problems.contains { $0.hasPrefix(found) }, "\(problems)")
        }
    }

    // MARK: Many processes at once

    /// Four processes each running random adds, deletes, renames, done toggles, undos and redos on one level
    /// at the same time. Every command either works or says why not (never a crash, never a skipped
    /// conflict: every change was recorded, so the history is a true account of the outline); afterwards
    /// the history is consistent, undoing all of it empties the outline, redoing all of it gives back the
    /// same outline.
    @Test func parallelCommandsKeepOneConsistentHistory() throws {
        let folder = TemporaryDirectory("burrow-history")
        let db = folder.path()
        let seed = TestSeed.seed(16)
        let note = TestSeed.note(seed)
        #expect(Self.burrow(["add", "L"], db).status == 0)
        let workers = 4
        let perWorker = TestScale.size(ci: 40, big: 200)
        let reports = try BurrowProcess.concurrently(workers) { w -> [String] in
            var rng = SeededRandom(seed: seed &+ UInt64(w))
            var failures: [String] = []
            var mine: [Int64] = []
            for step in 0..<perWorker {
                let id = rng.pick(mine)
                let args: [String]
                switch (rng.below(10), id) {
                case (0...2, _), (_, nil): args = ["add", "w\(w)-\(step)", "--under", "L"]
                case (3, let id?): args = ["rm", "#\(id)"]
                case (4, let id?): args = ["rename", "#\(id)", "w\(w)-\(step)r\u{1B}[31m"]
                case (5, let id?): args = ["done", "#\(id)"]
                case (6, _), (7, _): args = ["undo", String(1 + rng.below(2))]
                default: args = ["redo"]
                }
                let r = Self.burrow(args, db)
                // 1 is a user error (an item undone or deleted by another worker, nothing to undo): fine.
                if r.status != 0 && r.status != 1 { failures.append("\(args): exit \(r.status): \(r.err)") }
                if r.err.contains("skipped") { failures.append("\(args): \(r.err)") }
                if r.status == 0, args[0] == "add",
                    let id = r.out.split(separator: "#").dropFirst().first?.split(separator: " ").first.flatMap({ Int64($0) })
                {
                    mine.append(id)
                }
            }
            return failures
        }
        #expect(reports.flatMap { $0 } == [], "\(note)")
        Self.expectClean(db, note)
        #expect(try Self.historyProblems(db) == [], "\(note)")

        let before = Self.burrow(["export", "--format", "json"], db).out
        let treeBefore = Self.tree(db)
        let entries = try Self.history(db)
        let done = entries.filter(\.isDone).count
        #expect(done >= 1)
        #expect(!entries.contains { $0.state == "skipped" }, "\(entries); \(note)")

        // Undoing everything that is done leaves the outline as it began: empty.
        let undone = Self.burrow(["undo", String(done)], db)
        #expect(undone.status == 0, "\(undone.err); \(note)")
        #expect(!undone.err.contains("skipped"), "\(undone.err); \(note)")
        #expect(undone.out.split(separator: "\n").filter { $0.hasPrefix("Undid: ") }.count == done, "\(note)")
        #expect(Self.tree(db) == Self.empty, "\(note)")
        Self.expectClean(db, note)
        #expect(try Self.historyProblems(db) == [], "\(note)")
        #expect(Self.burrow(["undo"], db).err == "burrow: nothing to undo\n")

        // Redoing all of it (the ones undone by the workers too, which a redo takes back in order) ends
        // where the redo stack began; redoing the part done before gives the same outline again.
        let all = try Self.history(db).count
        let redone = Self.burrow(["redo", String(done)], db)
        #expect(redone.status == 0, "\(redone.err); \(note)")
        #expect(!redone.err.contains("skipped"), "\(redone.err); \(note)")
        #expect(Self.tree(db) == treeBefore, "\(note)")
        #expect(Self.burrow(["export", "--format", "json"], db).out == before, "\(note)")
        Self.expectClean(db, note)
        #expect(try Self.historyProblems(db) == [], "\(note)")
        #expect(try Self.history(db).count == all, "\(note)")
    }

    // MARK: SIGKILL

    /// `burrow import` of 3,000 items killed at random moments: the items and their history row are
    /// written in one transaction, so either both are there (and the newest action is the import) or
    /// neither; the outline checks clean; and the import, when it is there, can be undone at once.
    @Test(arguments: TestSeed.seeds([1, 2, 3]))
    func killedImportsLeaveTheOutlineAndTheHistoryAgreeing(seed: UInt64) throws {
        let folder = TemporaryDirectory("burrow-history")
        let db = folder.path()
        let note = TestSeed.note(seed)
        #expect(Self.burrow(["add", "P"], db).status == 0)
        let file = folder.path("items.txt")
        try Data((0..<3000).map { "item \($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        var rng = SeededRandom(seed: seed)
        var killed = 0, completed = 0
        for attempt in 0..<6 {
            let top = try Self.history(db).first
            let p = try BurrowProcess.start(["import", file, "--under", "P", "--db", db])
            // Import takes some 130 ms in a debug build: anywhere from before the store is opened to about
            // the commit (mostly killed, so that `killed > 0` holds for any seed).
            usleep(useconds_t(rng.below(160_000)))
            p.signal(SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .uncaughtSignal { killed += 1 } else if p.terminationStatus == 0 { completed += 1 }

            let items = try Self.count(db, titlesStartingWith: "item ")
            let now = try Self.history(db).first
            let what = "attempt \(attempt): \(items) items, newest action \(now.map(String.init(describing:)) ?? "none"); \(note)"
            #expect(items == 0 || items == 3000, "\(what)")
            if items == 3000 {
                #expect(now?.name == "Import “items.txt” (3000 items)" && now?.isDone == true && now?.sequence ?? 0 > top?.sequence ?? 0, "\(what)")
            } else {
                #expect(now == top, "\(what)")
            }
            Self.expectClean(db, note)
            #expect(try Self.historyProblems(db) == [], "\(what)")
            if items == 3000 {
                let undo = Self.burrow(["undo"], db)
                #expect(undo.out.hasPrefix("Undid: Import “items.txt” (3000 items) (command line, just now, in "), "\(undo.out)\(undo.err); \(what)")
                #expect(try Self.count(db, titlesStartingWith: "item ") == 0, "\(what)")
            }
        }
        #expect(killed + completed == 6, "\(note)")
        #expect(killed > 0, "\(note)")
        #expect(Self.tree(db) == "[ ] P\n", "\(note)")
    }

    /// `burrow undo` of a delete of 3,000 items killed at random moments: the items come back with the
    /// action marked undone, or neither happens; either way the next undo or redo goes on from there.
    @Test(arguments: TestSeed.seeds([4, 5]))
    func killedUndosOfABigDeleteLeaveTheOutlineAndTheHistoryAgreeing(seed: UInt64) throws {
        let folder = TemporaryDirectory("burrow-history")
        let db = folder.path()
        let note = TestSeed.note(seed)
        #expect(Self.burrow(["add", "P"], db).status == 0)
        let file = folder.path("items.txt")
        try Data((0..<3000).map { "item \($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        #expect(Self.burrow(["import", file, "--under", "P"], db).status == 0)
        let rm = Self.burrow(["rm", "P"], db)
        #expect(rm.status == 0, "\(rm.err)")
        let deleted = try #require(try Self.history(db).first)
        var rng = SeededRandom(seed: seed)
        var killed = 0
        for attempt in 0..<4 {
            // Each attempt starts from the delete done: a previous one that undid it is redone first.
            if try Self.count(db, titlesStartingWith: "item ") == 3000 {
                let redo = Self.burrow(["redo"], db)
                #expect(redo.out.hasPrefix("Redid: \(deleted.name)"), "\(redo.out)\(redo.err); \(note)")
            }
            let p = try BurrowProcess.start(["undo", "--db", db])
            usleep(useconds_t(rng.below(200_000)))
            p.signal(SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .uncaughtSignal { killed += 1 }

            let items = try Self.count(db, titlesStartingWith: "item ")
            let entries = try Self.history(db)
            let top = entries.first
            let what = "attempt \(attempt): \(items) items, history \(entries.prefix(3)); \(note)"
            #expect(top?.sequence == deleted.sequence, "\(what)")
            #expect(items == 0 || items == 3000, "\(what)")
            #expect(top?.state == (items == 3000 ? "undone" : "done"), "\(what)")
            Self.expectClean(db, note)
            #expect(try Self.historyProblems(db) == [], "\(what)")
        }
        // Whatever the kills left, undo and redo go on: the delete, then the import, then P.
        if try Self.count(db, titlesStartingWith: "item ") == 0 {
            #expect(Self.burrow(["undo"], db).status == 0)
        }
        #expect(try Self.count(db, titlesStartingWith: "item ") == 3000, "\(note)")
        let rest = Self.burrow(["undo", "2"], db)
        #expect(rest.out.split(separator: "\n").count == 2, "\(rest.out)\(rest.err); \(note)")
        #expect(Self.tree(db) == Self.empty, "\(note)")
        Self.expectClean(db, note)
        #expect(killed > 0, "\(note)")
    }

    // MARK: Trimming

    /// `[history] actions = 5` with four processes recording at once (and undoing, so that new actions cut
    /// undone ones): a reader watching meanwhile never sees more than 5 actions (a limit under 10 is kept
    /// exactly) or bookkeeping that breaks its rules, and afterwards the 5 newest actions are the ones kept.
    @Test func tinyLimitsHoldWhileSeveralProcessesRecord() throws {
        let folder = TemporaryDirectory("burrow-history")
        let db = folder.path()
        let config = folder.url.appendingPathComponent("config/burrow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[history]\nactions = 5\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path]
        #expect(Self.burrow(["add", "L"], db, environment: environment).status == 0)

        let reader = try Outline(readingAt: db)
        var seen: [String] = []
        var samples = 0
        let watch = {
            let rows = try reader.context.store.read(Self.bookkeeping)
            samples += 1
            if rows.count > 5 { seen.append("\(rows.count) actions kept") }
            seen += Self.bookkeepingProblems(rows)
        }
        let failures = try BurrowProcess.concurrently(4, meanwhile: watch) { w -> [String] in
            var out: [String] = []
            for k in 0..<15 {
                let args = k % 4 == 3 ? ["undo"] : ["add", "w\(w)-\(k)", "--under", "L"]
                let r = Self.burrow(args, db, environment: environment)
                if r.status != 0 { out.append("\(args): \(r.status) \(r.err)") }
            }
            return out
        }
        try watch()
        #expect(failures.flatMap { $0 } == [])
        #expect(seen == [], "\(samples) samples")
        #expect(try Self.historyProblems(db) == [])
        #expect(try Self.history(db).count <= 5)

        // Five more, one after another: exactly they are kept, newest first, and undo reaches no further.
        for k in 0..<5 { #expect(Self.burrow(["add", "last\(k)"], db, environment: environment).status == 0) }
        let kept = try Self.history(db)
        #expect(kept.map(\.name) == (0..<5).reversed().map { "Add “last\($0)”" })
        #expect(kept.map(\.sequence) == kept.map(\.sequence).sorted(by: >))
        let undo = Self.burrow(["undo", "9"], db, environment: environment)
        #expect(undo.out.split(separator: "\n").count == 5, "\(undo.out)")
        #expect(try Self.historyProblems(db) == [])
        Self.expectClean(db, "")
    }

    /// `size = "64 KiB"`: an import whose step alone is larger is kept (the newest always is) and
    /// everything before it goes; the next small action drops the import.
    @Test func aSizeLimitKeepsTheNewestActionHoweverLarge() throws {
        let folder = TemporaryDirectory("burrow-history")
        let db = folder.path()
        let config = folder.url.appendingPathComponent("config/burrow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[history]\nsize = \"64 KiB\"\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path]
        for k in 0..<3 { #expect(Self.burrow(["add", "a\(k)"], db, environment: environment).status == 0) }
        #expect(try Self.history(db).count == 3)
        let file = folder.path("items.txt")
        try Data((0..<3000).map { "item \($0) with a longer title to weigh more\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        #expect(Self.burrow(["import", file], db, environment: environment).status == 0)
        let big = try Self.history(db)
        #expect(big.map(\.name) == ["Import “items.txt” (3000 items)"])
        #expect(big.first.map { $0.bytes > 64 << 10 } == true, "\(big)")
        #expect(try Self.historyProblems(db) == [])
        #expect(Self.burrow(["add", "small"], db, environment: environment).status == 0)
        #expect(try Self.history(db).map(\.name) == ["Add “small”"])
        #expect(try Self.historyProblems(db) == [])
    }
}
