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
    /// Slot by slot: the level's index of the row kept there (-1 for none), what it was drawn from, its cells.
    /// Three arrays rather than one of optional entries, so a row is compared where it is kept, not copied out.
    private var indexes: [Int] = []
    private var inputs: [Inputs] = []
    private var rows: [Buffer] = []
    private var height = 0

    /// Makes room for a list of `height` rows (a power of two of slots, at least twice the height).
    mutating func fit(height: Int) {
        self.height = height
        var count = 64
        while count < 2 * height { count *= 2 }
        if !indexes.isEmpty, indexes.count != count {
            indexes = []
            inputs = []
            rows = []
        }
    }

    /// The row at `index` in the level drawn from these values: kept from an earlier frame, or drawn by `draw`
    /// into a blank one-row buffer and kept. The values are compared where they are kept (building an `Inputs`
    /// to compare copied the row's strings, a retain and a release each, every row of every frame).
    mutating func row(
        at index: Int, _ row: ItemRow, depth: Int, isCut: Bool, today: String, progress: (done: Int, total: Int)?, width: Int,
        draw: (inout Buffer) -> Void
    ) -> Buffer {
        let slot = index & (max(1, indexes.count) - 1)
        if !indexes.isEmpty, indexes[slot] == index, inputs[slot].width == width, inputs[slot].depth == depth,
            inputs[slot].isCut == isCut, inputs[slot].done == progress?.done, inputs[slot].total == progress?.total,
            inputs[slot].row == row, inputs[slot].today == today
        {
            return rows[slot]
        }
        let drawnFrom = Inputs(row: row, depth: depth, isCut: isCut, today: today, progress: progress, width: width)
        if indexes.isEmpty {
            var count = 64
            while count < 2 * height { count *= 2 }
            indexes = Array(repeating: -1, count: count)
            inputs = Array(repeating: drawnFrom, count: count)
            rows = Array(repeating: Buffer(size: Size(width: 0, height: 0)), count: count)
        }
        let at = index & (indexes.count - 1)
        var cells = Buffer(size: Size(width: width, height: 1))
        draw(&cells)
        drawn += 1
        indexes[at] = index
        inputs[at] = drawnFrom
        rows[at] = cells
        return cells
    }
}
