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
        var i = 0
        let n = cells.count
        while i < n {
            let cell = cells[i]
            if cell != previous.cells[i] {
                if cell.isContinuation {
                    // Only the second half changed (its style): redraw the whole character unless already sent.
                    let head = i - 1
                    if head >= 0, head % width != width - 1, out.last?.position != Position(x: head % width, y: head / width) {
                        out.append(CellChange(position: Position(x: head % width, y: head / width), cell: cells[head]))
                    }
                } else {
                    out.append(CellChange(position: Position(x: i % width, y: i / width), cell: cell))
                }
            }
            i += 1
        }
        return out
    }
}
