import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// A title the user saw for an item an action names: a failure says it rather than the ID.
    typealias Named = (id: ObjectID, title: String)

    /// Runs one user action as one unit of work in one write transaction (see `Outline.perform`): commits
    /// made elsewhere arrive first, so the edit reads the outline as it is; then the edit, then one save
    /// (one named undo step). On failure nothing of the action is kept (the context rolls back that unit
    /// only; the undo history stays) and the status line says why, naming a gone item by its title in
    /// `named`.
    ///
    /// `edit` returns the item to select once the level has the change (and to select again on undo).
    @discardableResult
    func perform(_ name: String, naming named: [Named], _ edit: () throws -> ObjectID?) -> Bool {
        let level = top
        defer { level.expectedID = nil }
        // In a view, the place an undo goes back to is the acted-on item's own level (read before the edit,
        // which may delete it), not the view's.
        let viewPlace = level.view == nil ? nil : level.selectedID.flatMap { id in (try? outline.parentID(of: id)) ?? nil }
        do {
            var selected: ObjectID?
            try whileBusy(name) {
                try outline.perform(name) {
                    selected = try edit()
                    level.expectedID = selected
                    // Recorded with the action, so undoing it from any process comes back here.
                    outline.setActionPlace(ActionPlace(container: viewPlace ?? level.parentID, focus: viewPlace == nil ? selected : level.selectedID))
                }
            }
            // The edit may not have touched this level's rows (the item already selected, a rename): select it.
            if let selected, !level.isGone { level.select(id: selected) }
            logger.debug("did \(name)")
            return true
        } catch var gone as ItemGone {
            gone.title = named.first { $0.id == gone.id }?.title ?? gone.title
            fail("Cannot \(name.prefix(1).lowercased() + name.dropFirst())", gone)
            return false
        } catch {
            fail("Cannot \(name.prefix(1).lowercased() + name.dropFirst())", error)
            return false
        }
    }

    /// The level on screen's item, as the user last saw it.
    var here: Named { (top.parentID, top.lastKnownTitle) }

    func addFromCapture(_ text: String) {
        let typed = text.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else { return }
        let parent = here
        let today = today()
        // In a view, what makes the item show there (its tag, today for the agenda) is added to the line.
        let line = top.view?.captureLine(typed, today: today, workflow: workflowForCapture) ?? typed
        // The line's tokens (TODO, !A, due:fri) become the task's; the rest is its title.
        let captured = CaptureLine(line, today: today, workflow: workflowForCapture)
        let title = captured.title.isEmpty ? line : captured.title
        if perform("Add \(quoted(title))", naming: [parent], { try outline.append(captured: line, to: parent.id, today: captured.today) }) {
            status = .info("Added \(quoted(title))" + (captured.summary.map { " · " + $0 } ?? ""))
        }
    }

    /// The workflow of the level on screen, for reading a capture line (the standard one when it cannot be read).
    var workflowForCapture: Workflow { (try? outline.workflow(at: top.parentID)) ?? .standard }

    /// Pasted text: several lines into the capture line add one item each (one undo step); otherwise it goes
    /// into the open editor (opening the capture line first when browsing).
    func paste(_ text: String) {
        switch mode {
        case .panel(let panel):
            panel.paste(text, in: self)
        case .visual:
            // Nothing to paste into: the range stays as it is.
            break
        case .browse:
            mode = .capture(TextField())
            paste(text)
        case .capture(let field):
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            guard lines.count > 1 else {
                mode.field?.insert(text)
                return
            }
            if let nodes = App.structure(of: text, prefix: field.text) {
                addStructure(nodes)
                mode.field?.setText("")
                return
            }
            let titles = ([field.text + lines[0]] + lines.dropFirst()).filter { !$0.isEmpty }
            let parent = here
            let name = titles.count == 1 ? "Add \(quoted(titles[0]))" : "Add \(titles.count) items"
            if perform(name, naming: [parent], { try outline.append(titles: titles, to: parent.id).last }) {
                status = .info(titles.count == 1 ? "Added \(quoted(titles[0]))" : "Added \(titles.count) items")
            }
            mode.field?.setText("")
        case .rename, .insert:
            mode.field?.insert(text)
        }
    }

    /// Pasted lines as an outline, when they have one: some line indented, or every line a list item
    /// (read as the Markdown importer reads them, `[ ]`/`[x]` included); else nil, and each line is an
    /// item. Text whose indentation does not make an outline is nil too: nothing pasted is lost for it.
    /// `prefix` (what was typed before the paste) starts the first title.
    static func structure(of text: String, prefix: String) -> [OutlineNode]? {
        let lines = text.split(whereSeparator: \.isNewline).filter { !$0.allSatisfy(\.isWhitespace) }
        let indented = lines.contains { $0.first == " " || $0.first == "\t" }
        let listed = lines.allSatisfy { line in
            let s = line.drop { $0 == " " || $0 == "\t" }
            return ["- ", "* ", "+ "].contains { s.hasPrefix($0) } || s.prefix { $0.isNumber }.count > 0 && s.drop { $0.isNumber }.hasPrefix(". ")
        }
        guard indented || listed else { return nil }
        // Text that does not read as an outline is no outline: each line becomes an item (nothing is lost).
        guard var nodes = try? (listed ? MarkdownOutline.read(text) : IndentedText.read(text)), !nodes.isEmpty else { return nil }
        if !prefix.isEmpty { nodes[0].title = prefix + nodes[0].title }
        return nodes
    }

    /// Adds pasted `nodes` with their structure at the end of the level, as one action.
    func addStructure(_ nodes: [OutlineNode]) {
        var total = 0
        var pending = [nodes]
        while let level = pending.popLast() {
            total += level.count
            for node in level where !node.children.isEmpty { pending.append(node.children) }
        }
        let parent = here
        let name = total == 1 ? "Add \(quoted(nodes[0].title))" : "Add \(total) items"
        if perform(name, naming: [parent], { try outline.add(nodes, under: parent.id).last }) {
            let here = nodes.count == total ? "" : " (\(nodes.count) here, the rest below them)"
            status = .info(total == 1 ? "Added \(quoted(nodes[0].title))" : "Added \(total) items\(here)")
        }
    }

    func insert(_ text: String, _ placement: Mode.Placement) {
        let title = text.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return }
        let parent = here
        var note = ""
        let done = perform("Add \(quoted(title))", naming: [parent]) {
            // The item it was to go beside may have gone meanwhile: the new one is not lost, it goes last.
            func beside(_ id: ObjectID) throws -> Bool {
                // Beside an item of the level, or of a list open in it.
                let isHere = try outline.parentID(of: id).map { $0 == parent.id || top.node(of: $0) != nil } ?? false
                if !isHere { note = " (at the end: the item beside it is gone)" }
                return isHere
            }
            switch placement {
            case .below(let id): if try beside(id) { return try outline.insert(title, after: id) }
            case .firstChild(let id): if try beside(id) { return try outline.insert(title, into: id, at: 0) }
            case .above(let id): if try beside(id) { return try outline.insert(title, before: id) }
            case .end: break
            }
            return try outline.append(title, to: parent.id)
        }
        if done { status = .info("Added \(quoted(title))" + note) }
    }

    func rename(_ id: ObjectID, to text: String) {
        let title = text.trimmingCharacters(in: .whitespaces)
        let old = storedRow(id)?.title ?? ""
        guard title != old else { return }
        if perform(
            "Rename \(quoted(old)) to \(quoted(title))", naming: [(id, old)],
            {
                try outline.rename(id, to: title)
                return id
            })
        {
            status = .info("Renamed \(quoted(old)) to \(quoted(title))")
        }
    }

    func deleteSelected() {
        guard let row = top.selectedRow else { return }
        var what = quoted(row.title)
        if perform(
            "Delete \(what)", naming: [(row.id, row.title)],
            {
                // Named by what the store holds now: another process may have added sub-items.
                what = try outline.deleteNamingAction(row.id)
                return row.id
            })
        {
            status = .info("Deleted \(what) · \(keymap.label(for: .undo) ?? "u"): undo")
        }
    }

    /// Copies the selected item with its sub-items right below it, and selects the copy.
    func duplicateSelected() {
        guard let row = top.selectedRow else { return }
        var subItems = 0
        if perform(
            "Duplicate \(quoted(row.title))", naming: [(row.id, row.title)],
            {
                let (copy, count) = try outline.duplicate(row.id)
                subItems = count
                if count > 0 { outline.setActionName("Duplicate \(quoted(row.title)) and \(count) sub-item\(count == 1 ? "" : "s")") }
                return copy
            })
        {
            let what = quoted(row.title) + (subItems > 0 ? " and \(subItems) sub-item\(subItems == 1 ? "" : "s")" : "")
            status = .info("Duplicated \(what) · \(keymap.label(for: .undo) ?? "u"): undo")
        }
    }

    func toggleDone() {
        guard let row = top.selectedRow else { return }
        let done = !row.isDone
        let name = (done ? "Mark done " : "Mark not done ") + quoted(row.title)
        if perform(
            name, naming: [(row.id, row.title)],
            {
                try outline.setDone(row.id, to: done)
                return row.id
            })
        {
            status = .info((done ? "Done: " : "Not done: ") + quoted(row.title))
        }
    }

    /// Moves the selected item's state on through the outline's workflow, and says what it is now.
    func cycleStateOfSelected() {
        guard let row = top.selectedRow else { return }
        var next: String?
        if perform(
            "Change the state of " + quoted(row.title), naming: [(row.id, row.title)],
            {
                next = try outline.cycleState(row.id)
                outline.setActionName((next.map { "Mark \($0) " } ?? "Clear the state of ") + quoted(row.title))
                return row.id
            })
        {
            status = .info((next.map { "\($0): " } ?? "No state: ") + quoted(row.title))
        }
    }

    /// Moves the selected item's priority on (none, A, B, C), and says what it is now.
    func cyclePriorityOfSelected() {
        guard let row = top.selectedRow else { return }
        var next: String?
        if perform(
            "Change the priority of " + quoted(row.title), naming: [(row.id, row.title)],
            {
                next = try outline.cyclePriority(row.id)
                outline.setActionName((next.map { "Give priority \($0) to " } ?? "Clear the priority of ") + quoted(row.title))
                return row.id
            })
        {
            status = .info((next.map { "Priority \($0): " } ?? "No priority: ") + quoted(row.title))
        }
    }

    /// Moves the selected item one place up or down among its siblings; the selection stays on it, so J
    /// and K undo each other.
    func moveSelected(by delta: Int) {
        let level = top
        // Among its siblings: the list it is in, the level's own or one open in it.
        guard let (node, index) = level.selectedPlace, let list = node.controller, let row = level.selectedRow else { return }
        let target = index + delta
        guard target >= 0, target < node.ownCount else {
            status = .info(delta < 0 ? "Already the first item" : "Already the last item")
            return
        }
        let neighbour = list.itemRow(at: target)
        perform("Move \(quoted(row.title)) \(delta < 0 ? "up" : "down")", naming: [(row.id, row.title), (neighbour.id, neighbour.title)]) {
            if delta < 0 { try outline.move(row.id, before: neighbour.id) } else { try outline.move(row.id, after: neighbour.id) }
            return row.id
        }
    }

    /// Makes the selected item the last sub-item of the item above it, and follows it there: the level of
    /// the item above opens with it selected, so outdent (which comes back) is the inverse.
    func indentSelected() {
        let level = top
        guard let (node, index) = level.selectedPlace, let list = node.controller, let row = level.selectedRow else { return }
        guard index > 0 else {
            status = .info("Nothing above \(quoted(row.title)) to indent it under")
            return
        }
        let above = list.itemRow(at: index - 1)
        if perform(
            "Indent \(quoted(row.title))", naming: [(row.id, row.title), (above.id, above.title)],
            {
                try outline.move(row.id, to: above.id, at: Int.max)
                return row.id
            })
        {
            // The view stays where it is: the item above is opened in place, so what moved stays in sight.
            openAfterMove(above)
            settle()
            top.select(id: row.id)
            status = .info("Moved \(quoted(row.title)) into \(quoted(above.title))")
        }
    }

    /// Moves the selected item out of its list, right after the item whose sub-items these are. The view stays
    /// where it is: out of an open item it stays in sight; out of the level shown it leaves this level for the
    /// one above (the status line says where, and undo brings it back), as Workflowy keeps a zoomed view.
    func outdentSelected() {
        guard let row = top.selectedRow else { return }
        if let (node, _) = top.selectedPlace, node !== top.root {
            // Inside an open item: out after it, still in view.
            let owner: Named = (node.itemID, storedRow(node.itemID)?.title ?? "")
            if perform(
                "Outdent \(quoted(row.title))", naming: [(row.id, row.title), owner],
                {
                    try outline.move(row.id, after: owner.id)
                    return row.id
                })
            {
                status = .info("Moved \(quoted(row.title)) out, after \(quoted(owner.title))")
            }
            return
        }
        guard stack.count > 1 else {
            status = .info("Already at the top level: nothing to outdent to")
            return
        }
        let parent = here
        let above = stack[stack.count - 2].lastKnownTitle
        if perform(
            "Outdent \(quoted(row.title))", naming: [(row.id, row.title), parent],
            {
                try outline.move(row.id, after: parent.id)
                return nil
            })
        {
            let back = keymap.label(for: .back) ?? "h"
            status = .info("Moved \(quoted(row.title)) out to \(quoted(above)), after \(quoted(parent.title)) · \(back): go there")
        }
    }
}

