import ObjectGraph
import Outline
import TerminalKit

/// The level's rows as `RowView` drew them, each kept with everything it was drawn from, for the next frames:
/// a key that scrolls the list by a row draws one new row and copies the others (drawing a row was a fifth of
/// a key's instructions). A row is reused only when every input is equal, so a changed item, depth, cut,
/// progress, day or width draws it again. Kept in slots by the row's index in the level, as many as twice the
/// rows shown: nothing is copied or hashed to find a row, and a row far from the screen takes the slot of one
/// that left it.
struct RowCache {
    /// What a row is drawn from (the theme is the app's for its whole life).
    struct Inputs: Equatable {
        let row: ItemRow
        let depth: Int
        let isCut: Bool
        let today: String
        let done: Int?
        let total: Int?
        let width: Int

        init(row: ItemRow, depth: Int, isCut: Bool, today: String, progress: (done: Int, total: Int)?, width: Int) {
            self.row = row
            self.depth = depth
            self.isCut = isCut
            self.today = today
            done = progress?.done
            total = progress?.total
            self.width = width
        }
    }

    /// How many rows were drawn rather than copied, for tests.
    private(set) var drawn = 0
    /// How many item rows `keptChildCount` vouched for (not read from their objects again), for tests.
    private(set) var handedBack = 0
    /// Slot by slot: the level's index of the row kept there (-1 for none), what it was drawn from, its cells.
    /// Three arrays rather than one of optional entries, so a row is compared where it is kept, not copied out.
    private var indexes: [Int] = []
    private var inputs: [Inputs] = []
    private var rows: [Buffer] = []
    /// The outline's generation when the slot's item row was last read or found equal to what was kept
    /// (-1: none, or read while something was unsaved).
    private var generations: [Int] = []
    /// How many slots the list's height wants (`fit`): a power of two, at least 64 and twice the height.
    private var slotCount = 64

    /// Makes room for a list of `height` rows; the rows kept go when the number of slots changes.
    mutating func fit(height: Int) {
        var count = 64
        while count < 2 * height { count *= 2 }
        guard count != slotCount else { return }
        slotCount = count
        indexes = []
        inputs = []
        rows = []
        generations = []
    }

    /// The sub-item count of the item row kept for row `index` of the level, when it was drawn from item `id`
    /// read in `generation`: the item's values are those while the generation stays (it moves with every
    /// save and every change taken in), so the caller need not read the row from its object again, nor copy
    /// it (a copy and its release were as dear as reading it), only work out the row's other inputs for
    /// `keptCells`. Nil otherwise.
    mutating func keptChildCount(at index: Int, id: ObjectID, generation: Int) -> Int? {
        let slot = index & (slotCount - 1)
        guard !indexes.isEmpty, indexes[slot] == index, generations[slot] == generation, inputs[slot].row.id == id else { return nil }
        handedBack += 1
        return inputs[slot].row.childCount
    }

    /// The cells kept for row `index` when `keptChildCount` vouched for its item row and every other input is
    /// the same; nil when one differs (the caller then reads the row and calls `row`).
    func keptCells(at index: Int, depth: Int, isCut: Bool, today: String, progress: (done: Int, total: Int)?, width: Int) -> Buffer? {
        let slot = index & (slotCount - 1)
        guard !indexes.isEmpty, indexes[slot] == index, inputs[slot].width == width, inputs[slot].depth == depth,
            inputs[slot].isCut == isCut, inputs[slot].done == progress?.done, inputs[slot].total == progress?.total,
            inputs[slot].today == today
        else { return nil }
        return rows[slot]
    }

    /// The row at `index` in the level drawn from these values: kept from an earlier frame, or drawn by `draw`
    /// into a blank one-row buffer and kept. The values are compared where they are kept (building an `Inputs`
    /// to compare copied the row's strings, a retain and a release each, every row of every frame).
    /// `generation` is the outline's when `row` was read (-1 when it may hold unsaved values): `keptChildCount`
    /// vouches for the row while it stays.
    mutating func row(
        at index: Int, _ row: ItemRow, generation: Int, depth: Int, isCut: Bool, today: String, progress: (done: Int, total: Int)?,
        width: Int, draw: (inout Buffer) -> Void
    ) -> Buffer {
        let slot = index & (slotCount - 1)
        if !indexes.isEmpty, indexes[slot] == index, inputs[slot].width == width, inputs[slot].depth == depth,
            inputs[slot].isCut == isCut, inputs[slot].done == progress?.done, inputs[slot].total == progress?.total,
            inputs[slot].row == row, inputs[slot].today == today
        {
            generations[slot] = generation
            return rows[slot]
        }
        let drawnFrom = Inputs(row: row, depth: depth, isCut: isCut, today: today, progress: progress, width: width)
        if indexes.isEmpty {
            indexes = Array(repeating: -1, count: slotCount)
            inputs = Array(repeating: drawnFrom, count: slotCount)
            rows = Array(repeating: Buffer(size: Size(width: 0, height: 0)), count: slotCount)
            generations = Array(repeating: -1, count: slotCount)
        }
        var cells = Buffer(size: Size(width: width, height: 1))
        draw(&cells)
        drawn += 1
        indexes[slot] = index
        inputs[slot] = drawnFrom
        rows[slot] = cells
        generations[slot] = generation
        return cells
    }
}
