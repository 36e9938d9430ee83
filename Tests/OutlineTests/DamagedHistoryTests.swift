import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// History rows damaged behind the outline's back (another tool, a disk, an older or newer program): the
/// newest action's row is damaged, and `burrow history` and `burrow undo` (real processes, so a crash is an
/// exit status and not the end of the test run) must report and skip it, never crash, leave the outline
/// as it was, and go on with the action before it.
@Suite struct DamagedHistoryTests {
    /// One way to damage the newest action of an outline holding "A" then "B" (added by two commands); `b` is
    /// B's row ID.
    struct Damage: CustomTestStringConvertible, Sendable {
        var name: String
        var sql: String
        var arguments: @Sendable (_ b: Int64) -> StatementArguments = { _ in [] }
        /// False when the step is whole and only what is said about it is odd: B's add is undone.
        var skipped = true
        /// Why it fails today, when it does (see the report of issue 16's tests).
        var knownBug: String?
        var testDescription: String { name }
    }

    /// The bytes of `UndoRecord.encoded()`: "OU1", then varints.
    static func step(_ bytes: [UInt8]) -> Data { Data(Array("OU1".utf8) + bytes) }

    /// Seeded noise: the same bytes on every run.
    static func noise(_ seed: UInt64, _ n: Int) -> [UInt8] {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    static let newest = "WHERE seq = (SELECT max(seq) FROM og_history)"

    static let damages: [Damage] = [
        Damage(name: "truncated step", sql: "UPDATE og_history SET step = substr(step, 1, length(step) / 2) \(newest)"),
        Damage(name: "empty step", sql: "UPDATE og_history SET step = X'' \(newest)"),
        Damage(name: "random step", sql: "UPDATE og_history SET step = ? \(newest)", arguments: { _ in [Data(noise(1, 200))] }),
        Damage(name: "magic then noise 2", sql: "UPDATE og_history SET step = ? \(newest)", arguments: { _ in [step(noise(2, 64))] }),
        Damage(name: "magic then noise 3", sql: "UPDATE og_history SET step = ? \(newest)", arguments: { _ in [step(noise(3, 64))] }),
        Damage(name: "a count larger than the step", sql: "UPDATE og_history SET step = ? \(newest)", arguments: { _ in [step([0xFF, 0xFF, 0x03])] }),
        // One entry of entity 7 (the model has one entity) that is neither before nor after.
        Damage(
            name: "an entity the model does not have", sql: "UPDATE og_history SET step = ? \(newest)",
            arguments: { _ in [step([1, 7, 2, 0])] }, knownBug: "UndoReplay indexes model.entities with the step's entity: out of range"),
        // B, before and after each one value where an Item has many.
        Damage(
            name: "rows with too few values", sql: "UPDATE og_history SET step = ? \(newest)",
            arguments: { b in [step([1, 0] + zigzag(b) + [3, 1, 0, 1, 0])] },
            knownBug: "UndoReplay compares slots the step's rows do not have: out of range"),
        Damage(
            name: "a step that is a number", sql: "UPDATE og_history SET step = 42 \(newest)",
            knownBug: "historyTop reads the step with `row[12] as Data`: GRDB's fatal error on an integer"),
        Damage(name: "a step that is text", sql: "UPDATE og_history SET step = 'OU1' \(newest)"),
        Damage(
            name: "a name that is a blob", sql: "UPDATE og_history SET name = X'00FF' \(newest)",
            knownBug: "SQLiteStore.entry reads the name with `row[1] as String`: GRDB's fatal error on a blob"),
        Damage(
            name: "a time that is text", sql: "UPDATE og_history SET at = 'yesterday' \(newest)",
            knownBug: "SQLiteStore.entry reads the time as a Double: GRDB's fatal error on text"),
        Damage(
            name: "undone that is text", sql: "UPDATE og_history SET undone = 'no' \(newest)",
            knownBug: "SQLiteStore.entry reads undone with `row[8] as Int`: GRDB's fatal error on text (and undo passes the row by)"),
        Damage(
            name: "a size that is text", sql: "UPDATE og_history SET size = 'big' \(newest)",
            knownBug: "SQLiteStore.entry reads the size with `row[10] as Int`: GRDB's fatal error on text"),
        // The step itself is whole: the action is undone, whatever its origin or place say.
        Damage(name: "an origin that is a number", sql: "UPDATE og_history SET origin = 7 \(newest)", skipped: false),
        Damage(
            name: "a place of an entity the model does not have",
            sql: "UPDATE og_history SET container_entity = 9, focus_entity = 9 \(newest)", skipped: false,
            knownBug: "the place's ObjectID of entity 9 indexes model.entities (history's titles, undo's place): out of range"),
        Damage(name: "the model hash of another model", sql: "UPDATE og_history SET model_hash = 'another model' \(newest)")
    ]

    static func zigzag(_ v: Int64) -> [UInt8] {
        var u = UInt64(bitPattern: (v << 1) ^ (v >> 63))
        var out: [UInt8] = []
        while u >= 0x80 {
            out.append(UInt8(u & 0x7F) | 0x80)
            u >>= 7
        }
        return out + [UInt8(u)]
    }

    static func burrow(_ arguments: [String], _ db: String) -> BurrowProcess.Result {
        BurrowProcess.run(arguments + ["--db", db])
    }

    /// "A" and "B" added by two commands, then `damage` done to the newest row (B's add); B's ID.
    static func damaged(_ damage: Damage, in folder: TemporaryDirectory) throws -> String {
        let db = folder.path()
        #expect(burrow(["add", "A"], db).status == 0)
        let added = burrow(["add", "B"], db)
        let b = try #require(added.out.split(separator: "#").dropFirst().first?.split(separator: " ").first.flatMap { Int64($0) }, "\(added.out)")
        let o = try Outline(path: db)
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: damage.sql, arguments: damage.arguments(b))
        }
        return db
    }

    /// `burrow history` lists, and `burrow undo` reports and skips, a damaged newest action, then undoes A.
    @Test(arguments: damages)
    func undoReportsAndSkipsADamagedAction(_ damage: Damage) throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = try Self.damaged(damage, in: folder)
        let check = { () throws in
            let listed = Self.burrow(["history"], db)
            #expect(listed.status < 128, "history crashed: \(listed.status) \(listed.err)")
            let json = Self.burrow(["history", "--json"], db)
            #expect(json.status < 128, "history --json crashed: \(json.status) \(json.err)")
            let undo = Self.burrow(["undo"], db)
            #expect(undo.status < 128, "undo crashed: \(undo.status) \(undo.err)")
            if damage.skipped {
                #expect(undo.err.hasPrefix("burrow: skipped: cannot undo"), "\(undo.err)")
                #expect(undo.out.hasPrefix("Undid: Add “A”"), "\(undo.out)")
                // B was left as it was; only A's add was undone.
                #expect(Self.burrow(["ls"], db).out == "[ ] B\n")
            } else {
                #expect(undo.err == "")
                #expect(undo.out.hasPrefix("Undid: Add “B”"), "\(undo.out)")
                #expect(Self.burrow(["ls"], db).out == "[ ] A\n")
            }
            #expect(Self.burrow(["check"], db).status == 0)
            let problems = try SharedHistoryProcessTests.historyProblems(db)
            #expect(problems == [])
        }
        if let bug = damage.knownBug {
            withKnownIssue(Comment(rawValue: bug)) { try check() }
        } else {
            try check()
        }
    }

    /// The history's totals in og_metadata damaged (text where a number belongs): recording, listing,
    /// undoing and clearing never crash; recording and undoing work or say why not.
    @Test(arguments: ["history_done", "history_undone", "history_bytes"])
    func damagedTotalsNeverCrash(key: String) throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = folder.path()
        #expect(Self.burrow(["add", "A"], db).status == 0)
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE og_metadata SET value = 'lots' WHERE key = ?", arguments: [key])
        }
        let runs = [["add", "B"], ["history"], ["undo"], ["redo"], ["history", "--clear"], ["add", "C"]].map { ($0, Self.burrow($0, db)) }
        withKnownIssue("SQLiteStore.totals reads og_metadata's value as Int?: GRDB's fatal error on text") {
            for (args, r) in runs { #expect(r.status < 128, "\(args): \(r.status) \(r.err.prefix(300))") }
        }
        #expect(Self.burrow(["check"], db).status == 0)
    }

    /// A damaged action that cannot be dropped either (a trigger refuses the delete, as a busy or full disk
    /// might): `burrow undo` reports it and ends, rather than trying the same action for ever.
    @Test func undoEndsWhenADamagedActionCannotBeDropped() throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = try Self.damaged(Self.damages[0], in: folder)
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TRIGGER keep BEFORE DELETE ON og_history BEGIN SELECT RAISE(FAIL, 'cannot delete'); END")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BurrowProcess.path)
        p.arguments = ["undo", "--db", db]
        // Files, not pipes: a process writing for ever would fill a pipe and block instead.
        _ = FileManager.default.createFile(atPath: folder.path("err"), contents: nil)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: folder.url.appendingPathComponent("err"))
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let ended = Poll.until(timeout: .seconds(5)) { !p.isRunning }
        if !ended { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        let lines = try String(contentsOfFile: folder.path("err"), encoding: .utf8).split(separator: "\n")
        withKnownIssue("Undo.replay retries a skipped action that `try? skip` could not drop, for ever (one stderr line each time)") {
            #expect(ended, "\(lines.count) lines, the first: \(lines.first ?? "")")
            #expect(lines.count < 10, "\(lines.count) lines")
        }
        #expect(Self.burrow(["check"], db).status == 0)
        #expect(Self.burrow(["ls"], db).out == "[ ] A\n[ ] B\n")
    }

    /// The same row damaged under an outline that is open: its `undo()` reports the step as a conflict and
    /// drops it, and the next undo goes on with A.
    @Test func aDamagedStepIsAConflictInAnOpenContextToo() throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = try Self.damaged(Self.damages[0], in: folder)
        let o = try Outline(path: db)
        #expect(throws: UndoConflict.self) { try o.context.undo() }
        #expect(try o.context.undo() == "Add “A”")
        #expect(try o.context.undo() == nil)
        #expect(try o.children(of: o.root()).map(\.title) == ["B"])
    }
}
