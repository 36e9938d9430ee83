import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// Runs one user action as one unit of work: the edit, then one save (one transaction, one named undo
    /// step). On failure nothing is kept: the context rolls back and the status line says why.
    ///
    /// `edit` returns the item to select once the level has the change (and to select again on undo).
    @discardableResult
    func perform(_ name: String, _ edit: () throws -> ObjectID?) -> Bool {
        let level = top
        let history = outline.context.undoHistory
        defer { level.expectedID = nil }
        do {
            let selected = try edit()
            level.expectedID = selected
            let before = history.undoCount
            try outline.save(actionName: name)
            // The edit may not have touched this level's rows (the item already selected, a rename): select it.
            if let selected { level.select(id: selected) }
            if history.undoCount > before {
                undoPlaces.append(UndoPlace(parentID: level.parentID, itemID: selected))
                redoPlaces.removeAll()
            }
            logger.debug("did \(name)")
            return true
        } catch {
            // Nothing half-done stays. An edit refused before it changed anything (moving an item into itself)
            // leaves nothing to undo; otherwise the context rolls back, which also empties the undo stacks.
            if outline.context.hasChanges {
                outline.context.rollback()
                undoPlaces.removeAll()
                redoPlaces.removeAll()
            }
            fail("Cannot \(name.prefix(1).lowercased() + name.dropFirst())", error)
            return false
        }
    }

    var currentParent: Item { parentItem(of: top) }

    func addFromCapture(_ text: String) {
        let title = text.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return }
        let parent = currentParent
        if perform("Add \(quoted(title))", { try outline.append(title, to: parent).objectID }) {
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
                let parent = currentParent
                let name = titles.count == 1 ? "Add \(quoted(titles[0]))" : "Add \(titles.count) items"
                if perform(name, { try outline.append(titles: titles, to: parent).last?.objectID }) {
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
        let parent = currentParent
        let done = perform("Add \(quoted(title))") {
            switch placement {
            case .below(let id): return try outline.insert(title, after: item(id)).objectID
            case .above(let id): return try outline.insert(title, before: item(id)).objectID
            case .end: return try outline.append(title, to: parent).objectID
            }
        }
        if done { status = .info("Added \(quoted(title))") }
    }

    func rename(_ id: ObjectID, to text: String) {
        let item = item(id)
        let old = item.title
        guard text != old else { return }
        if perform("Rename \(quoted(old)) to \(quoted(text))", {
            item.title = text
            return id
        }) {
            status = .info("Renamed \(quoted(old)) to \(quoted(text))")
        }
    }

    func deleteSelected() {
        guard let item = top.selectedItem else { return }
        do {
            let what = try outline.deletionDescription(of: item)
            if perform("Delete \(what)", {
                try outline.delete(item)
                return item.objectID
            }) {
                status = .info("Deleted \(what) · \(keymap.label(for: .undo) ?? "u"): undo")
            }
        } catch {
            fail("Cannot delete \(quoted(item.title))", error)
        }
    }

    func toggleDone() {
        guard let item = top.selectedItem else { return }
        let done = !item.isDone
        let name = (done ? "Mark done " : "Mark not done ") + quoted(item.title)
        if perform(name, {
            item.isDone = done
            return item.objectID
        }) {
            status = .info((done ? "Done: " : "Not done: ") + quoted(item.title))
        }
    }

    /// Moves the selected item one place up or down among its siblings.
    func moveSelected(by delta: Int) {
        let level = top
        guard let row = level.list.selected, let item = level.selectedItem else { return }
        let target = row + delta
        guard target >= 0, target < level.count else {
            status = .info(delta < 0 ? "Already the first item" : "Already the last item")
            return
        }
        let neighbour = level.item(at: target)
        let name = "Move \(quoted(item.title)) \(delta < 0 ? "up" : "down")"
        perform(name) {
            if delta < 0 { try outline.move(item, before: neighbour) } else { try outline.move(item, after: neighbour) }
            return item.objectID
        }
    }

    /// Makes the selected item the last sub-item of the item above it.
    func indentSelected() {
        let level = top
        guard let row = level.list.selected, let item = level.selectedItem else { return }
        guard row > 0 else {
            status = .info("Nothing above \(quoted(item.title)) to indent it under")
            return
        }
        let newParent = level.item(at: row - 1)
        if perform("Indent \(quoted(item.title))", {
            try outline.move(item, to: newParent, at: newParent.childCount)
            return newParent.objectID
        }) {
            status = .info("Moved \(quoted(item.title)) into \(quoted(newParent.title))")
        }
    }

    /// Moves the selected item out of this level, right after the item whose sub-items these are.
    func outdentSelected() {
        guard let item = top.selectedItem else { return }
        guard stack.count > 1 else {
            status = .info("Already at the top level: nothing to outdent to")
            return
        }
        let parent = currentParent
        if perform("Outdent \(quoted(item.title))", {
            try outline.move(item, after: parent)
            return nil
        }) {
            status = .info("Moved \(quoted(item.title)) out, after \(quoted(parent.title))")
        }
    }

    /// Moves the cut item into this level, below the selection (or at the end of an empty level).
    func pasteCut() {
        guard let cut else {
            status = .info("Nothing cut: m on an item cuts it")
            return
        }
        let item = item(cut.id)
        guard !item.isInaccessible else {
            self.cut = nil
            status = .error("\(quoted(cut.title)) no longer exists")
            return
        }
        let parent = currentParent
        let below = top.selectedItem
        if below === item {
            status = .info("\(quoted(item.title)) is already here")
            return
        }
        if perform("Move \(quoted(item.title)) to \(quoted(parent.title))", {
            if let below { try outline.move(item, after: below) } else { try outline.move(item, to: parent, at: 0) }
            return item.objectID
        }) {
            self.cut = nil
            status = .info("Moved \(quoted(item.title)) to \(quoted(parent.title))")
        }
    }

    func item(_ id: ObjectID) -> Item {
        outline.context.object(for: id) as! Item
    }
}
