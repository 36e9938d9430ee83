import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// `burrow undo`, `redo` and `history` as real processes against what they meet in the wild: changes a sync
/// saved without an undo step in the way, an outline written before the history existed, a cleared
/// history, names no terminal or JSON reader should choke on.
@Suite(.onAThreadOfItsOwn("processes")) struct HistoryCommandTests {
    typealias P = SharedHistoryProcessTests

    /// "Undid: Add “B”" of each line "Undid: Add “B” (command line, just now, in Burrow)".
    static func actions(_ output: String) -> [String] {
        output.split(separator: "\n").map { line in line.range(of: " (").map { String(line[..<$0.lowerBound]) } ?? String(line) }
    }

    static func id(_ result: BurrowProcess.Result) -> Int64? {
        result.out.split(separator: "#").dropFirst().first?.split(separator: " ").first.flatMap { Int64($0) }
    }

    /// A sync (a context that records no actions) renames what the newest action added and deletes what
    /// the one before renamed: both are reported and skipped by one `burrow undo 3`, which goes on to undo
    /// the actions before them; the synced changes stay, the skipped actions stay listed as skipped, and redo
    /// finds nothing to redo but those undos.
    @Test func changesSavedWithoutAnUndoStepAreReportedAndSkipped() throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        let db = folder.path()
        #expect(P.burrow(["add", "Keep"], db).status == 0)
        let b = try #require(Self.id(P.burrow(["add", "B"], db)))
        #expect(P.burrow(["rename", "#\(b)", "B2"], db).status == 0)
        let c = try #require(Self.id(P.burrow(["add", "C"], db)))

        let sync = try Outline(path: db)
        sync.context.undoHistory.recordsActions = false
        let item = ObjectID(entity: Item.Slot.entity.index, rowID: 0)
        try sync.perform { try sync.rename(ObjectID(entity: item.entity, rowID: c), to: "C from the sync") }
        try sync.perform { try sync.delete(ObjectID(entity: item.entity, rowID: b)) }
        #expect(try P.history(db).count == 4)

        let undo = P.burrow(["undo", "3"], db)
        #expect(undo.status == 0, "\(undo.err)")
        let skipped = undo.err.split(separator: "\n").map(String.init)
        #expect(skipped.count == 2, "\(undo.err)")
        #expect(skipped.first?.hasPrefix("burrow: skipped: cannot undo “Add “C””: Item #\(c) was changed elsewhere (title)") == true, "\(undo.err)")
        #expect(skipped.last?.hasPrefix("burrow: skipped: cannot undo “Rename") == true, "\(undo.err)")
        // The skipped ones are not counted: three undos were asked, two were possible (B's add, then Keep's).
        #expect(Self.actions(undo.out) == ["Undid: Add “B”", "Undid: Add “Keep”"], "\(undo.out)")
        #expect(P.burrow(["ls"], db).out == "[ ] C from the sync\n")
        #expect(
            try P.history(db).map { "\($0.state) \($0.name)" } == [
                "skipped Add “C”", "skipped Rename “B” to “B2”", "undone Add “B”", "undone Add “Keep”"
            ])
        #expect(try P.historyProblems(db) == [])
        P.expectClean(db, "")
        // A second undo does not meet the skipped ones again.
        #expect(P.burrow(["undo"], db).err == "burrow: nothing to undo\n")
        // Redo brings back the undone ones in order, even with the sync's rename in the outline.
        let redo = P.burrow(["redo", "5"], db)
        #expect(Self.actions(redo.out) == ["Redid: Add “Keep”", "Redid: Add “B”"], "\(redo.out)")
        #expect(P.burrow(["ls"], db).out == "[ ] Keep\n[ ] B\n[ ] C from the sync\n")
        #expect(P.burrow(["redo"], db).err == "burrow: nothing to redo\n")
        #expect(try P.history(db).map(\.state) == ["skipped", "skipped", "done", "done"])
        #expect(try P.historyProblems(db) == [])
    }

    /// An outline written before the history existed (no og_history table): `burrow history`
    /// reading it says there is nothing, and the first command that writes starts a history that works.
    @Test func anOutlineFromBeforeTheHistoryGetsOne() throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        let db = folder.path()
        #expect(P.burrow(["add", "Old"], db).status == 0)
        let o = try Outline(path: db)
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "DROP TABLE og_history")
        }
        #expect(P.burrow(["history"], db).out == "No actions yet\n")
        #expect(P.burrow(["history", "--json"], db).out == "[]\n")
        #expect(P.burrow(["undo"], db).err == "burrow: nothing to undo\n")
        #expect(P.burrow(["add", "New"], db).status == 0)
        #expect(try P.history(db).map(\.name) == ["Add “New”"])
        #expect(P.burrow(["undo"], db).out.hasPrefix("Undid: Add “New”"))
        #expect(P.burrow(["ls"], db).out == "[ ] Old\n")
        #expect(try P.historyProblems(db) == [])
    }

    /// `--clear` forgets every action, undone ones too, and changes nothing in the outline; sequence numbers
    /// are never given again.
    @Test func clearingForgetsEverythingAndNumbersGoOn() throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        let db = folder.path()
        #expect(P.burrow(["add", "A", "B"], db).status == 0)
        #expect(P.burrow(["add", "C"], db).status == 0)
        #expect(P.burrow(["undo"], db).status == 0)
        let last = try #require(try P.history(db).first?.sequence)
        let clear = P.burrow(["history", "--clear"], db)
        #expect(clear.out == "Cleared the undo history (2 actions)\n", "\(clear.out)\(clear.err)")
        #expect(P.burrow(["ls"], db).out == "[ ] A\n[ ] B\n")
        #expect(P.burrow(["undo"], db).err == "burrow: nothing to undo\n")
        #expect(P.burrow(["redo"], db).err == "burrow: nothing to redo\n")
        #expect(try P.historyProblems(db) == [])
        #expect(P.burrow(["add", "D"], db).status == 0)
        let next = try #require(try P.history(db).first)
        #expect(next.sequence > last && next.name == "Add “D”")
        #expect(P.burrow(["history", "--clear", "--json"], db).status == 2)
        #expect(P.burrow(["history", "--limit", "-1"], db).status == 2)
        #expect(P.burrow(["undo", "0"], db).status == 2)
    }

    /// An action whose history row cannot be written (a trigger refuses it, as a full disk would): the
    /// command fails with a message and its change is not made either.
    @Test func anActionWhoseHistoryCannotBeWrittenIsNotMade() throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        let db = folder.path()
        #expect(P.burrow(["add", "A"], db).status == 0)
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON og_history BEGIN SELECT RAISE(FAIL, 'no room'); END")
        }
        let add = P.burrow(["add", "B"], db)
        #expect(add.status == 1, "\(add.out)\(add.err)")
        #expect(add.err.hasPrefix("burrow: ") && add.err.contains("undo"), "\(add.err)")
        #expect(P.burrow(["ls"], db).out == "[ ] A\n")
        #expect(try P.history(db).map(\.name) == ["Add “A”"])
        #expect(try P.historyProblems(db) == [])
        // Undo writes no new row: it still works.
        #expect(P.burrow(["undo"], db).out.hasPrefix("Undid: Add “A”"))
    }

    /// `undo`, `redo` and `history --clear` where there is no outline (a mistyped `--db`): they say there
    /// is none and leave no new file behind; so does `history` (a named database that is not there is an error).
    @Test func undoWhereThereIsNoOutlineCreatesNone() throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        for (k, args) in [["history"], ["undo"], ["redo"], ["history", "--clear"], ["undo", "3"]].enumerated() {
            let db = folder.path("typo\(k).sqlite")
            let r = P.burrow(args, db)
            #expect(r.status == 1, "\(args): \(r.status) \(r.err)")
            #expect(r.err == "burrow: there is no outline at \(db) (burrow add makes one)\n", "\(args)")
            #expect(r.out == "", "\(args)")
            #expect(!FileManager.default.fileExists(atPath: db), "\(args) created \(db)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }

    /// `--limit 0` lists nothing, and must not say there is nothing.
    @Test func aLimitOfZeroDoesNotSayThereAreNoActions() throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        let db = folder.path()
        #expect(P.burrow(["add", "A"], db).status == 0)
        let listed = P.burrow(["history", "--limit", "0"], db)
        #expect(listed.status == 0)
        #expect(listed.out == "", "\(listed.out)")
        #expect(P.burrow(["history", "--limit", "0", "--json"], db).out == "[]\n")
    }

    /// How long ago an action was made, from its stored time: minutes, hours, days, and "just now" for a
    /// time in the future (a clock set back).
    @Test(arguments: [(-150.0, "2 min ago"), (-7300.0, "2 h ago"), (-3 * 86_400.0 - 10, "3 days ago"), (3600.0, "just now")] as [(Double, String)])
    func undoSaysHowLongAgo(offset: Double, age: String) throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        let db = folder.path()
        #expect(P.burrow(["add", "A"], db).status == 0)
        try Outline(path: db).context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE og_history SET at = at + ?", arguments: [offset])
        }
        #expect(P.burrow(["history"], db).out == "1  Add “A”  (command line, \(age), in Burrow)\n")
        #expect(P.burrow(["undo"], db).out == "Undid: Add “A” (command line, \(age), in Burrow)\n")
    }

    /// Names and origins holding control characters, quotes, backslashes and line separators (written
    /// by another program): `burrow history --json` is JSON that gives them back exactly, and the text
    /// listing to a pipe keeps each action on its own line.
    @Test func jsonGivesBackHostileNamesExactly() throws {
        let folder = TemporaryDirectory("burrow-history-cli")
        let db = folder.path()
        #expect(P.burrow(["add", "A"], db).status == 0)
        let name = "ab\u{1B}[2J\"q\"\\\n\r\t\u{7F}\u{85}\u{2028}\u{2029}\u{FEFF}é"
        let o = try Outline(path: db)
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE og_history SET name = ?, origin = ?", arguments: [name, name])
        }
        let entries = try P.history(db)
        #expect(entries.map(\.name) == [name])
        #expect(entries.map(\.origin) == [name])
        let listed = P.burrow(["history"], db)
        #expect(listed.status == 0)
        let undo = P.burrow(["undo"], db)
        #expect(undo.status == 0)
        // The name is made visible; the origin must be too (to a pipe nothing else sanitises it).
        #expect(listed.out.hasPrefix("1  ab^[[2J\"q\"\\^J^M^I^?"), "\(listed.out.debugDescription)")
        #expect(undo.out.hasPrefix("Undid: ab^[[2J\"q\"\\^J^M^I^?"), "\(undo.out.debugDescription)")
        #expect(listed.out.split(separator: "\n", omittingEmptySubsequences: false).count == 2, "\(listed.out.debugDescription)")
        #expect(!listed.out.contains("\u{1B}"), "\(listed.out.debugDescription)")
        #expect(undo.out.split(separator: "\n", omittingEmptySubsequences: false).count == 2, "\(undo.out.debugDescription)")
        #expect(!undo.out.contains("\u{1B}"), "\(undo.out.debugDescription)")
    }
}
