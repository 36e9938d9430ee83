extension Buffer {
    /// The cells of this buffer that differ from `previous`, in row order; every cell when the sizes differ.
    ///
    /// Continuation cells are never sent: drawing a wide character's first half fills both cells.
    public func changes(from previous: Buffer?) -> [CellChange] {
        var out: [CellChange] = []
        let width = size.width
        guard let previous, previous.size == size else {
            out.reserveCapacity(cells.count)
            for (i, cell) in cells.enumerated() where !cell.isContinuation {
                out.append(CellChange(position: Position(x: i % width, y: i / width), cell: cell))
            }
            return out
        }
        // Through the two arrays' storage: indexing them (and the optional `previous`) cell by cell copied each
        // cell out, a retain and a release of its symbol for each of the screen's cells, every frame. Safe: both
        // hold `size.area` cells (the sizes are equal, checked above), so every index read is inside both.
        cells.withUnsafeBufferPointer { now in
            previous.cells.withUnsafeBufferPointer { before in
                for i in 0..<now.count where now[i] != before[i] {
                    if now[i].isContinuation {
                        // Only the second half changed (its style): redraw the whole character unless already sent.
                        let head = i - 1
                        if head >= 0, head % width != width - 1, out.last?.position != Position(x: head % width, y: head / width) {
                            out.append(CellChange(position: Position(x: head % width, y: head / width), cell: now[head]))
                        }
                    } else {
                        out.append(CellChange(position: Position(x: i % width, y: i / width), cell: now[i]))
                    }
                }
            }
        }
        return out
    }
}
