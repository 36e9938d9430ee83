import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// Runs one user action as one unit of work in one write transaction (see `Outline.perform`): commits
    /// made elsewhere arrive first, so the edit reads the outline as it is; then the edit, then one save
    /// (one named undo step). On failure nothing of the action is kept (the context rolls back that unit
    /// only; the undo history stays) and the status line says why.
    ///
    /// `edit` returns the item to select once the level has the change (and to select again on undo).
    @discardableResult
    func perform(_ name: String, _ edit: () throws -> ObjectID?) -> Bool {
        let level = top
        let history = outline.context.undoHistory
        defer { level.expectedID = nil }
        do {
            let before = history.undoCount
            var selected: ObjectID?
            try outline.perform(name) {
                selected = try edit()
                level.expectedID = selected
            }
            // The edit may not have touched this level's rows (the item already selected, a rename): select it.
            if let selected, !level.isGone { level.select(id: selected) }
            if history.undoCount > before {
                undoPlaces.append(UndoPlace(parentID: level.parentID, itemID: selected))
                redoPlaces.removeAll()
            }
            logger.debug("did \(name)")
            return true
        } catch {
            fail("Cannot \(name.prefix(1).lowercased() + name.dropFirst())", error)
            return false
        }
    }

    /// The item `id` as stored now (inside an action, after other processes' commits arrived), or an error
    /// that says it is gone.
    func existing(_ id: ObjectID, _ title: String) throws -> Item {
        guard let item = try outline.context.existingObject(for: id) as? Item else { throw Gone(title: title) }
        return item
    }

    /// An item an action needs was deleted elsewhere (by another process, or by undo in another level).
    struct Gone: Error, CustomStringConvertible {
        let title: String
        var description: String { "“\(title)” no longer exists (it was deleted elsewhere)" }
    }

    var currentParent: Item { parentItem(of: top) }

    func addFromCapture(_ text: String) {
        let title = text.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return }
        let (parentID, parentTitle) = (top.parentID, top.lastKnownTitle)
        if perform("Add \(quoted(title))", { try outline.append(title, to: existing(parentID, parentTitle)).objectID }) {
            status = .info("Added \(quoted(title))")
        }
    }

    /// Pasted text: several lines add one item each (one undo step); one line goes into the capture line.
    func paste(_ text: String) {
        switch mode {
        case .capture(var field), .rename(var field, _), .insert(var field, _):
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            if case .capture = mode, lines.count > 1 {
                let titles = ([field.text + lines[0]] + lines.dropFirst()).filter { !$0.isEmpty }
                let (parentID, parentTitle) = (top.parentID, top.lastKnownTitle)
                let name = titles.count == 1 ? "Add \(quoted(titles[0]))" : "Add \(titles.count) items"
                if perform(name, { try outline.append(titles: titles, to: existing(parentID, parentTitle)).last?.objectID }) {
                    status = .info(titles.count == 1 ? "Added \(quoted(titles[0]))" : "Added \(titles.count) items")
                }
                field.setText("")
            } else {
                field.insert(text)
            }
            switch mode {
            case .capture: mode = .capture(field)
            case .rename(_, let id): mode = .rename(field, item: id)
            case .insert(_, let placement): mode = .insert(field, placement)
            default: break
            }
        case .search(var field):
            field.insert(text)
            mode = .search(field)
        case .browse:
            mode = .capture(TextField())
            paste(text)
        case .help:
            break
        }
    }

    func insert(_ text: String, _ placement: Mode.Placement) {
        let title = text.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return }
        let (parentID, parentTitle) = (top.parentID, top.lastKnownTitle)
        var note = ""
        let done = perform("Add \(quoted(title))") {
            let parent = try existing(parentID, parentTitle)
            // The item it was to go beside may have gone meanwhile: the new one is not lost, it goes last.
            func beside(_ id: ObjectID) throws -> Item? {
                let item = try outline.context.existingObject(for: id) as? Item
                if item?.parent !== parent { note = " (at the end: the item beside it is gone)" }
                return item?.parent === parent ? item : nil
            }
            switch placement {
            case .below(let id):
                if let sibling = try beside(id) { return try outline.insert(title, after: sibling).objectID }
            case .above(let id):
                if let sibling = try beside(id) { return try outline.insert(title, before: sibling).objectID }
            case .end: break
            }
            return try outline.append(title, to: parent).objectID
        }
        if done { status = .info("Added \(quoted(title))" + note) }
    }

    func rename(_ id: ObjectID, to text: String) {
        let title = text.trimmingCharacters(in: .whitespaces)
        let old = item(id).title
        guard title != old else { return }
        if perform("Rename \(quoted(old)) to \(quoted(title))", {
            let item = try existing(id, old)
            item.title = title
            return id
        }) {
            status = .info("Renamed \(quoted(old)) to \(quoted(title))")
        }
    }

    func deleteSelected() {
        guard let id = top.selectedID, let title = top.selectedItem?.title else { return }
        var what = quoted(title)
        if perform("Delete \(what)", {
            let item = try existing(id, title)
            what = try outline.deletionDescription(of: item)
            outline.context.setActionName("Delete \(what)")
            try outline.delete(item)
            return id
        }) {
            status = .info("Deleted \(what) · \(keymap.label(for: .undo) ?? "u"): undo")
        }
    }

    func toggleDone() {
        guard let id = top.selectedID, let item = top.selectedItem else { return }
        let (title, done) = (item.title, !item.isDone)
        let name = (done ? "Mark done " : "Mark not done ") + quoted(title)
        if perform(name, {
            try existing(id, title).isDone = done
            return id
        }) {
            status = .info((done ? "Done: " : "Not done: ") + quoted(title))
        }
    }

    /// Moves the selected item one place up or down among its siblings; the selection stays on it, so J
    /// and K undo each other.
    func moveSelected(by delta: Int) {
        let level = top
        guard let row = level.list.selected, let id = level.selectedID, let item = level.selectedItem else { return }
        let target = row + delta
        guard target >= 0, target < level.count else {
            status = .info(delta < 0 ? "Already the first item" : "Already the last item")
            return
        }
        let neighbour = level.item(at: target)
        let (title, other, otherID) = (item.title, neighbour.title, neighbour.objectID)
        perform("Move \(quoted(title)) \(delta < 0 ? "up" : "down")") {
            let item = try existing(id, title), neighbour = try existing(otherID, other)
            if delta < 0 { try outline.move(item, before: neighbour) } else { try outline.move(item, after: neighbour) }
            return id
        }
    }

    /// Makes the selected item the last sub-item of the item above it, and follows it there: the level of
    /// the item above opens with it selected, so outdent (which comes back) is the inverse.
    func indentSelected() {
        let level = top
        guard let row = level.list.selected, let id = level.selectedID, let item = level.selectedItem else { return }
        guard row > 0 else {
            status = .info("Nothing above \(quoted(item.title)) to indent it under")
            return
        }
        let above = level.item(at: row - 1)
        let (title, aboveTitle, aboveID) = (item.title, above.title, above.objectID)
        if perform("Indent \(quoted(title))", {
            try outline.move(try existing(id, title), to: try existing(aboveID, aboveTitle), at: Int.max)
            return id
        }) {
            open(self.item(aboveID))
            top.select(id: id)
            status = .info("Moved \(quoted(title)) into \(quoted(aboveTitle))")
        }
    }

    /// Moves the selected item out of this level, right after the item whose sub-items these are, and
    /// follows it: back in the level above with it selected, so indent (which goes back in) is the inverse.
    func outdentSelected() {
        guard let id = top.selectedID, let item = top.selectedItem else { return }
        guard stack.count > 1 else {
            status = .info("Already at the top level: nothing to outdent to")
            return
        }
        let (title, parentID, parentTitle) = (item.title, top.parentID, top.lastKnownTitle)
        if perform("Outdent \(quoted(title))", {
            try outline.move(try existing(id, title), after: try existing(parentID, parentTitle))
            return nil
        }) {
            pop()
            top.select(id: id)
            status = .info("Moved \(quoted(title)) out, after \(quoted(parentTitle))")
        }
    }

    /// Moves the cut item into this level, below the selection (or at the end of an empty level). A cut item
    /// deleted meanwhile (here or elsewhere) is not pasted: the status line says so and nothing is recorded.
    func pasteCut() {
        guard let cut else {
            status = .info("Nothing cut: m on an item cuts it")
            return
        }
        let (parentID, parentTitle) = (top.parentID, top.lastKnownTitle)
        let belowID = top.selectedID
        if belowID == cut.id {
            status = .info("\(quoted(cut.title)) is already here")
            return
        }
        do {
            guard try outline.context.existingObject(for: cut.id) != nil else { throw Gone(title: cut.title) }
        } catch {
            self.cut = nil
            status = .error("Nothing to paste: \(error)")
            return
        }
        if perform("Move \(quoted(cut.title)) to \(quoted(parentTitle))", {
            let item = try existing(cut.id, cut.title), parent = try existing(parentID, parentTitle)
            if let belowID, let below = try outline.context.existingObject(for: belowID) as? Item, below.parent === parent {
                try outline.move(item, after: below)
            } else {
                try outline.move(item, to: parent, at: 0)
            }
            return cut.id
        }) {
            self.cut = nil
            status = .info("Moved \(quoted(cut.title)) to \(quoted(parentTitle))")
        } else if (try? outline.context.existingObject(for: cut.id)) == nil {
            self.cut = nil
        }
    }

    func item(_ id: ObjectID) -> Item {
        outline.context.object(for: id) as! Item
    }
}
