import ObjectGraph
import Outline
import TerminalKit

/// One list level on the navigation stack: the sub-items of one item, kept up to date by a results
/// controller, with a selection that follows the same item (not the same index) through every change.
final class Level {
    /// The item whose sub-items this level shows.
    let parentID: ObjectID
    let controller: ResultsController
    /// The selected row and the scroll offset.
    var list = ListState()
    /// The selected item: always the item at the selected row.
    private(set) var selectedID: ObjectID?
    /// An item to select when a batch brings it into the level (one just added, or brought back by undo).
    var expectedID: ObjectID?
    /// The parent's title as last seen (after each event), for messages once it is gone.
    var lastKnownTitle: String
    /// Called after a batch changed the level (invalidation included).
    var onBatch: ((Level, ResultsBatch) -> Void)?

    init(parent: ItemRow, outline: Outline) throws {
        parentID = parent.id
        lastKnownTitle = parent.title
        controller = ResultsController(context: outline.context, request: Outline.level(of: parent.id))
        controller.onChange = { [unowned self] batch in
            self.follow(batch)
            self.onBatch?(self, batch)
        }
        try controller.performFetch()
        if controller.loadedCount > 0 { select(0) }
    }

    /// Rows known without waiting for the background read: all of them once it has finished.
    var count: Int { controller.isComplete ? controller.count : controller.loadedCount }

    /// The count if known, for "12/340".
    var knownCount: Int? { controller.isComplete ? controller.count : nil }

    /// Takes the IDs of a long level's background read once it has finished (so "12/340" replaces "12/256+"),
    /// when the state is settled rather than while a frame is drawn.
    func takeFinishedRead() { _ = controller.loadIfReady() }

    var isGone: Bool { controller.isInvalidated }

    /// Row `row` as values, read now: only the rows drawn or acted on are read.
    func row(at row: Int) -> ItemRow { controller.itemRow(at: row) }

    /// The selected row as values, read now.
    var selectedRow: ItemRow? {
        guard let row = list.selected, row < count else { return nil }
        return self.row(at: row)
    }

    /// Selects a row (clamped); the selection then follows the item there.
    func select(_ row: Int) {
        list.select(row, count: count)
        selectedID = list.selected.map { controller.objectID(at: $0) }
    }

    /// Selects the item `id` if the level has it (a scan of the IDs); otherwise the selection stays.
    func select(id: ObjectID) {
        if let row = list.selected, row < count, controller.objectID(at: row) == id { return }
        if let index = controller.index(of: id) { select(index.row) }
    }

    /// Moves the selection by `delta` rows.
    func move(by delta: Int) {
        list.move(by: delta, count: count)
        selectedID = list.selected.map { controller.objectID(at: $0) }
    }

    /// Keeps the selection on the same item through a batch: the item's new row, or, when it left the level,
    /// the row that took its place.
    private func follow(_ batch: ResultsBatch) {
        let n = controller.count
        if batch.invalidated || n == 0 {
            list = ListState()
            selectedID = nil
            return
        }
        // The item the user just added (or undo brought back) takes the selection when it arrives.
        if let expected = expectedID {
            let arrived = (batch.inserts + batch.moves.map(\.to)).first { $0.row < n && controller.objectID(at: $0.row) == expected }
            if let arrived {
                expectedID = nil
                let old = list.selected ?? arrived.row
                select(arrived.row)
                list.offset = max(0, list.offset + arrived.row - old)
                return
            }
        }
        guard let old = list.selected, let id = selectedID else {
            select(0)
            return
        }
        var row: Int? = nil
        for m in batch.moves where controller.objectID(at: m.to.row) == id { row = m.to.row }
        if row == nil {
            // Where the old row lands once removals and insertions before it are counted (UIKit's rules).
            let removed = batch.deletes.map(\.row) + batch.moves.map(\.from.row)
            var r = old - removed.filter { $0 < old }.count
            let wasRemoved = removed.contains(old)
            for added in (batch.inserts.map(\.row) + batch.moves.map(\.to.row)).sorted() {
                if wasRemoved ? added < r : added <= r { r += 1 }
            }
            if !wasRemoved, r < n, controller.objectID(at: r) == id {
                row = r
            } else if !wasRemoved, let found = controller.index(of: id) {
                row = found.row
            } else {
                // The item left the level: select the one that took its place.
                let landing = min(max(0, r), n - 1)
                row = landing
                selectedID = controller.objectID(at: landing)
            }
        }
        guard let new = row else { return }
        // Keep the selected row on the same screen line when rows came or went above it.
        list.offset = max(0, list.offset + new - old)
        list.selected = new
    }

    func pause() { controller.pause() }

    func resume() throws { try controller.resume() }
}