extension App {
    /// Esc in quick capture, rename or insert (and quitting from one): what was typed is kept as Enter keeps
    /// it, and the editor closes. Nothing typed, or a title left as it was, just closes.
    func finishEditing() {
        guard let text = mode.field?.text else { return }
        let typed = !text.trimmingCharacters(in: .whitespaces).isEmpty
        switch mode {
        case .capture:
            mode = .browse
            if typed { addFromCapture(text) }
        case .rename(_, let id):
            mode = .browse
            if typed {
                rename(id, to: text)
            } else if let old = storedRow(id)?.title {
                status = .info("A title cannot be empty: kept \(quoted(old))")
            }
        case .insert(_, let placement):
            mode = .browse
            if typed { insert(text, placement) }
        case .browse, .panel, .visual:
            break
        }
    }

    /// Ctrl-G in quick capture, rename or insert: the editor closes without what was typed, and the status
    /// line names what was dropped, so typing is never lost without a word.
    func dropEditing() {
        guard let text = mode.field?.text else { return }
        let title = text.trimmingCharacters(in: .whitespaces)
        let previous = mode
        mode = .browse
        switch previous {
        case .capture, .insert:
            if !title.isEmpty { status = .info("Not added: \(quoted(title))") }
        case .rename(_, let id):
            if let old = storedRow(id)?.title, title != old { status = .info("Not renamed: kept \(quoted(old))") }
        case .browse, .panel, .visual:
            break
        }
    }
}
