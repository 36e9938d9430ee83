#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Buffer {
    /// The cells of this buffer that differ from `previous`, in row order; every cell when the sizes differ.
    ///
    /// Continuation cells are never sent: drawing a wide character's first half fills both cells.
    public func changes(from previous: Buffer?) -> [CellChange] {
        var out: [CellChange] = []
        changes(from: previous, into: &out)
        return out
    }

    /// `changes(from:)` written into `out` (emptied first, its storage kept): the terminal keeps one array for
    /// every frame's changes, a whole screen of them when a key scrolls.
    func changes(from previous: Buffer?, into out: inout [CellChange]) {
        out.removeAll(keepingCapacity: true)
        let width = size.width
        guard let previous, previous.size == size else {
            out.reserveCapacity(cells.count)
            for (i, cell) in cells.enumerated() where !cell.isContinuation {
                out.append(CellChange(position: Position(x: i % width, y: i / width), cell: cell))
            }
            return
        }
        guard !cells.isEmpty else { return }
        // Through the two arrays' storage: indexing them (and the optional `previous`) cell by cell copied each
        // cell out. Safe: both hold `size.area` cells (the sizes are equal, checked above), and every index read
        // is `y * width + x` with `y < size.height` and `x < width`, inside both.
        cells.withUnsafeBufferPointer { now in
            previous.cells.withUnsafeBufferPointer { before in
                for y in 0..<size.height {
                    let row = y * width
                    // Most rows of most frames are the rows before: compared whole, as words.
                    if Buffer.sameCells(now.baseAddress! + row, before.baseAddress! + row, width) { continue }
                    for x in 0..<width where now[row + x] != before[row + x] {
                        let cell = now[row + x]
                        if cell.isContinuation {
                            // Only the second half changed (its style): redraw the whole character unless already sent.
                            if x > 0, out.last?.position != Position(x: x - 1, y: y) {
                                out.append(CellChange(position: Position(x: x - 1, y: y), cell: now[row + x - 1]))
                            }
                        } else {
                            out.append(CellChange(position: Position(x: x, y: y), cell: cell))
                        }
                    }
                }
            }
        }
    }
}

extension Buffer {
    /// Rows of this buffer that `previous` showed `by` rows lower (higher when `by` is negative), found when a
    /// list scrolled: the rows, as this buffer has them, of the longest band of at least `minimumRows` rows
    /// that changed in place and equal the rows `by` below them in `previous`. Nil when nothing moved so (or
    /// the sizes differ). Only shifts of up to 3 rows are looked for: a key moves a list by a row or two, and
    /// a page moves it past anything worth keeping. Shifts are tried by size, and the first whose band holds all
    /// but two of the changed rows is taken.
    func scroll(from previous: Buffer, minimumRows: Int = 3) -> (rows: Range<Int>, by: Int)? {
        guard previous.size == size, size.height > minimumRows, size.width > 0 else { return nil }
        let (width, height) = (size.width, size.height)
        // Safe: both hold `width × height` cells (the sizes are equal, checked above), and every row compared
        // is in `0..<height`, so every index read is inside both.
        return cells.withUnsafeBufferPointer { now in
            previous.cells.withUnsafeBufferPointer { before -> (rows: Range<Int>, by: Int)? in
                func same(_ y: Int, _ previousY: Int) -> Bool {
                    Buffer.sameCells(now.baseAddress! + y * width, before.baseAddress! + previousY * width, width)
                }
                var changed = [Bool](repeating: false, count: height)
                var changes = 0
                for y in 0..<height where !same(y, y) {
                    changed[y] = true
                    changes += 1
                }
                guard changes >= minimumRows else { return nil }
                var best: (rows: Range<Int>, by: Int)? = nil
                for by in [1, -1, 2, -2, 3, -3] {
                    var y = 0
                    while y < height {
                        var end = y
                        while end < height, changed[end], (0..<height).contains(end + by), same(end, end + by) { end += 1 }
                        if end - y >= minimumRows, end - y > best?.rows.count ?? 0 { best = (y..<end, by) }
                        y = max(end, y + 1)
                    }
                    // A band of all but two of the changed rows (a list scrolled a row, its status line changed)
                    // leaves another shift at most two rows more to keep: the other shifts are not tried (each
                    // compared the changed rows again, a tenth of a key's instructions in all).
                    if let found = best, found.rows.count + 2 >= changes { break }
                }
                return best
            }
        }
    }

