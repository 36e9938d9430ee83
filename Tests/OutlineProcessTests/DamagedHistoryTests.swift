import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// History rows damaged behind the outline's back (another tool, a disk, an older or newer program): the
/// newest action's row is damaged, and `burrow history` and `burrow undo` (real processes, so a crash is an
/// exit status and not the end of the test run) must never crash, and report and skip a step they cannot
/// replay, leaving the outline as it was and going on with the action before it.
@Suite(.onAThreadOfItsOwn("processes")) struct DamagedHistoryTests {
    /// What `burrow undo` does with B's damaged action.
    enum Outcome: Sendable {
        /// Reported as skipped (kept and listed so), then A's add is undone.
        case skipped
        /// The step is whole and only what is said about it is odd: B's add is undone, said as `said`.
        case undone(said: String)
        /// Its state is not one undo takes (it reads as skipped already): A's add is undone, nothing said.
        case passedOver
    }

    /// One way to damage the newest action of an outline holding "A" then "B" (added by two commands); `b` is
    /// B's row ID.
    struct Damage: CustomTestStringConvertible, Sendable {
        var name: String
        var sql: String
        var arguments: @Sendable (_ b: Int64) -> StatementArguments = { _ in [] }
        var outcome = Outcome.skipped
        /// False when the damage is to the bookkeeping itself (a size, a state), which nothing repairs.
        var bookkeepingHolds = true
        /// Why it fails today, when it does.
        var knownBug: String?
        var testDescription: String { name }
    }

    /// The bytes of `UndoRecord.encoded(changedOnly:)` for a step of no changed object: "OU1", then varints.
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
        Damage(name: "an entity the model does not have", sql: "UPDATE og_history SET step = ? \(newest)", arguments: { _ in [step([1, 7, 2, 0])] }),
        // B, before and after each one value where an Item has many.
        Damage(
            name: "rows with too few values", sql: "UPDATE og_history SET step = ? \(newest)",
            arguments: { b in [step([1, 0] + zigzag(b) + [3, 1, 0, 1, 0])] }),
        Damage(name: "a step that is a number", sql: "UPDATE og_history SET step = 42 \(newest)"),
        Damage(name: "a step that is text", sql: "UPDATE og_history SET step = 'OU1' \(newest)"),
        Damage(name: "the model hash of another model", sql: "UPDATE og_history SET model_hash = 'another model' \(newest)"),
        Damage(name: "a model hash that is a blob", sql: "UPDATE og_history SET model_hash = X'00' \(newest)"),
        // The step itself is whole: the action is undone, whatever its name, time, origin, size or place say.
        Damage(name: "a name that is a blob", sql: "UPDATE og_history SET name = X'00FF' \(newest)", outcome: .undone(said: "Undid: ? (")),
        Damage(name: "a time that is text", sql: "UPDATE og_history SET at = 'yesterday' \(newest)", outcome: .undone(said: "Undid: Add “B” (")),
        Damage(name: "an origin that is a number", sql: "UPDATE og_history SET origin = 7 \(newest)", outcome: .undone(said: "Undid: Add “B” (")),
        Damage(
            name: "a size that is text", sql: "UPDATE og_history SET size = 'big' \(newest)", outcome: .undone(said: "Undid: Add “B” ("),
            bookkeepingHolds: false),
        Damage(
            name: "a place of an entity the model does not have",
            sql: "UPDATE og_history SET container_entity = 9, focus_entity = 9 \(newest)", outcome: .undone(said: "Undid: Add “B” (")),
        Damage(
            name: "a place of a negative entity", sql: "UPDATE og_history SET container_entity = -1, focus_entity = -9 \(newest)",
            outcome: .undone(said: "Undid: Add “B” (")),
        // Neither done nor undone: listed as skipped, and undo takes the action before it.
        Damage(name: "undone that is text", sql: "UPDATE og_history SET undone = 'no' \(newest)", outcome: .passedOver, bookkeepingHolds: false),
        Damage(name: "undone out of range", sql: "UPDATE og_history SET undone = 7 \(newest)", outcome: .passedOver, bookkeepingHolds: false)
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

    /// Outlines made once by commands, each case damaging a copy: "A" then "B" (with B's ID), "A" then "A2",
    /// and the same with A2's add undone.
    static let templates: (folder: TemporaryDirectory, aThenB: String, b: Int64, aThenA2: String, a2Undone: String) = {
        let folder = TemporaryDirectory("burrow-damaged-history-templates", forTheProcess: true)
        let aThenB = folder.path("a-then-b.sqlite"), aThenA2 = folder.path("a-then-a2.sqlite")
        precondition(burrow(["add", "A"], aThenB).status == 0 && burrow(["add", "A"], aThenA2).status == 0)
        let added = burrow(["add", "B"], aThenB)
        guard let b = added.out.split(separator: "#").dropFirst().first?.split(separator: " ").first.flatMap({ Int64($0) }) else {
            preconditionFailure("burrow add B said \(added.out) \(added.err)")
        }
        precondition(burrow(["add", "A2"], aThenA2).status == 0)
        let a2Undone = try! folder.copy(ofStore: aThenA2, as: "a2-undone.sqlite")
        precondition(burrow(["undo"], a2Undone).status == 0)
        return (folder, aThenB, b, aThenA2, a2Undone)
    }()

    /// "A" and "B" added by two commands, then `damage` done to the newest row (B's add).
    static func damaged(_ damage: Damage, in folder: TemporaryDirectory) throws -> String {
        let db = try folder.copy(ofStore: templates.aThenB, as: "store.sqlite")
        let o = try Outline(path: db)
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: damage.sql, arguments: damage.arguments(templates.b))
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
            let states = try SharedHistoryProcessTests.history(db).map(\.state)
            switch damage.outcome {
            case .skipped:
                #expect(undo.err.hasPrefix("burrow: skipped: cannot undo"), "\(undo.err)")
                #expect(undo.out.hasPrefix("Undid: Add “A”"), "\(undo.out)")
                // B was left as it was; only A's add was undone. B's action is kept, listed as skipped.
                #expect(Self.burrow(["ls"], db).out == "[ ] B\n")
                #expect(states == ["skipped", "undone"])
            case .undone(let said):
                #expect(undo.err == "")
                #expect(undo.out.hasPrefix(said), "\(undo.out)")
                #expect(Self.burrow(["ls"], db).out == "[ ] A\n")
                #expect(states == ["undone", "done"])
            case .passedOver:
                #expect(undo.err == "")
                #expect(undo.out.hasPrefix("Undid: Add “A”"), "\(undo.out)")
                #expect(Self.burrow(["ls"], db).out == "[ ] B\n")
                #expect(states == ["skipped", "undone"])
            }
            // The outline is intact; the history's numbers only where the damage was in them (and `check` says so).
            let checked = Self.burrow(["check"], db)
            #expect(checked.status == (damage.bookkeepingHolds ? 0 : 1), "\(checked.out)")
            #expect(damage.bookkeepingHolds || checked.out.contains("undo history: "), "\(checked.out)")
            #expect(try SharedHistoryProcessTests.historyProblems(db, bookkeeping: damage.bookkeepingHolds) == [])
            // A new action after the damaged one is recorded and undone as any other.
            #expect(Self.burrow(["add", "C"], db).status == 0)
            #expect(Self.burrow(["undo"], db).out.hasPrefix("Undid: Add “C”"))
            #expect(try SharedHistoryProcessTests.historyProblems(db, bookkeeping: damage.bookkeepingHolds) == [])
        }
        if let bug = damage.knownBug {
            withKnownIssue(Comment(rawValue: bug)) { try check() }
        } else {
            try check()
        }
    }

    /// One way to damage the position / running total bookkeeping of an outline holding "A" then "A2".
    struct BookkeepingDamage: CustomTestStringConvertible, Sendable {
        var name: String
        var sql: String
        var knownBug: String?
        var testDescription: String { name }
    }

    static let oldest = "WHERE seq = (SELECT min(seq) FROM og_history)"

    static let bookkeepingDamages: [BookkeepingDamage] = [
        BookkeepingDamage(name: "a position that is text", sql: "UPDATE og_history SET position = 'lots' \(newest)"),
        BookkeepingDamage(name: "an oldest running total that is text", sql: "UPDATE og_history SET cum = 'lots' \(oldest)"),
        BookkeepingDamage(
            name: "an oldest size that is a real", sql: "UPDATE og_history SET size = 1.5e300 \(oldest)"),
        BookkeepingDamage(name: "a gap past the action limit", sql: "UPDATE og_history SET position = position + 1000000 \(newest)"),
        BookkeepingDamage(name: "positions backwards", sql: "UPDATE og_history SET position = 3 - position"),
        BookkeepingDamage(name: "a running total too large", sql: "UPDATE og_history SET cum = cum + 1000000000 \(newest)"),
        BookkeepingDamage(name: "a negative running total", sql: "UPDATE og_history SET cum = -1000000000 \(oldest)"),
        BookkeepingDamage(name: "running totals that do not add up", sql: "UPDATE og_history SET cum = 0"),
        BookkeepingDamage(
            name: "the largest running total", sql: "UPDATE og_history SET cum = 9223372036854775807 \(newest)"),
        BookkeepingDamage(
            name: "the largest position", sql: "UPDATE og_history SET position = 9223372036854775807 \(newest)"),
        BookkeepingDamage(
            name: "the smallest oldest position", sql: "UPDATE og_history SET position = -9223372036854775808 \(oldest)"),
        BookkeepingDamage(
            name: "the smallest oldest running total", sql: "UPDATE og_history SET cum = -9223372036854775808 \(oldest)")
    ]

    /// The rows' positions and running totals damaged (text where a number belongs, gaps, sums that do not
    /// add up, the largest numbers): recording, listing, undoing, redoing and clearing never crash, recording
    /// and undoing work, and once cleared the history keeps its rules again.
    @Test(arguments: bookkeepingDamages)
    func damagedBookkeepingNeverCrashes(_ damage: BookkeepingDamage) throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = try folder.copy(ofStore: Self.templates.aThenA2, as: "store.sqlite")
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in try db.execute(sql: damage.sql) }
        #expect(try SharedHistoryProcessTests.bookkeepingProblems(db) != [], "the damage breaks the rules")
        // No backtraces from the crashes of the known bugs: they take a second each.
        let quiet = { (args: [String]) in SharedHistoryProcessTests.burrow(args, db, environment: ["SWIFT_BACKTRACE": "enable=no"]) }
        let runs = [["add", "B"], ["history"], ["history", "--json"], ["undo"], ["redo"], ["add", "B2"], ["undo", "2"]].map { ($0, quiet($0)) }
        let check = { () throws in
            for (args, r) in runs { #expect(r.status < 128, "\(args): \(r.status) \(r.err.prefix(300))") }
            #expect(runs[0].1.status == 0, "\(runs[0].1.err)")
            #expect(runs[3].1.out.hasPrefix("Undid: Add “B”"), "\(runs[3].1.out)\(runs[3].1.err)")
            #expect(runs[4].1.out.hasPrefix("Redid: Add “B”"), "\(runs[4].1.out)\(runs[4].1.err)")
            #expect(HistoryCommandTests.actions(runs[6].1.out) == ["Undid: Add “B2”", "Undid: Add “B”"], "\(runs[6].1.out)\(runs[6].1.err)")
            #expect(Self.burrow(["ls"], db).out == "[ ] A\n[ ] A2\n")
            let cleared = quiet(["history", "--clear"])
            #expect(cleared.status == 0, "\(cleared.err.prefix(300))")
            #expect(quiet(["add", "C"]).status == 0)
            #expect(try SharedHistoryProcessTests.history(db).map(\.name) == ["Add “C”"])
            #expect(try SharedHistoryProcessTests.historyProblems(db) == [])
        }
        if let bug = damage.knownBug {
            withKnownIssue(Comment(rawValue: bug)) { try check() }
        } else {
            try check()
        }
        #expect(Self.burrow(["check"], db).status == 0)
    }

    /// A damaged action that cannot be marked skipped either (a trigger refuses the update, as a busy or full
    /// disk might): `burrow undo` fails with that error, once, rather than trying the same action for ever;
    /// the outline and the history are as they were, and once the update can be written the undo goes on.
    @Test func undoEndsWhenADamagedActionCannotBeSkipped() throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = try Self.damaged(Self.damages[0], in: folder)
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TRIGGER keep BEFORE UPDATE ON og_history BEGIN SELECT RAISE(FAIL, 'cannot update'); END")
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
        #expect(ended, "\(lines.count) lines, the first: \(lines.first ?? "")")
        #expect(p.terminationReason == .exit && p.terminationStatus == 1, "\(p.terminationReason) \(p.terminationStatus)")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first.map { $0.hasPrefix("burrow: cannot undo “Add “B””") && $0.contains("cannot update") } == true, "\(lines)")
        #expect(Self.burrow(["check"], db).status == 0)
        #expect(Self.burrow(["ls"], db).out == "[ ] A\n[ ] B\n")
        #expect(try SharedHistoryProcessTests.history(db).map(\.state) == ["done", "done"])
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in try db.execute(sql: "DROP TRIGGER keep") }
        let undo = Self.burrow(["undo"], db)
        #expect(undo.err.hasPrefix("burrow: skipped: cannot undo “Add “B””"), "\(undo.err)")
        #expect(undo.out.hasPrefix("Undid: Add “A”"), "\(undo.out)")
        #expect(try SharedHistoryProcessTests.history(db).map(\.state) == ["skipped", "undone"])
    }

    /// The same row damaged under an outline that is open: its `undo()` reports the step as a conflict and
    /// marks it skipped, and the next undo goes on with A.
    @Test func aDamagedStepIsAConflictInAnOpenContextToo() throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = try Self.damaged(Self.damages[0], in: folder)
        let o = try Outline(path: db)
        #expect(throws: UndoConflict.self) { try o.context.undo() }
        #expect(try o.context.undoHistory.entries().map(\.state) == [.skipped, .done])
        #expect(try o.context.undo() == "Add “A”")
        #expect(try o.context.undo() == nil)
        #expect(try o.children(of: o.root()).map(\.title) == ["B"])
    }

    /// `burrow check` reports damaged bookkeeping as a problem of the undo history, and `--repair` numbers
    /// the actions again so that recording, undo and redo go on by the rules.
    @Test(arguments: bookkeepingDamages)
    func checkReportsAndRepairRenumbers(_ damage: BookkeepingDamage) throws {
        let folder = TemporaryDirectory("burrow-damaged-history")
        let db = try folder.copy(ofStore: Self.templates.a2Undone, as: "store.sqlite")
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in try db.execute(sql: damage.sql) }
        let checked = Self.burrow(["check"], db)
        #expect(checked.status == 1 && checked.out.contains("undo history: "), "\(checked.out)\(checked.err)")
        let repaired = Self.burrow(["check", "--repair"], db)
        #expect(repaired.status == 0 && repaired.out.contains("numbered the undo history's actions again"), "\(repaired.out)\(repaired.err)")
        #expect(try SharedHistoryProcessTests.bookkeepingProblems(db) == [])
        #expect(Self.burrow(["check"], db).status == 0)
        #expect(Self.burrow(["add", "B"], db).status == 0)
        #expect(try SharedHistoryProcessTests.bookkeepingProblems(db) == [])
        #expect(Self.burrow(["undo"], db).out.hasPrefix("Undid: Add “B”"))
    }
}
