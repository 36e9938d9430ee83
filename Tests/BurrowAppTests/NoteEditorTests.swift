import Foundation
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

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

    /// Lends the "terminal" to the editor after `meanwhile` ran: what another process does while the user
    /// is in the editor.
    final class Meanwhile: TerminalHandover {
        let meanwhile: () throws -> Void
        init(_ meanwhile: @escaping () throws -> Void) { self.meanwhile = meanwhile }
        func handOver<T>(_ body: () throws -> T) rethrows -> T {
            try? meanwhile()
            return try body()
        }
    }

    /// The note changed elsewhere while the editor ran: theirs stays, ours goes to a new item below it.
    @Test func aNoteChangedMeanwhileLosesNeitherText() throws {
        let script = try editor("ours.sh", "printf 'ours' > \"$1\"")
        let (h, other) = try AppHarness.withSecondContext(["Plan", "Other"])
        h.app.environment = ["EDITOR": script]
        let plan = try #require(try other.children(of: other.root()).first)
        try other.perform("Before") { plan.note = "before" }
        try h.press("E")
        h.app.editPendingNote(on: Meanwhile { try other.perform("Theirs") { plan.note = "theirs" } })
        h.draw()
        #expect(plan.note == "theirs")
        #expect(try h.titles() == ["Plan", "Edited note of “Plan”", "Other"])
        let kept = try h.outline.children(of: h.outline.root())[1]
        #expect(kept.note == "ours")
        #expect(h.app.statusText == "The note of “Plan” changed elsewhere while you edited it: your text is in the item below it")
    }

    /// The item was deleted elsewhere while the editor ran: the text goes to a new item at the end of the level.
    @Test func anItemDeletedMeanwhileKeepsTheTextInANewItem() throws {
        let script = try editor("ours.sh", "printf 'ours' > \"$1\"")
        let (h, other) = try AppHarness.withSecondContext(["Plan", "Other"])
        h.app.environment = ["EDITOR": script]
        let plan = try #require(try other.children(of: other.root()).first)
        try h.press("E")
        h.app.editPendingNote(on: Meanwhile { try other.perform("Delete") { try other.delete(plan) } })
        h.draw()
        #expect(try h.titles() == ["Other", "Edited note of “Plan”"])
        #expect(try h.outline.children(of: h.outline.root())[1].note == "ours")
        #expect(h.app.statusText == "“Plan” was deleted elsewhere while you edited its note: your text is in a new item at the end")
        try h.press("u")
        #expect(try h.titles() == ["Other"], "keeping it was one undoable action")
    }
}
