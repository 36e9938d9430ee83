import Foundation
import Outline
import Testing

@testable import BurrowCommands

/// Tasks from the command line: an org GTD file imported shows its keywords, priorities and dates as data
/// (and exports back byte for byte); `state`, `schedule` and `done` change them.
@Suite struct TaskCommandTests {
    static let gtd = """
        #+TITLE: Work
        * Workspace
        ** TODO [#B] Review: Type conversions
           SCHEDULED: <2026-12-01 Tue>
        ** DONE Ship
           CLOSED: [2026-11-20 Fri 17:05]

        """

    @Test func anOrgTaskIsATaskInEveryCommand() throws {
        let sh = Shell()
        let file = sh.file("work.org")
        try Data(Self.gtd.utf8).write(to: URL(fileURLWithPath: file))
        #expect(sh.run("import", file).0 == 0)
        #expect(
            sh.run("ls", "--tree").1
                == "[ ] Workspace (2)\n  [ ] TODO [#B] Review: Type conversions · planned 2026-12-01\n  [x] DONE Ship\n")
        #expect(sh.run("export", "--format", "org").1 == Self.gtd)
        let json = sh.run("ls", "Workspace", "--json").1
        #expect(json.contains("\"state\": \"TODO\", \"priority\": \"B\", \"scheduled\": \"2026-12-01\""), "\(json)")

        var r = sh.run("state", "Workspace/Review: Type conversions")
        #expect(r == (0, "TODO · priority B\n", ""))
        r = sh.run("done", "Workspace/Review: Type conversions")
        #expect(r.0 == 0, "\(r)")
        #expect(sh.run("state", "Workspace/Review: Type conversions").1 == "DONE · priority B\n")
        r = sh.run("done", "--undo", "Workspace/Review: Type conversions")
        #expect(sh.run("state", "Workspace/Review: Type conversions").1 == "TODO · priority B\n")
        r = sh.run("state", "Workspace/Ship", "none", "--priority", "A")
        #expect(r == (0, "No state [#A]: “Ship”\n", ""))
        #expect(sh.run("ls", "Workspace").1.hasSuffix("[ ] [#A] Ship\n"))
        r = sh.run("state", "Workspace/Ship", "NEXT")
        #expect(r.0 == 0 && r.1.contains("NEXT is not in the outline's workflow"), "\(r)")

