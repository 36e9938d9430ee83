import BurrowSettings
import Foundation
import ObjectGraph
import Outline
import TerminalKit

/// `E`: the selected item's note edited in the user's editor (`$VISUAL`, `$EDITOR`, `vi` or `nano`), which
/// needs the terminal: the command only asks, and the run loop lends the terminal after the event
/// (``App/wantsTerminal``, ``App/editPendingNote(on:)``).
final class ExternalEditor: Component {
    /// The note asked for, waiting for the terminal.
    private(set) var pending: ItemRow?

    let commands: Set<Command> = [.editNote]

    var isWaiting: Bool { pending != nil }

    func run(_ command: Command, in app: App) {
        guard let row = app.top.selectedRow else {
            app.status = .info("No item to edit the note of")
            return
        }
        pending = row
    }

    func settle(in app: App) {}

    /// Edits the note `E` asked for in the user's editor, lending it `terminal`, and saves it as one undoable
    /// action if it changed. The note is read as stored when the editor starts, and saved only if nobody
    /// changed it meanwhile (another process, say): otherwise the edited text is kept as a new item's note
    /// beside it, never lost. An editor that is missing or fails changes nothing and says why.
    func edit(on terminal: any TerminalHandover, in app: App) {
        guard let row = pending else { return }
        pending = nil
        let before: String
        do {
            guard let details = try app.outline.details(of: row.id) else {
                app.status = .error("\(app.quoted(row.title)) no longer exists (it was deleted elsewhere)")
                return
            }
            before = details.note ?? ""
        } catch {
            app.fail("Cannot read the note of \(app.quoted(row.title))", error)
            return
        }
        let editor = NoteEditor(environment: app.environment)
        guard editor.command != nil else {
            app.status = .error(
                "Note of \(app.quoted(row.title)) unchanged: no editor to run: set $VISUAL or $EDITOR (neither vi nor nano was found)")
            return
        }
        let edited: String
        do {
            edited = try terminal.handOver { try editor.edit(before) }
        } catch {
            app.status = .error("Note of \(app.quoted(row.title)) unchanged: \(error)")
            return
        }
        app.saveNote(of: (row.id, row.title), from: before, to: edited, keepingUnder: app.here.id)
    }
}
