import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// `A`: edits the selected item's note in place, in the detail pane (shown if it was hidden), for users
    /// with no editor set. Nothing opens when there is no room for the pane.
    func openNoteDraft() {
        guard let row = top.selectedRow else {
            status = .info("No item to write a note for")
            return
        }
        guard Layout(size: screenSize, details: true).details != nil else {
            status = .info("No room to edit the note here: make the terminal taller, or press \(keymap.label(for: .editNote) ?? "E") for your editor")
            return
        }
        let note: String
        do {
            guard let stored = try outline.note(of: row.id) else {
                status = .error("\(quoted(row.title)) no longer exists (it was deleted elsewhere)")
                return
            }
            note = stored
        } catch {
            fail("Cannot read the note of \(quoted(row.title))", error)
            return
        }
        detailsPane.show()
        mode = .note(
            NoteDraft(
                area: TextArea(text: note), item: row.id, title: row.title, original: note, parent: top.parentID,
                checkedGeneration: outline.context.generation))
        // The rule names the item and the status line the keys.
        status = nil
    }

    /// A key while the note is being edited: Esc saves, Ctrl-G drops the edit, the rest edit the text.
    func editNoteDraft(_ key: TerminalKit.Key) {
        guard case .note(var draft) = mode else { return }
        let command = keymap.command(for: key, in: .note)
        switch command {
        case .saveNote: closeNoteDraft(saving: true)
        case .discardNote: closeNoteDraft(saving: false)
        default:
            // The mode lets go of the draft while it changes: otherwise the edit would copy the whole text.
            mode = .browse
            var outcome = TextArea.Outcome.ignored
            if let edit = command?.textEdit(in: .note) {
                outcome = draft.area.apply(edit)
            } else if command == nil, let c = key.text {
                draft.area.insert(String(c))
                outcome = .edited
            }
            if outcome == .ignored {
                status = .info("\(key.label) does nothing in a note · " + hints([(.saveNote, "save"), (.discardNote, "cancel")], in: .note))
            }
            mode = .note(draft)
        }
    }

    /// Pasted text goes into the note as it is, line breaks included.
    func pasteIntoNoteDraft(_ text: String) {
        guard case .note(var draft) = mode else { return }
        mode = .browse
        draft.area.insert(text)
        mode = .note(draft)
    }

    /// Leaves the editor, saving the note as one undoable action when it changed (see `saveNote`), or
    /// dropping the edit.
    func closeNoteDraft(saving: Bool) {
        guard case .note(let draft) = mode else { return }
        mode = .browse
        let edited = draft.area.text
        guard saving else {
            status = .info(
                edited == draft.original
                    ? "The note of \(quoted(draft.title)) is unchanged" : "Edit dropped: the note of \(quoted(draft.title)) is as it was")
            return
        }
        saveNote(of: (draft.item, draft.title), from: draft.original, to: edited, keepingUnder: draft.parent)
    }

    /// Says once, while the note is being edited, that its item was deleted or its note changed elsewhere:
    /// the user then knows where Esc will put their text. Looked at only when the context's generation moved on.
    func settleNoteDraft() {
        guard case .note(var draft) = mode, draft.checkedGeneration != outline.context.generation else { return }
        draft.checkedGeneration = outline.context.generation
        let stored = try? outline.note(of: draft.item)
        if stored == nil {
            status = .error(
                "\(quoted(draft.title)) was deleted elsewhere: \(noteKey(.saveNote)) keeps your text in a new item, \(noteKey(.discardNote)) drops it"
            )
        } else if stored != draft.original {
            status = .error(
                "The note was changed elsewhere: \(noteKey(.saveNote)) keeps both (yours in a new item below), \(noteKey(.discardNote)) keeps theirs")
        }
        mode = .note(draft)
    }

    /// Where the editor goes: the detail pane, or the list's place when the pane no longer fits (the terminal
    /// was made shorter while editing); a rule naming the item on top, the text under it.
    func noteEditorArea(_ layout: Layout) -> (rule: Rect, text: Rect) {
        let area = layout.details ?? layout.list
        let (rule, text) = area.splitTop(1)
        return (rule, text)
    }

    /// The key that runs `command` in the note editor, for messages ("no key" when it is bound to none).
    private func noteKey(_ command: Command) -> String { keymap.label(for: command, in: .note) ?? "no key" }
}
