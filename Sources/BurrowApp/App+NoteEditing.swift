import Foundation
import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// True when `E` is waiting for the terminal: the run loop then calls `editPendingNote(on:)`.
    public var wantsTerminal: Bool { externalEditor.isWaiting }

    /// Edits the note `E` asked for in the user's editor, lending it `terminal` (see ``ExternalEditor``).
    public func editPendingNote(on terminal: any TerminalHandover) {
        externalEditor.edit(on: terminal, in: self)
        settle()
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
