import Foundation
import Outline
import TestSupport
import Testing

@testable import BurrowCommands

/// `burrow note` and `burrow ls --notes`: notes set from arguments and standard input, shown exactly, and
/// never set from bytes that are not text.
@Suite struct NoteCommandTests {
    @Test func setShowChangeAndRemove() {
        let sh = Shell()
        sh.run("add", "Groceries", "Work")
        #expect(sh.run("note", "Groceries").1 == "", "no note: nothing printed")
        var r = sh.run("note", "Groceries", "Saturday, before ten")
        #expect(r.0 == 0 && r.1 == "Added a note to “Groceries”\n", "\(r)")
        #expect(sh.run("note", "Groceries").1 == "Saturday, before ten\n")
        r = sh.run("note", "Groceries", "Saturday, before ten")
        #expect(r.0 == 0 && r.1 == "The note of “Groceries” is unchanged\n", "\(r)")
        r = sh.run("note", "Groceries", "Sunday\n\twith Ann")
        #expect(r.1 == "Changed the note of “Groceries”\n", "\(r)")
        #expect(sh.run("note", "Groceries").1 == "Sunday\n\twith Ann\n", "printed exactly to a pipe")
        r = sh.run("note", "Groceries", "")
        #expect(r.1 == "Removed the note of “Groceries”\n", "\(r)")
        #expect(sh.run("note", "Groceries").1 == "")
        #expect(sh.run("ls", "--json").1.contains("\"note\"") == false, "a removed note is no note, not an empty one")
    }

    @Test func standardInputLessOneLineBreak() {
        let sh = Shell()
        sh.run("add", "Plan")
        #expect(sh.run(["note", "Plan", "-"], stdin: "first line\n\nthird line\n").0 == 0)
        #expect(sh.run("note", "Plan").1 == "first line\n\nthird line\n")
        #expect(sh.run(["note", "Plan", "-"], stdin: "windows\r\n").0 == 0)
        #expect(sh.run("note", "Plan").1 == "windows\n")
        #expect(sh.run(["note", "Plan", "-"], stdin: "").1 == "Removed the note of “Plan”\n")
    }

    @Test func refusals() {
        let sh = Shell()
        sh.run("add", "A")
        var r = sh.run("note", "Nowhere", "x")
        #expect(r.0 == 1 && r.2.hasPrefix("burrow: ") && r.2.split(separator: "\n").count == 1, "\(r)")
        r = sh.run("note", "", "x")
        #expect(r.0 == 1 && r.2 == "burrow: the top of the outline has no note\n", "\(r)")
        #expect(sh.run("note", "A").1 == "")
    }

    @Test func bytesThatAreNotTextAreRefused() throws {
        let console = Console(
            out: { _ in }, err: { _ in }, input: { Data([0x6E, 0x6F, 0xFF, 0xFE, 0x0A]) }, outIsTerminal: false, errIsTerminal: false)
        #expect(throws: UserError.self) { try Console.$current.withValue(console) { try Note.standardInput() } }
    }

    @Test func lsShowsNotesUnderTheirItems() {
        let sh = Shell()
        sh.run("add", "Groceries", "Work")
        sh.run("add", "Milk", "--under", "Groceries")
        sh.run("note", "Groceries", "Saturday\n\nat the market")
        sh.run("note", "Groceries/Milk", "oat \u{1B}[31m")
        #expect(sh.run("ls", "--notes").1 == "[ ] Groceries (1)\n    Saturday\n\n    at the market\n[ ] Work\n")
        let tree = sh.run("ls", "--tree", "--notes", "--ids").1
        let lines = tree.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 8 && lines[7] == "", "\(tree)")
        #expect(lines[4].hasPrefix("  #") && lines[4].hasSuffix("[ ] Milk"), "\(tree)")
        // The note's escape byte is shown in caret notation, not sent: notes are untrusted text.
        #expect(!tree.contains("\u{1B}") && lines[5] == "          oat ^[[31m", "\(tree)")
        #expect(sh.run("ls").1 == "[ ] Groceries (1)\n[ ] Work\n", "without --notes, no notes")
    }
}
