import ObjectGraph
import Outline
import TerminalKit

/// One list level on the navigation stack: the sub-items of one item, with the sub-items of items folded
/// open inside it shown indented beneath them, kept up to date by results controllers (one per open list on
/// screen, see `FoldNode`), with a selection that follows the same item (not the same row) through every
/// change.
final class Level {
    /// The item whose sub-items this level shows (a view's: the top item, where its quick capture adds).
    let parentID: ObjectID
    /// What the level shows instead of the item's sub-items (a tag's items, a search's, the agenda), if anything.
    let view: LevelView?
    let outline: Outline
    /// The level's own rows; open sub-lists hang below it.
    let root: FoldNode
    /// The selected row and the scroll offset, in flattened rows.
    var list = ListState()
    /// The selected item: always the item at the selected row.
    private(set) var selectedID: ObjectID?
    /// An item to select when a batch brings it into the level (one just added, or brought back by undo).
    var expectedID: ObjectID?
    /// The parent's title as last seen (after each event), for messages once it is gone.
    var lastKnownTitle: String
    /// Done items are left out of every list of the level (`H`).
    let hidesDone: Bool
    /// Whether the level is on top of the stack: a level below it keeps only its own list, paused.
    private(set) var isPaused = false
    /// The open lists that are live now (the root is always live and not in here).
    var liveLists: [ObjectIdentifier: FoldNode] = [:]
    /// Counts the passes that settle which lists are live: when each list was last on screen.
    var settlePasses = 0
    /// Items that arrived above the first row shown, not scrolled up to yet ("3 new above").
    var newAbove = NewAbove()
    /// The context observer that closes open lists whose item was closed or deleted (`takeFoldChanges`).
    private var observer: Int?
    /// The first read of the store that failed while the level answered a question or took in a change (it
    /// then answered as if the item were not shown); the app tells it when it next settles (`takeReadFailure`).
    private var readFailure: (any Error)?

    init(parent: ItemRow, outline: Outline, hidesDone: Bool = false, view: LevelView? = nil) throws {
        parentID = parent.id
        self.view = view
        lastKnownTitle = view?.title ?? parent.title
        self.outline = outline
        self.hidesDone = hidesDone
        root = FoldNode(itemID: parent.id, depth: 0, parent: nil)
        try makeLive(root)
        if count > 0 { select(0) }
        observer = outline.observeChanges { [weak self] changes in self?.takeFoldChanges(changes) }
    }

    deinit {
        if let observer { outline.removeObserver(observer) }
    }

    /// Runs a read of the store for an answer that has no way to fail: a failure is kept for the app to tell,
    /// and reads as nil.
    func reading<T>(_ read: () throws -> T) -> T? {
        do {
            return try read()
        } catch {
            if readFailure == nil { readFailure = error }
            return nil
        }
    }

    /// The read failure kept since the last call, if any.
    func takeReadFailure() -> (any Error)? {
        defer { readFailure = nil }
        return readFailure
    }

    /// The results controller of the level's own rows.
    var controller: ResultsController { root.controller! }

    /// Rows known without waiting for a background read or an open sub-list not read yet.
    var count: Int { root.size }

    /// The count if every row is known, for "12/340".
    var knownCount: Int? { root.isKnown ? root.size : nil }

    var isGone: Bool { root.controller?.isInvalidated ?? true }

    /// The request for the rows of `item`'s list.
    func request(for item: ObjectID) -> FetchRequest {
        var r = item == parentID ? view?.request ?? Outline.level(of: item) : Outline.level(of: item)
        if hidesDone { r.predicate = r.predicate && Property("done") == false }
        return r
    }

    // MARK: Rows

    /// Row `row` as values, read now, and how deep it is (0 for the level's own rows): only the rows drawn or
    /// acted on are read.
    func row(at row: Int) -> ItemRow { entry(at: row).row }

    /// Row `row` with its depth.
    func entry(at row: Int) -> (row: ItemRow, depth: Int) {
        let (node, local) = root.locate(row)
        guard let c = node.controller else {
            // Settling makes every node with rows on screen live; a row read elsewhere comes from the store.
            return (ItemRow(id: node.itemID, title: "…", isDone: false, childCount: 0), node.depth)
        }
        return (c.itemRow(at: local), node.depth)
    }

    /// Row `row`'s ID if it has sub-items: what the task counts around the screen need, without reading
    /// the whole row (three screens of them were read on every frame).
    func parentID(at row: Int) -> ObjectID? {
        let (node, local) = root.locate(row)
        guard let item = node.controller?.object(at: local) as? Item, item.childCount > 0 else { return nil }
        return item.objectID
    }

    /// How deep row `row` is.
    func depth(at row: Int) -> Int { root.locate(row).node.depth }

    /// The ID at flattened row `row`.
    func objectID(at row: Int) -> ObjectID? {
        let (node, local) = root.locate(row)
        return node.controller?.objectID(at: local)
    }

    /// The selected row as values, read now.
    var selectedRow: ItemRow? {
        guard let row = list.selected, row < count else { return nil }
        return self.row(at: row)
    }

    /// The depth of the selected row.
    var selectedDepth: Int {
        guard let row = list.selected, row < count else { return 0 }
        return root.locate(row).node.depth
    }

    /// The list the selected item is in (the root, or an open sub-list) and its row there.
    var selectedPlace: (node: FoldNode, row: Int)? {
        guard let row = list.selected, row < count else { return nil }
        return root.locate(row)
    }