        r = sh.run("schedule", "Workspace/Ship", "2026-12-24 9:30 +1y", "--deadline")
        #expect(r == (0, "Due 2026-12-24 09:30 +1y: “Ship”\n", ""))
        let org = sh.run("export", "--format", "org").1
        // NEXT is declared by the export, the closing time went with done.
        #expect(org.hasPrefix("#+TODO: TODO NEXT | DONE\n#+TITLE: Work\n"), "\(org)")
        #expect(org.contains("** NEXT [#A] Ship\n   DEADLINE: <2026-12-24 Thu 09:30 +1y>\n"), "\(org)")
        r = sh.run("schedule", "Workspace/Ship", "christmas")
        #expect(r.0 == 1 && r.2.contains("“christmas” is not a date"), "\(r)")
        // Each change is one undoable action.
        r = sh.run("undo")
        #expect(r.0 == 0 && r.1.contains("Set the deadline of “Ship”"), "\(r)")
    }

    /// `burrow add` reads its texts as the capture line does; `--literal` takes them as they are.
    @Test func addReadsTheCaptureTokens() throws {
        let sh = Shell()
        var r = sh.run("add", "TODO Call Bob #work !a due:2026-12-04 9:00")
        #expect(r.0 == 0 && r.1.hasSuffix("under the top level (TODO · priority A · #work · due 2026-12-04 09:00)\n"), "\(r)")
        #expect(r.1.hasPrefix("Added “Call Bob” #"), "\(r)")
        r = sh.run("add", "--literal", "TODO keep !A as typed")
        #expect(r.0 == 0 && r.1.hasPrefix("Added “TODO keep !A as typed” #"), "\(r)")
        r = sh.run("add", "-", stdin: "DONE Filed taxes\nplain line\n")
        #expect(r.0 == 0, "\(r)")
        #expect(
            sh.run("ls").1
                == "[ ] TODO [#A] Call Bob · due 2026-12-04 09:00 #work\n[ ] TODO keep !A as typed\n[x] DONE Filed taxes\n[ ] plain line\n")
    }

    /// `burrow tag` adds, removes and prints an item's tags; `--list` counts every tag; `ls --tag` finds a
    /// tag's items anywhere, with their paths; a name that cannot be a tag changes nothing.
    @Test func tagsFromTheCommandLine() throws {
        let sh = Shell()
        #expect(sh.run("add", "Work", "Home").0 == 0)
        #expect(sh.run("add", "Call Bob #work", "--under", "Work").0 == 0)
        var r = sh.run("tag", "Work/Call Bob", "urgent", "#big project")
        #expect(r.0 == 0 && r.1 == "#work #urgent #big project: “Call Bob”\n", "\(r)")
        r = sh.run("tag", "Home", "work")
        #expect(r.0 == 0, "\(r)")
        r = sh.run("tag", "Work/Call Bob", "--remove", "urgent")
        #expect(r.0 == 0 && r.1 == "#work #big project: “Call Bob”\n", "\(r)")
        #expect(sh.run("tag", "Work/Call Bob").1 == "#work #big project\n")
        #expect(sh.run("tag", "--list").1 == "#big project  1\n#work  2\n")
        // In the order the items were made.
        #expect(sh.run("ls", "--tag", "work").1 == "[ ] Home #work\n[ ] Work/Call Bob #work #big project\n")
        #expect(sh.run("ls", "--tag", "#nothing").1 == "(no items tagged #nothing)\n")
        r = sh.run("tag", "Home", "a:b")
        #expect(r.0 != 0 && r.2.contains("is not a tag"), "\(r)")
        #expect(sh.run("tag", "Home").1 == "#work\n")
        r = sh.run("ls", "--tag", "work", "--json")
        #expect(r.0 == 0 && r.1.contains(#""path": ["Work", "Call Bob"]"#), "\(r)")
    }

    /// `burrow find` with filters: states, tags, priorities, days (relative to today) and text, together.
    @Test func findWithFilters() throws {
        let sh = Shell()
        let inThree = Outline.today(Date().addingTimeInterval(3 * 86_400))
        let inTen = Outline.today(Date().addingTimeInterval(10 * 86_400))
        #expect(sh.run("add", "Work").0 == 0)
        #expect(sh.run("add", "TODO Call Bob #work !A due:\(inThree)", "--under", "Work").0 == 0)
        #expect(sh.run("add", "TODO Write report #work due:\(inTen)", "--under", "Work").0 == 0)
        #expect(sh.run("add", "DONE Ship Gödel #work", "--under", "Work").0 == 0)
        #expect(sh.run("add", "Call mum #home").0 == 0)
        var r = sh.run("find", "state:TODO #work due:<7d")
        #expect(r.0 == 0 && r.1.hasSuffix("  Work › Call Bob\n") && r.1.split(separator: "\n").count == 1, "\(r)")
        r = sh.run("find", "tag:work is:open")
        #expect(r.1.contains("Call Bob") && r.1.contains("Write report") && !r.1.contains("Ship"), "\(r)")
        r = sh.run("find", "#work godel")
        #expect(r.0 == 0 && r.1.contains("Ship Gödel") && r.1.split(separator: "\n").count == 1, "text with a filter: folded, \(r)")
        r = sh.run("find", "call", "--json")
        #expect(r.1.contains("Call Bob") && r.1.contains("Call mum"), "\(r)")
        r = sh.run("find", "pri:A \"call bob\"")
        #expect(r.0 == 0 && r.1.contains("Call Bob"), "\(r)")
        r = sh.run("find", "state:TODO due:>=\(inTen)")
        #expect(r.1.contains("Write report") && !r.1.contains("Call Bob"), "\(r)")
        r = sh.run("find", "is:done #home")
        #expect(r.0 == 1 && r.1.isEmpty && r.2.contains("nothing matches"), "\(r)")
        r = sh.run("find", "due:someday")
        #expect(r.0 != 0 && r.2.contains("due: takes a day"), "\(r)")
    }
}
