import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// `y` copies, `m` cuts, `p` and `P` paste below and above the selection: the register holds items by ID, so
/// a paste acts on them as stored then (one undoable action), and one deleted meanwhile is left out and named.
extension App {
    /// The most text `y` sends to the system clipboard: terminals take about this much (xterm's default limit
    /// is near it, and every byte is sent through the terminal and any ssh connection on the way).
    static let clipboardByteLimit = 100_000
    /// More items than this are not even read for the clipboard: their text would be larger than the limit
    /// at any length of title worth reading.
    static let clipboardItemLimit = 20_000

    /// The selection without items inside another selected item's subtree (they go with it), with the titles
    /// the user saw.
    func outermostSelection() throws -> [Named] {
        let rows = selectedItems
        var titles: [ObjectID: String] = [:]
        for row in rows { titles[row.id] = row.title }
        return try outline.outermost(rows.map(\.id)).map { ($0, titles[$0] ?? "") }
    }

    /// “A”, “A” and 3 sub-items, “A” and 2 other items, “A” and 2 other items with 5 sub-items.
    func describe(_ items: [Named], subItems: Int = 0) -> String {
        guard let first = items.first else { return "nothing" }
        var out = quoted(first.title)
        if items.count > 1 { out += " and \(items.count - 1) other item\(items.count == 2 ? "" : "s")" }
        if subItems > 0 { out += (items.count > 1 ? " with " : " and ") + "\(subItems) sub-item\(subItems == 1 ? "" : "s")" }
        return out
    }

    /// `m`: remembers the selection for `p`/`P`, which move it.
    func cutSelected() {
        do {
            let items = try outermostSelection()
            guard !items.isEmpty else {
                status = .info("Nothing to cut here")
                return
            }
            register = Register(kind: .cut, items: items)
            let paste = keymap.label(for: .paste) ?? "p"
            status = .info("Cut \(describe(items)): open another level and press \(paste) to move \(items.count == 1 ? "it" : "them") there")
        } catch {
            fail("Cannot cut", error)
        }
    }

    /// `y`: remembers the selection (with its sub-items) for `p`/`P`, which paste copies of it, and puts it on
    /// the system clipboard as indented text when allowed and small enough.
    func copySelected() {
        do {
            let items = try outermostSelection()
            guard !items.isEmpty else {
                status = .info("Nothing to copy here")
                return
            }
            let ids = items.map(\.id)
            let below = try outline.countBelow(ids)
            register = Register(kind: .copy, items: items)
            var note = ""
            if allowsClipboard {
                let text = items.count + below > Self.clipboardItemLimit ? nil : ClipboardText.make(try outline.rowsWithSubtrees(of: ids))
                if let text, text.utf8.count <= Self.clipboardByteLimit {
                    pendingClipboard = text
                } else {
                    note = " (too large for the system clipboard)"
                }
            }
            let paste = [keymap.label(for: .paste), keymap.label(for: .pasteAbove)].compactMap { $0 }.joined(separator: "/")
            status = .info("Copied \(describe(items, subItems: below))\(note) · \(paste): paste")
        } catch {
            fail("Cannot copy", error)
        }
    }

    /// Hands text `y` copied to the terminal's clipboard (the run loop calls it after each event).
    public func deliverClipboard(to writer: any ClipboardWriter) {
        guard let text = pendingClipboard else { return }
        pendingClipboard = nil
        writer.copyToClipboard(text)
    }

    /// `p` (below) and `P` (above) the selected item, among its own siblings; at the end of the level when
    /// nothing is selected or the selected item went meanwhile.
    func paste(below: Bool) {
        guard let register else {
            status = .info("Nothing to paste: \(keymap.label(for: .copy) ?? "y") copies, \(keymap.label(for: .cut) ?? "m") cuts")
            return
        }
        // Before a unit of work: when everything in the register went, nothing is recorded.
        let present = register.items.filter { storedRow($0.id) != nil }
        guard let first = present.first else {
            self.register = nil
            status = .error("Nothing to paste: \(ItemGone(id: register.items[0].id, title: register.items[0].title))")
            return
        }
        switch register.kind {
        case .copy: pasteCopy(register.items, below: below)
        case .cut:
            if register.items.count == 1, top.selectedID == first.id {
                status = .info("\(quoted(first.title)) is already here")
                return
            }
            pasteCut(register.items, below: below)
        }
    }

    /// Where a paste beside the selected item goes, read inside the unit of work: the item's parent, or this
    /// level when nothing is selected or the selected item is gone.
    private func pastePlacement(below: Bool) throws -> (ItemPlacement, parent: Named) {
        if let anchor = top.selectedID, let parent = try outline.parentID(of: anchor) {
            let title = parent == here.id ? here.title : (try outline.row(parent))?.title ?? ""
            return (below ? .after(anchor) : .before(anchor), (parent, title))
        }
        return (.last(under: here.id), here)
    }

    /// The items asked for that went meanwhile, for the end of a message.
    func missingNote(_ missing: [ObjectID], of items: [Named]) -> String {
        guard !missing.isEmpty else { return "" }
        let gone = items.filter { missing.contains($0.id) }
        return " (\(describe(gone)) \(gone.count == 1 ? "was" : "were") deleted meanwhile)"
    }

    private func pasteCopy(_ items: [Named], below: Bool) {
        var result = TransferResult()
        var moved: [Named] = []
        let name = "Paste a copy of \(describe(items))"
        let done = perform(name, naming: items + [here]) {
            let (placement, _) = try pastePlacement(below: below)
            result = try outline.copy(items.map(\.id), to: placement)
            moved = items.filter { result.sources.contains($0.id) }
            guard !result.items.isEmpty else { throw ItemGone(id: items[0].id, title: items[0].title) }
            outline.setActionName("Paste a copy of \(describe(moved, subItems: result.subItems))")
            return result.items.first
        }
        if done {
            let undo = keymap.label(for: .undo) ?? "u"
            status = .info("Pasted a copy of \(describe(moved, subItems: result.subItems))\(missingNote(result.missing, of: items)) · \(undo): undo")
        }
    }

    private func pasteCut(_ items: [Named], below: Bool) {
        var result = TransferResult()
        var moved: [Named] = []
        var parent = here
        let done = perform("Move \(describe(items)) to \(quoted(here.title))", naming: items + [here]) {
            let (placement, destination) = try pastePlacement(below: below)
            parent = destination
            result = try outline.move(items.map(\.id), to: placement)
            moved = items.filter { result.sources.contains($0.id) }
            guard !result.items.isEmpty else { throw ItemGone(id: items[0].id, title: items[0].title) }
            outline.setActionName("Move \(describe(moved)) to \(quoted(parent.title))")
            return result.items.first
        }
        if done {
            register = nil
            status = .info("Moved \(describe(moved)) to \(quoted(parent.title))\(missingNote(result.missing, of: items))")
        } else if items.allSatisfy({ storedRow($0.id) == nil }) {
            register = nil
        }
    }
}
