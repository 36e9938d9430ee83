import BurrowSettings
import Foundation
import ObjectGraph
import Outline

extension App {
    /// Undoes the newest action of the outline's shared history, whichever process made it: the level where
    /// it happened is shown with its item selected, and the status line says what it was, and who made it
    /// and when if that was not this outliner a moment ago.
    func undo() {
        step(undoing: true)
    }

    func redo() {
        step(undoing: false)
    }

    private func step(undoing: Bool) {
        let history = outline.undoHistory
        let verb = undoing ? "Undid" : "Redid"
        let level = top
        // Levels the step deleted are popped with a message that says the step did it.
        defer { settleStack(after: undoing ? .undo : .redo) }
        let upcoming: HistoryEntry?
        do {
            upcoming = try undoing ? history.nextUndo() : history.nextRedo()
        } catch {
            fail("Cannot \(undoing ? "undo" : "redo")", error)
            return
        }
        guard let upcoming else {
            status = .info(undoing ? "Nothing to undo" : "Nothing to redo")
            return
        }
        // What the step itself brings back is never "new above": each level keeps only what it counted before.
        let counted = stack.map { (ObjectIdentifier($0), $0.newAbove) }
        defer {
            for level in stack { level.newAbove = counted.first { $0.0 == ObjectIdentifier(level) }?.1 ?? NewAbove() }
        }
        // The level keeps the step's item selected through the change when it is the level on screen.
        if upcoming.place.container == level.parentID { level.expectedID = upcoming.place.focus }
        defer { level.expectedID = nil }
        do {
            let label = "\(undoing ? "Undoing" : "Redoing") \(upcoming.name)"
            guard let entry = try whileBusy(label, { try undoing ? outline.undoAction() : outline.redoAction() }) else {
                status = .info(undoing ? "Nothing to undo" : "Nothing to redo")
                return
            }
            var notes: [String] = []
            if !history.wasRecordedHere(entry) || Date().timeIntervalSince(entry.date) >= 60 {
                notes.append(entry.origin.isEmpty ? "another program" : entry.origin)
                notes.append(entry.age())
            }
            // Levels the step deleted go first, with a message that says the step did it.
            let depth = stack.count
            settleStack(after: undoing ? .undo : .redo)
            if let container = entry.place.container, container != top.parentID {
                go(to: entry.place)
                notes.append("in \(location(of: container))")
            } else if let focus = entry.place.focus {
                top.select(id: focus)
            }
            if stack.count < depth && entry.place.container == top.parentID { return }
            status = .info("\(verb): \(entry.name)" + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"))
            logger.info("\(verb.lowercased()) \(entry.name)")
        } catch let conflict as UndoConflict {
            // It would overwrite a later change made elsewhere: nothing changed, and the history dropped the
            // action for good, so the next key goes on with the one before it.
            logger.notice("\(undoing ? "undo" : "redo") skipped: \(conflict)")
            let next = undoing ? history.undoActionName : history.redoActionName
            status = .error("Skipped: \(conflict)" + (next == nil ? "" : " · \(keymap.label(for: undoing ? .undo : .redo) ?? "u"): the one before"))
        } catch {
            // Nothing changed (a busy or full disk): the action stays to be tried again.
            logger.notice("\(undoing ? "undo" : "redo") failed: \(error)")
            status = .error("\(error)")
        }
    }

    /// Shows where an action happened: the level of its container with its item selected, or, when the
    /// container is gone, the level holding the item.
    func go(to place: ActionPlace) {
        let root = stack[0].parentID
        if let container = place.container, container == root || storedRow(container) != nil {
            if container == root {
                while stack.count > 1 { stack.removeLast() }
                do { try top.resume() } catch { fail("Cannot refresh the level", error) }
            } else if container != top.parentID || top.isGone {
                reveal(container)
                guard top.selectedID == container, let row = storedRow(container) else { return }
                open(row)
            }
            if let focus = place.focus { top.select(id: focus) }
        } else if let focus = place.focus, storedRow(focus) != nil {
            reveal(focus)
        }
    }

    /// "Burrow › Groceries": the path of titles down to an item.
    func location(of id: ObjectID) -> String {
        let titles: [String]
        do {
            titles = try outline.titles(downTo: id)
        } catch {
            logger.error("cannot read the path of an action's place: \(error)")
            return "an item that cannot be read"
        }
        return titles.isEmpty ? "a deleted item" : titles.joined(separator: " › ")
    }
}
