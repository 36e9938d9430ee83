import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// Copying and moving through a register (`y` copies, `m` cuts, `p` and `P` paste below and above the
/// selection): the register holds items by ID, so a paste acts on them as stored then (one undoable action),
/// and one deleted meanwhile is left out and named. `y` also leaves the items as text for the terminal's
/// clipboard (OSC 52), which the run loop hands over after the event.
final class Clipboard: Component {
    /// What `y` copied or `m` cut, waiting for `p` or `P`.
    var register: Register? {
        didSet { pastedCopy = false }
    }
    /// True once the copy in the register was pasted: it can be pasted again, but the status line stops
    /// offering it.
    private(set) var pastedCopy = false

    /// True while the status line should offer `p`: a cut waiting to move, or a copy not pasted yet.
    var offersPaste: Bool { register != nil && !pastedCopy }
    /// Text `y` copied, waiting for the run loop to hand it to the terminal.
    private var text: String?

    let commands: Set<Command> = [.copy, .cut, .paste, .pasteAbove]

    func run(_ command: Command, in app: App) {
        switch command {
        case .copy: copy(in: app)
        case .cut: cut(in: app)
        case .paste: paste(below: true, in: app)
        case .pasteAbove: paste(below: false, in: app)
        default: break
        }
    }

    func settle(in app: App) {}

    /// The text waiting for the terminal's clipboard, once.
    func takeText() -> String? {
        defer { text = nil }
        return text
    }

    /// `m`: remembers the selection for `p`/`P`, which move it.
    private func cut(in app: App) {
        do {
            let items = try app.outermostSelection()
            guard !items.isEmpty else {
                app.status = .info("Nothing to cut here")
                return
            }
            register = Register(kind: .cut, items: items)
            let paste = app.keymap.label(for: .paste) ?? "p"
            app.status = .info("Cut \(app.describe(items)): open another level and press \(paste) to move \(items.count == 1 ? "it" : "them") there")
        } catch {
            app.fail("Cannot cut", error)
        }
    }

    /// `y`: remembers the selection (with its sub-items) for `p`/`P`, which paste copies of it, and puts it on
    /// the system clipboard as indented text when allowed and small enough.
    private func copy(in app: App) {
        do {
            let items = try app.outermostSelection()
            guard !items.isEmpty else {
                app.status = .info("Nothing to copy here")
                return
            }
            let ids = items.map(\.id)
            let below = try app.outline.countBelow(ids)
            register = Register(kind: .copy, items: items)
            var note = ""
            if app.allowsClipboard {
                let made = items.count + below > App.clipboardItemLimit ? nil : ClipboardText.make(try app.outline.rowsWithSubtrees(of: ids))
                if let made, made.utf8.count <= App.clipboardByteLimit {
                    text = made
                } else {
                    note = " (too large for the system clipboard)"
                }
            }
            let paste = [app.keymap.label(for: .paste), app.keymap.label(for: .pasteAbove)].compactMap { $0 }.joined(separator: "/")
            app.status = .info("Copied \(app.describe(items, subItems: below))\(note) · \(paste): paste")
        } catch {
            app.fail("Cannot copy", error)
        }
    }

    /// `p` (below) and `P` (above) the selected item, among its own siblings; at the end of the level when
    /// nothing is selected or the selected item went meanwhile.
    private func paste(below: Bool, in app: App) {
        guard let register else {
            app.status = .info("Nothing to paste: \(app.keymap.label(for: .copy) ?? "y") copies, \(app.keymap.label(for: .cut) ?? "m") cuts")
            return
        }
        // Before a unit of work: when everything in the register went, nothing is recorded.
        let present = register.items.filter { app.storedRow($0.id) != nil }
        guard let first = present.first else {
            self.register = nil
            app.status = .error("Nothing to paste: \(ItemGone(id: register.items[0].id, title: register.items[0].title))")
            return
        }
        switch register.kind {
        case .copy:
            pasteCopy(register.items, below: below, in: app)
            pastedCopy = true
        case .cut:
            if register.items.count == 1, app.top.selectedID == first.id {
                app.status = .info("\(app.quoted(first.title)) is already here")
                return
            }
            pasteCut(register.items, below: below, in: app)
        }
    }

    /// Where a paste beside the selected item goes, read inside the unit of work: the item's parent, or this
    /// level when nothing is selected or the selected item is gone.
    private func placement(below: Bool, in app: App) throws -> (ItemPlacement, parent: App.Named) {
        if let anchor = app.top.selectedID, let parent = try app.outline.parentID(of: anchor) {
            let title = parent == app.here.id ? app.here.title : (try app.outline.row(parent))?.title ?? ""
            return (below ? .after(anchor) : .before(anchor), (parent, title))
        }
        return (.last(under: app.here.id), app.here)
    }

    private func pasteCopy(_ items: [App.Named], below: Bool, in app: App) {
        var result = TransferResult()
        var moved: [App.Named] = []
        let name = "Paste a copy of \(app.describe(items))"
        let done = app.perform(name, naming: items + [app.here]) {
            let (placement, _) = try placement(below: below, in: app)
            result = try app.outline.copy(items.map(\.id), to: placement)
            moved = items.filter { result.sources.contains($0.id) }
            guard !result.items.isEmpty else { throw ItemGone(id: items[0].id, title: items[0].title) }
            app.outline.setActionName("Paste a copy of \(app.describe(moved, subItems: result.subItems))")
            return result.items.first
        }
        if done {
            let undo = app.keymap.label(for: .undo) ?? "u"
            app.status = .info(
                "Pasted a copy of \(app.describe(moved, subItems: result.subItems))\(app.missingNote(result.missing, of: items)) · \(undo): undo")
        }
    }

    private func pasteCut(_ items: [App.Named], below: Bool, in app: App) {
        var result = TransferResult()
        var moved: [App.Named] = []
        var parent = app.here
        let done = app.perform("Move \(app.describe(items)) to \(app.quoted(app.here.title))", naming: items + [app.here]) {
            let (placement, destination) = try placement(below: below, in: app)
            parent = destination
            result = try app.outline.move(items.map(\.id), to: placement)
            moved = items.filter { result.sources.contains($0.id) }
            guard !result.items.isEmpty else { throw ItemGone(id: items[0].id, title: items[0].title) }
            app.outline.setActionName("Move \(app.describe(moved)) to \(app.quoted(parent.title))")
            return result.items.first
        }
        if done {
            register = nil
            app.status = .info("Moved \(app.describe(moved)) to \(app.quoted(parent.title))\(app.missingNote(result.missing, of: items))")
        } else if items.allSatisfy({ app.storedRow($0.id) == nil }) {
            register = nil
        }
    }
}
