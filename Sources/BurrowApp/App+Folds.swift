import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

extension App {
    /// `zo` `zc` `za` `zR` `zM`: folds are stored on the items (view state: no undo step), and the level shows
    /// them as the write's batches arrive, as it shows a fold another process opened.
    func fold(_ command: Command) {
        let level = top
        switch command {
        case .openAllFolds:
            setFolds("open everything", open: true) { try outline.itemsWithChildren(below: level.parentID) }
        case .closeAllFolds:
            // The selection goes to the item of the level it is in, as its row is going away.
            let keep = level.selectedDepth > 0 ? outermost(of: level.selectedID) : nil
            if setFolds("close everything", open: false, { try outline.expandedItems(below: level.parentID) }), let keep {
                settle()
                top.select(id: keep)
            }
        case .openFold, .closeFold, .toggleFold:
            guard let row = level.selectedRow else {
                status = .info("No item here to open or close")
                return
            }
            let open = command == .openFold || (command == .toggleFold && !row.isExpanded)
            if open {
                guard row.childCount > 0 else {
                    status = .info("\(quoted(row.title)) has no sub-items to show")
                    return
                }
                setFolds("open \(quoted(row.title))", open: true) { [row.id] }
            } else if row.isExpanded {
                setFolds("close \(quoted(row.title))", open: false) { [row.id] }
            } else if level.selectedDepth > 0, let parent = storedParent(of: row.id) {
                // On a sub-item: close the list it is in, and select the item it belongs to.
                if setFolds("close the list", open: false, { [parent] }) {
                    settle()
                    top.select(id: parent)
                }
            } else {
                status = .info("\(quoted(row.title)) is not open")
            }
        default:
            break
        }
    }

    /// Writes the fold state of the items `ids` reads; false (and a message) on failure.
    @discardableResult
    private func setFolds(_ what: String, open: Bool, _ ids: () throws -> [ObjectID]) -> Bool {
        do {
            let ids = try ids()
            let changed = try outline.setExpanded(ids, open)
            if ids.count > 1 || changed == 0 && ids.count != 1 {
                status = .info(
                    changed == 0 ? "Nothing to \(open ? "open" : "close")" : "\(open ? "Opened" : "Closed") \(changed) item\(changed == 1 ? "" : "s")"
                )
            }
            return true
        } catch {
            fail("Cannot \(what)", error)
            return false
        }
    }

    /// The item of the level's own rows that `id` is below (or is).
    private func outermost(of id: ObjectID?) -> ObjectID? {
        guard let id else { return nil }
        var current = id
        while let parent = storedParent(of: current), parent != top.parentID {
            current = parent
        }
        return current
    }

    // MARK: Hiding done items

    /// Rebuilds every level of the stack with done items hidden or shown as the done filter says, each keeping
    /// its selected item (or its row, when that item is now hidden) and its scroll.
    func rebuildLevels() {
        var rebuilt: [Level] = []
        for (i, old) in stack.enumerated() {
            let parent: ItemRow
            do {
                parent = try outline.row(old.parentID) ?? ItemRow(id: old.parentID, title: old.lastKnownTitle, isDone: false, childCount: 0)
                let level = try Level(parent: parent, outline: outline, hidesDone: hidesDone)
                level.lastKnownTitle = old.lastKnownTitle
                // The open lists of a level just made are read as it settles: the way to the selected item now.
                if let id = old.selectedID, let row = level.flatIndex(of: id) ?? level.reveal(id) {
                    level.select(row)
                } else {
                    level.select(old.list.selected ?? 0)
                }
                level.list.offset = old.list.offset
                if i < stack.count - 1 { level.pause() }
                rebuilt.append(level)
            } catch {
                fail("Cannot read the level again", error)
                return
            }
        }
        stack = rebuilt
    }
}
