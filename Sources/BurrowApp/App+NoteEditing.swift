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
        saveNote(of: (row.id, row.title), from: before, to: edited, keepingUnder: here.id)
    }

    /// Saves `edited` as the note of `item` as one undoable action, if it differs from `before` (the note as
    /// read when editing began). A note changed elsewhere meanwhile keeps theirs and ours goes to a new item
    /// below it; an item deleted meanwhile leaves ours in a new item at the end of `parent`: neither text is
    /// ever lost. Shared by `E` and the editor in the pane.
    func saveNote(of item: Named, from before: String, to edited: String, keepingUnder parent: ObjectID) {
        guard edited != before else {
            status = .info("The note of \(quoted(item.title)) is unchanged")
            return
        }
        var kept: ObjectID?
        var gone = false
        let done = perform("Edit the note of \(quoted(item.title))", naming: [item]) { () throws -> ObjectID? in
            let id = try outline.setNote(item.id, to: edited, ifStill: before, title: item.title, keepingUnder: parent)
            kept = id == item.id ? nil : id
            gone = try outline.row(item.id) == nil
            return id
        }
        guard done else { return }
        if kept == nil {
            status = .info("Saved the note of \(quoted(item.title))")
        } else if gone {
            status = .error("\(quoted(item.title)) was deleted elsewhere while you edited its note: your text is in a new item at the end")
        } else {
            status = .error("The note of \(quoted(item.title)) changed elsewhere while you edited it: your text is in the item below it")
        }
    }
}
