import Foundation
import ObjectGraph
import Outline
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp

/// `E` edits the selected item's note in `$VISUAL`/`$EDITOR` (real processes: shell scripts standing in
/// for an editor), lending the terminal: a change is one undoable action; a failing or missing editor, or no
/// change, leaves the note as it was and says so.
@Suite struct NoteEditorTests {
    let dir = TemporaryDirectory("burrow-editor")

    /// A script that acts as an editor, as an editor command: `body` runs with the file's path in "$1".
    /// It is run by `sh`, not executed: executing a file just written can fail with "text file busy" when
    /// another test forks at that moment and its child still holds the file open for writing.
    private func editor(_ name: String, _ body: String) throws -> String {
        let path = dir.path(name)
        try Data("\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        return "sh '\(path)'"
    }

    private func harness(note: String?, environment: [String: String]) throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let items = try o.append(titles: ["Plan", "Other"], to: try o.root())
        items[0].note = note
        try o.save()
        let h = try AppHarness(width: 40, height: 8, outline: o)
        h.app.environment = environment
        return h
    }

    private func note(_ h: AppHarness) throws -> String? {
        try #require(try h.outline.children(of: h.outline.root()).first).note
    }

    @Test func anEditIsSavedAsOneUndoableAction() throws {
        let seen = dir.path("seen.txt")
        let script = try editor("ed.sh", "cp \"$1\" '\(seen)'\nprintf 'second line\\n' >> \"$1\"")
        let h = try harness(note: "first line", environment: ["EDITOR": script, "PATH": "/usr/bin:/bin"])
        try h.press("E")
        #expect(h.app.wantsTerminal)
        h.app.editPendingNote(on: h.backend)
        h.draw()
        #expect(h.backend.handOvers == 1)
        #expect(try String(contentsOfFile: seen, encoding: .utf8) == "first line\n", "the editor got the note, with a final line break")
        #expect(try note(h) == "first line\nsecond line")
        #expect(h.app.statusText == "Saved the note of “Plan”")
        try h.press("u")
        #expect(try note(h) == "first line")
        #expect(h.app.statusText?.hasPrefix("Undid: Edit the note of “Plan”") == true, "\(h.app.statusText ?? "")")
    }

    @Test func visualWinsAndArgumentsAreKept() throws {
        // The file comes last, after the arguments $VISUAL carries.
        let visual = try editor("visual.sh", "[ \"$1\" = --wait ] || exit 9\nfor f in \"$@\"; do :; done\nprintf 'from visual' > \"$f\"")
        let h = try harness(note: nil, environment: ["VISUAL": "\(visual) --wait", "EDITOR": "/bin/false", "PATH": "/usr/bin:/bin"])
        try h.press("E")
        h.app.editPendingNote(on: h.backend)
        #expect(try note(h) == "from visual", "\(h.app.statusText ?? "")")
    }

    @Test func aFailingEditorChangesNothing() throws {
        let script = try editor("fail.sh", "printf 'half-written' > \"$1\"; exit 3")
        let h = try harness(note: "keep me", environment: ["EDITOR": script])
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("E")
        h.app.editPendingNote(on: h.backend)
        #expect(try note(h) == "keep me")
        #expect(h.app.statusText?.contains("failed with status 3") == true, "\(h.app.statusText ?? "")")
        #expect(h.outline.context.undoHistory.undoCount == steps)
    }

    @Test func noEditorSaysWhatToSet() throws {
        let h = try harness(note: "keep me", environment: ["PATH": dir.path("empty")])
        try h.press("E")
        h.app.editPendingNote(on: h.backend)
        #expect(try note(h) == "keep me")
        #expect(h.app.statusText == "Note of “Plan” unchanged: no editor to run: set $VISUAL or $EDITOR (neither vi nor nano was found)")
        #expect(h.backend.handOvers == 0, "the terminal is not lent when there is nothing to run")
    }

    @Test func noChangeIsNoAction() throws {
        let h = try harness(note: "same", environment: ["EDITOR": "true"])
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("E")
        h.app.editPendingNote(on: h.backend)
        #expect(h.app.statusText == "The note of “Plan” is unchanged")
        #expect(h.outline.context.undoHistory.undoCount == steps)
    }

    @Test func textThatIsNotUTF8IsRefused() throws {
        let script = try editor("bytes.sh", "printf 'ok \\377\\376' > \"$1\"")
        let h = try harness(note: "keep me", environment: ["EDITOR": script])
        try h.press("E")
        h.app.editPendingNote(on: h.backend)
        #expect(try note(h) == "keep me")
        #expect(h.app.statusText?.contains("not UTF-8") == true, "\(h.app.statusText ?? "")")
    }

    /// The note changed elsewhere while the editor ran: theirs stays, ours goes to a new item below it.
    @Test func aNoteChangedMeanwhileLosesNeitherText() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let plan = try o.append("Plan", to: try o.root())
        plan.note = "before"
        try o.save()
        try o.perform("Theirs") { plan.note = "theirs" }
        let kept = try o.perform("Ours") { try o.setNote(plan.objectID, to: "ours", ifStill: "before") }
        #expect(plan.note == "theirs")
        let below = try #require(o.context.existingObject(for: kept) as? Item)
        #expect(below.title == "Edited note of “Plan”" && below.note == "ours")
        #expect(try o.children(of: o.root()).map(\.title) == ["Plan", "Edited note of “Plan”"])
    }
}
