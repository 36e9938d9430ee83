import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// A note being edited in place in the detail pane (`A`), for users with no editor set: the text as typed so
/// far and what saving it needs. Its keys are the keymap's note-editor section and the text keys: save (Esc)
/// keeps the note as one undoable action through the same `saveNote` as `E` (both texts kept on a conflict or
/// a deleted item, told while typing), discard (Ctrl-G) drops the edit, and leaving the outliner saves it.
final class NoteDraft: Panel {
    private(set) var area: TextArea
    let item: ObjectID
    /// The item's title when editing began: what messages name it by, even once it is gone.
    let title: String
    /// The note as stored when editing began: saved over only if it is still that (see `Outline.setNote`).
    let original: String
    /// The level the item was in: where the text goes if the item is deleted meanwhile.
    let parent: ObjectID
    /// The context's generation when the item was last looked at, so a change made elsewhere is told once.
    private var checkedGeneration: Int

    private init(area: TextArea, item: ObjectID, title: String, original: String, parent: ObjectID, checkedGeneration: Int) {
        self.area = area
        self.item = item
        self.title = title
        self.original = original
        self.parent = parent
        self.checkedGeneration = checkedGeneration
    }

    /// Opens the editor on the selected item's note, showing the pane if it was hidden; nil, with the reason
    /// on the status line, when there is no item or no room for the pane.
    static func open(in app: App) -> NoteDraft? {
        guard let row = app.top.selectedRow else {
            app.status = .info("No item to write a note for")
            return nil
        }
        guard Layout(size: app.screenSize, details: true).details != nil else {
            app.status = .info(
                "No room to edit the note here: make the terminal taller, or press \(app.keymap.label(for: .editNote) ?? "E") for your editor")
            return nil
        }
        let note: String
        do {
            guard let stored = try app.outline.note(of: row.id) else {
                app.status = .error("\(app.quoted(row.title)) no longer exists (it was deleted elsewhere)")
                return nil
            }
            note = stored
        } catch {
            app.fail("Cannot read the note of \(app.quoted(row.title))", error)
            return nil
        }
        app.detailsPane.show()
        // The rule names the item and the status line the keys.
        app.status = nil
        return NoteDraft(
            area: TextArea(text: note), item: row.id, title: row.title, original: note, parent: app.top.parentID,
            checkedGeneration: app.outline.generation)
    }

    func handle(_ key: Key, in app: App) -> Bool {
        let command = app.keymap.command(for: key, in: .note)
        switch command {
        case .saveNote:
            close(saving: true, in: app)
            return false
        case .discardNote:
            close(saving: false, in: app)
            return false
        default:
            var outcome = TextArea.Outcome.ignored
            if let edit = command?.textEdit(in: .note) {
                outcome = area.apply(edit)
            } else if command == nil, let c = key.text {
                area.insert(String(c))
                outcome = .edited
            }
            if outcome == .ignored { app.status = .info("\(key.label) does nothing in a note · " + hint(in: app)) }
            return true
        }
    }

    /// Pasted text goes into the note as it is, line breaks included.
    func paste(_ text: String, in app: App) { area.insert(text) }

    /// Leaving the outliner keeps the note, as every change is kept.
    func leave(in app: App) { close(saving: true, in: app) }

    /// Saves the note as one undoable action when it changed (see `saveNote`), or drops the edit.
    private func close(saving: Bool, in app: App) {
        let edited = area.text
        guard saving else {
            app.status = .info(
                edited == original
                    ? "The note of \(app.quoted(title)) is unchanged" : "Edit dropped: the note of \(app.quoted(title)) is as it was")
            return
        }
        // Saved as browsing: the action's selection and messages are the list's.
        app.mode = .browse
        app.saveNote(of: (item, title), from: original, to: edited, keepingUnder: parent)
    }

    /// Says once, while the note is being edited, that its item was deleted or its note changed elsewhere:
    /// the user then knows where saving will put their text. Looked at only when the context's generation
    /// moved on. Then scrolls the text as drawing it at `layout` would.
    func settle(_ layout: Layout, in app: App) {
        if checkedGeneration != app.outline.generation {
            checkedGeneration = app.outline.generation
            do {
                let stored = try app.outline.note(of: item)
                if stored == nil {
                    app.status = .error(
                        "\(app.quoted(title)) was deleted elsewhere: \(key(.saveNote, app)) keeps your text in a new item, \(key(.discardNote, app)) drops it"
                    )
                } else if stored != original {
                    app.status = .error(
                        "The note was changed elsewhere: \(key(.saveNote, app)) keeps both (yours in a new item below), \(key(.discardNote, app)) keeps theirs"
                    )
                }
            } catch {
                app.fail("Cannot read the note of \(app.quoted(title))", error)
            }
        }
        let text = Self.areas(layout).text
        area.scrollToCursor(width: text.width, height: text.height)
    }

    /// The capture line and the level as they are; the editor in the pane.
    func render(into frame: inout Frame, layout: Layout, in app: App) {
        _ = app.renderCapture(into: &frame.buffer, layout: layout, levelTitle: Sanitizer.visible(app.top.lastKnownTitle))
        if layout.details != nil { _ = app.renderLevel(into: &frame.buffer, area: layout.list) }
        let editor = Self.areas(layout)
        // Drawn from a copy: its scroll was settled for this layout already.
        frame.cursor = NoteEditorView(title: title, theme: app.theme).render(area, into: &frame.buffer, rule: editor.rule, text: editor.text)
    }

    var showsLevel: Bool { true }

    func hint(in app: App) -> String { app.hints([(.saveNote, "save"), (.discardNote, "cancel")], in: .note) }

    /// Where the editor goes: the detail pane, or the list's place when the pane no longer fits (the terminal
    /// was made shorter while editing); a rule naming the item on top, the text under it.
    static func areas(_ layout: Layout) -> (rule: Rect, text: Rect) {
        let (rule, text) = (layout.details ?? layout.list).splitTop(1)
        return (rule, text)
    }

    /// The key that runs `command` in the note editor, for messages ("no key" when it is bound to none).
    private func key(_ command: Command, _ app: App) -> String { app.keymap.label(for: command, in: .note) ?? "no key" }
}
