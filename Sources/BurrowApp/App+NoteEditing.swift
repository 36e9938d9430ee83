import Foundation
import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// True when `E` is waiting for the terminal: the run loop then calls `editPendingNote(on:)`.
    public var wantsTerminal: Bool { pendingNoteEdit != nil }

    /// Edits the note `E` asked for in the user's editor, lending it `terminal`, and saves it as one undoable
    /// action if it changed. The note is read as stored when the editor starts, and saved only if nobody
    /// changed it meanwhile (another process, say): otherwise the edited text is kept as a new item's note
    /// beside it, never lost. An editor that is missing or fails changes nothing and says why.
    public func editPendingNote(on terminal: any TerminalHandover) {
        guard let row = pendingNoteEdit else { return }
        pendingNoteEdit = nil
        defer { settle() }
        let before: String
        do {
            guard let details = try outline.details(of: row.id) else {
                status = .error("\(quoted(row.title)) no longer exists (it was deleted elsewhere)")
                return
            }
            before = details.note ?? ""
        } catch {
            fail("Cannot read the note of \(quoted(row.title))", error)
            return
        }
        let editor = NoteEditor(environment: environment)
        guard editor.command != nil else {
            status = .error("Note of \(quoted(row.title)) unchanged: no editor to run: set $VISUAL or $EDITOR (neither vi nor nano was found)")
            return
        }
        let edited: String
        do {
            edited = try terminal.handOver { try editor.edit(before) }
        } catch {
            status = .error("Note of \(quoted(row.title)) unchanged: \(error)")
            return
        }
        guard edited != before else {
            status = .info("The note of \(quoted(row.title)) is unchanged")
            return
        }
        var kept: ObjectID?
        var gone = false
        let parent = here
        let done = perform("Edit the note of \(quoted(row.title))", naming: [(row.id, row.title)]) { () throws -> ObjectID? in
            let id = try outline.setNote(row.id, to: edited, ifStill: before, title: row.title, keepingUnder: parent.id)
            kept = id == row.id ? nil : id
            gone = try outline.row(row.id) == nil
            return id
        }
        guard done else { return }
        if kept == nil {
            status = .info("Saved the note of \(quoted(row.title))")
        } else if gone {
            status = .error("\(quoted(row.title)) was deleted elsewhere while you edited its note: your text is in a new item at the end")
        } else {
            status = .error("The note of \(quoted(row.title)) changed elsewhere while you edited it: your text is in the item below it")
        }
    }
}