    /// Moves the rows of `region` up by `count` (down when negative) as a terminal's scroll region does: the
    /// rows uncovered are blank. A cell of several code points that moved is marked as no cell at all, so the
    /// next diff sends it again: a backend may draw such characters past its screen library (see
    /// `TerminalBackend.scroll`).
    mutating func shift(_ region: Range<Int>, by count: Int) {
        let width = size.width
        let region = region.clamped(to: 0..<size.height)
        guard !region.isEmpty, width > 0 else { return }
        // Safe: every row touched is inside `region`, itself inside `0..<size.height`, so every cell read or
        // written is one of the buffer's `width × height`; rows are copied one at a time, never onto themselves.
        cells.withUnsafeMutableBufferPointer { cells in
            let base = cells.baseAddress!
            guard count != 0, abs(count) < region.count else {
                Buffer.repeatCell(.blank, at: base + region.lowerBound * width, count: region.count * width)
                return
            }
            let moved = count > 0 ? region.lowerBound..<region.upperBound - count : region.lowerBound - count..<region.upperBound
            for y in count > 0 ? Array(moved) : moved.reversed() {
                let row = base + y * width
                row.update(from: base + (y + count) * width, count: width)
                for x in 0..<width where row[x].isCluster { row[x] = .unsent }
            }
            let blank = count > 0 ? region.upperBound - count : region.lowerBound
            Buffer.repeatCell(.blank, at: base + blank * width, count: abs(count) * width)
        }
    }

    /// Whether the `count` cells at `a` and at `b` are equal, compared as bytes by the C library's `memcmp`
    /// (32 or 64 bytes a step where the processor has them: a row of 80 cells in about 200 instructions, where
    /// two words a cell took 800). Safe: a cell is 16 bytes, all of them its fields
    /// (`CellTests.aCellIsSixteenBytesOfItsOwnFields`), so equal cells are equal bytes, and the caller passes
    /// `count` cells that both pointers have.
    @inline(__always)
    static func sameCells(_ a: UnsafePointer<Cell>, _ b: UnsafePointer<Cell>, _ count: Int) -> Bool {
        memcmp(a, b, count * MemoryLayout<Cell>.stride) == 0
    }

    /// Writes `cell` over the `count` cells at `start`: stored once, then copied onto the rest by the C
    /// library's `memcpy` (32 bytes a step), in runs that double up to 64 cells and then 64 cells at a time,
    /// where storing a cell at a time took 8 instructions a cell (a list's area and the frame were each cleared
    /// that way every key). Runs stay under the size where `memcpy` turns to `rep movsb`, which callgrind counts
    /// a byte at a time. Safe: a cell is 16 bytes of plain values, nothing to retain
    /// (`CellTests.aCellIsSixteenBytesOfItsOwnFields`), each copy's source `start..<start+n` and target
    /// `start+done..<start+done+n` do not overlap (`n <= done`), and the caller passes `count` initialized
    /// cells at `start`.
    @inline(__always)
    static func repeatCell(_ cell: Cell, at start: UnsafeMutablePointer<Cell>?, count: Int) {
        guard let start, count > 0 else { return }
        start.pointee = cell
        var done = 1
        while done < count {
            let n = min(done, count - done, 64)
            memcpy(start + done, start, n * MemoryLayout<Cell>.stride)
            done += n
        }
    }
}
