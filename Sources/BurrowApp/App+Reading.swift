import ObjectGraph
import Outline

extension App {
    /// The row of `id` as stored now; nil when it is gone. A read that fails is told on the status line (and
    /// logged) and reads as nil: a caller asking "is it still there" then leaves it alone, and the user knows
    /// why. Never while drawing (drawing changes nothing).
    func storedRow(_ id: ObjectID) -> ItemRow? {
        do {
            return try outline.row(id)
        } catch {
            fail("Cannot read an item", error)
            return nil
        }
    }

    /// The parent of `id` as stored now; nil when it is gone (or at the top), a failed read told as for `storedRow`.
    func storedParent(of id: ObjectID) -> ObjectID? {
        do {
            return try outline.parentID(of: id)
        } catch {
            fail("Cannot read an item", error)
            return nil
        }
    }

    /// Opens the item something was just moved into, so what moved stays in view; a failure is told (the move
    /// stands: only the fold did not open).
    func openAfterMove(_ item: ItemRow) {
        do {
            try outline.setExpanded([item.id], true)
        } catch {
            fail("Moved, but cannot open \(quoted(item.title))", error)
        }
    }
}