    /// The live node showing `item`'s sub-items, if it is open here.
    func node(of item: ObjectID) -> FoldNode? {
        var pending = [root]
        while let n = pending.popLast() {
            if n.itemID == item { return n }
            pending.append(contentsOf: n.children.values)
        }
        return nil
    }

    /// The flattened row of `id`, if it is shown (its parent's list is live here and the row is reached).
    func flatIndex(of id: ObjectID) -> Int? {
        if view != nil {
            // A view's rows are not their parent's sub-items: look among them.
            guard let c = root.controller else { return nil }
            for row in 0..<root.ownCount where c.objectID(at: row) == id { return row < count ? row : nil }
            return nil
        }
        guard let parent = reading({ try outline.parentID(of: id) }) ?? nil, let node = node(of: parent), let c = node.controller,
            let start = node.start
        else { return nil }
        // A scan of the list's IDs known so far (never waiting for a background read).
        for row in 0..<node.ownCount where c.objectID(at: row) == id {
            let flat = start + node.flat(ofOwnRow: row)
            return flat < count ? flat : nil
        }
        return nil
    }

    /// The items whose lists the level shows: its own and every open one.
    var openLists: [ObjectID] {
        var ids: [ObjectID] = []
        var pending = [root]
        while let n = pending.popLast() {
            ids.append(n.itemID)
            pending.append(contentsOf: n.children.values)
        }
        return ids
    }

    /// True when the item is shown in the level.
    func contains(_ id: ObjectID) -> Bool { selectedID == id || flatIndex(of: id) != nil }

    // MARK: Selection

    /// Selects a row (clamped); the selection then follows the item there.
    func select(_ row: Int) {
        list.select(row, count: count)
        if let row = list.selected { ensureLive(at: row) }
        list.select(row, count: count)
        selectedID = list.selected.flatMap { objectID(at: $0) }
    }

    /// Selects the item `id` if the level shows it; otherwise the selection stays.
    func select(id: ObjectID) {
        if selectedID == id, let row = list.selected, row < count, objectID(at: row) == id { return }
        if let row = flatIndex(of: id) ?? reveal(id) { select(row) }
    }

    /// Reads the lists on the way down to `id` that are not live (a level just made, or lists scrolled past),
    /// so it can be found; its row, if it is shown here at all.
    func reveal(_ id: ObjectID) -> Int? {
        if view != nil { return flatIndex(of: id) }
        guard let chain = reading({ try outline.ancestors(of: id).map(\.id) + [id] }) else { return nil }
        var node = root
        var madeLive: [FoldNode] = []
        defer { recount(above: madeLive) }
        // The ancestors below the level's item, each open in the one above.
        guard let start = chain.firstIndex(where: { id in reading({ try outline.parentID(of: id) }) == parentID }) else { return nil }
        for ancestor in chain[start..<(chain.count - 1)] {
            guard let next = node.children[ancestor] else { return nil }
            node = next
            if !node.isLive {
                guard reading({ try makeLive(node, recountingAbove: false) }) != nil else { return nil }
                madeLive.append(node)
            }
        }
        recount(above: madeLive)
        madeLive = []
        // Lists above it that were never read (or changed while the level was under another) end the known
        // rows before it: read them, in order, until it is reached.
        while flatIndex(of: id) == nil, let unknown = firstUnknown, !unknown.isLive {
            guard reading({ try makeLive(unknown) }) != nil else { return nil }
        }
        return flatIndex(of: id)
    }

    /// Moves the selection by `delta` rows.
    func move(by delta: Int) {
        let from = list.selected
        list.move(by: delta, count: count)
        if let row = list.selected, row != from {
            ensureLive(at: row)
            list.select(row, count: count)
        }
        selectedID = list.selected.flatMap { objectID(at: $0) }
    }

    /// Puts the selection back on its item after the rows changed: the item's new row, or, when it left
    /// the level, the row that took its place; the selected row keeps its screen line.
    func follow() {
        let n = count
        if isGone || n == 0 {
            list = ListState()
            selectedID = nil
            return
        }
        // The item the user just added (or undo brought back) takes the selection when it arrives.
        if let expected = expectedID, let row = flatIndex(of: expected) {
            expectedID = nil
            let old = list.selected ?? row
            select(row)
            list.offset = max(0, list.offset + row - old)
            return
        }
        guard let old = list.selected else {
            select(0)
            return
        }
        guard let id = selectedID else {
            select(min(old, n - 1))
            return
        }
        if old < n, objectID(at: old) == id { return }
        // An open list found above it may not be read yet (its rows unknown): read the way to it first.
        if let row = flatIndex(of: id) ?? reveal(id) {
            list.offset = max(0, list.offset + row - old)
            list.selected = row
        } else {
            // The item left the level: select the one that took its place.
            select(min(old, n - 1))
        }
    }

    // MARK: Pausing

    /// Stops every list of the level (another level is on top): the open sub-lists let go of their
    /// controllers, keeping their sizes; the level's own list gathers changes.
    func pause() {
        isPaused = true
        controller.pause()
        for node in liveLists.values { retire(node) }
    }

    /// Brings the level back on top: the own list catches up in one batch; open lists on screen are read
    /// again as the level settles.
    func resume() throws {
        isPaused = false
        try controller.resume()
    }
}
