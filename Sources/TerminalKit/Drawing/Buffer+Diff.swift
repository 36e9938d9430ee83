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
        // Through the two arrays' storage: indexing them (and the optional `previous`) cell by cell copied each
        // cell out. Safe: both hold `size.area` cells (the sizes are equal, checked above), and every index read
        // is `y * width + x` with `y < size.height` and `x < width`, inside both.
        cells.withUnsafeBufferPointer { now in
            previous.cells.withUnsafeBufferPointer { before in
                for y in 0..<size.height {
                    let row = y * width
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
