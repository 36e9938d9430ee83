import ObjectGraph
import Outline

extension App {
    /// Undoes the last action wherever it happened; the status line names it, and where it was when that is
    /// not the level on screen.
    func undo() {
        step(undoing: true)
    }

    func redo() {
        step(undoing: false)
    }

    private func step(undoing: Bool) {
        let context = outline.context
        let verb = undoing ? "Undid" : "Redid"
        guard let place = undoing ? undoPlaces.last : redoPlaces.last,
            undoing ? context.undoHistory.canUndo : context.undoHistory.canRedo
        else {
            status = .info(undoing ? "Nothing to undo" : "Nothing to redo")
            return
        }
        let level = top
        let here = level.parentID == place.parentID
        // Levels the step deleted are popped with a message that says the step did it.
        defer { settleStack(after: undoing ? .undo : .redo) }
        if here { level.expectedID = place.itemID }
        defer { level.expectedID = nil }
        do {
            let name = (undoing ? try context.undo() : try context.redo()) ?? ""
            if undoing {
                undoPlaces.removeLast()
                redoPlaces.append(place)
            } else {
                redoPlaces.removeLast()
                undoPlaces.append(place)
            }
            if here, let id = place.itemID, !level.isGone { level.select(id: id) }
            var text = "\(verb): \(name)"
            if !here { text += " (in \(location(of: place.parentID)))" }
            status = .info(text)
            logger.info("\(verb.lowercased()) \(name)")
        } catch let conflict as UndoConflict {
            // It would overwrite a later change made elsewhere: nothing changed, and the context dropped the
            // step for good, so its place goes too and the next key goes on with the step before it.
            if undoing { undoPlaces.removeLast() } else { redoPlaces.removeLast() }
            logger.notice("\(undoing ? "undo" : "redo") skipped: \(conflict)")
            let next = undoing ? context.undoHistory.undoActionName : context.undoHistory.redoActionName
            status = .error("Skipped: \(conflict)" + (next == nil ? "" : " · \(keymap.label(for: undoing ? .undo : .redo) ?? "u"): the one before"))
        } catch {
            // Nothing changed (a busy or full disk): the step stays to be tried again.
            logger.notice("\(undoing ? "undo" : "redo") failed: \(error)")
            status = .error("\(error)")
        }
    }

    /// "Burrow › Groceries": the path of titles down to an item.
    func location(of id: ObjectID) -> String {
        let titles = (try? outline.titles(downTo: id)) ?? []
        return titles.isEmpty ? "a deleted item" : titles.joined(separator: " › ")
    }
}
