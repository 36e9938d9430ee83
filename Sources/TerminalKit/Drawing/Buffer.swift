/// A grid of cells the size of the screen (or of an area): each frame is drawn whole into one, then compared
/// with the previous frame so only changed cells reach the terminal.
///
/// Writing keeps wide characters whole: overwriting either half of a wide character blanks the other half,
/// and a wide character that does not fit at the right edge becomes a space.
///
/// For example: `var b = Buffer(size: Size(width: 20, height: 1)); b.write("日本 ok", at: .zero)`.
public struct Buffer: Equatable, Sendable {
    public let size: Size
    public internal(set) var cells: [Cell]

    public init(size: Size, fill: Cell = .blank) {
        self.size = size
        self.cells = Array(repeating: fill, count: size.area)
    }

    public var area: Rect { Rect(size: size) }

    /// Every cell blank again, as a new buffer of this size starts.
    // Safe: the pointer covers exactly the array's initialized cells and does not outlive the call, and taking
    // it copies storage another buffer shares first, so a frame the caller still holds keeps its cells
    // (`TerminalTests.reusedBuffersAndDiffsGiveTheFrameDrawnFresh` fails when a reused buffer is not cleared).
    mutating func clear() {
        cells.withUnsafeMutableBufferPointer { Buffer.repeatCell(.blank, at: $0.baseAddress, count: $0.count) }
    }

    public subscript(x: Int, y: Int) -> Cell {
        cells[y * size.width + x]
    }

    public subscript(position: Position) -> Cell {
        self[position.x, position.y]
    }

    /// Puts `cell` at `position`, keeping wide characters whole; positions outside the buffer are ignored.
    public mutating func set(_ position: Position, _ cell: Cell) {
        let (x, y) = (position.x, position.y)
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        let i = y * size.width + x
        let old = cells[i]
        if old.isContinuation, x > 0 {
            cells[i - 1] = .blank(cells[i - 1].style)
        } else if old.width == 2, x + 1 < size.width {
            cells[i + 1] = .blank(cells[i + 1].style)
        }
        guard cell.width == 2 else {
            cells[i] = cell.isContinuation ? .blank(cell.style) : cell
            return
        }
        guard x + 1 < size.width else {
            cells[i] = .blank(cell.style)
            return
        }
        if cells[i + 1].width == 2, x + 2 < size.width {
            cells[i + 2] = .blank(cells[i + 2].style)
        }
        cells[i] = cell
        cells[i + 1] = .continuation(cell.style)
    }

    /// `set` of a one-cell-wide cell at a position inside the buffer, for the loops that write text a cell at
    /// a time: inlined there, it costs a compare when it replaces another narrow cell (a call per cell was a
    /// tenth of a frame's own work).
    @inline(__always)
    mutating func setNarrow(x: Int, y: Int, _ cell: Cell) {
        let i = y * size.width + x
        if cells[i].width == 1 { cells[i] = cell } else { set(Position(x: x, y: y), cell) }
    }

    /// Puts a narrow cell in `style` for each byte of printable ASCII `bytes`, from column `x` of row `y`
    /// rightwards; the columns must lie inside the buffer. What `set` does byte by byte, as one store per cell:
    /// only the run's ends can meet half of a wide character (inside it, each half is overwritten).
    mutating func putASCII(_ bytes: UnsafeBufferPointer<UInt8>, x: Int, y: Int, style: Style) {
        guard !bytes.isEmpty else { return }
        precondition(x >= 0 && x + bytes.count <= size.width && y >= 0 && y < size.height, "an ASCII run outside the buffer")
        let first = y * size.width + x, end = first + bytes.count
        if cells[first].isContinuation, x > 0 { cells[first - 1] = .blank(cells[first - 1].style) }
        if cells[end - 1].width == 2, x + bytes.count < size.width { cells[end] = .blank(cells[end].style) }
        // Safe: first..<end lies inside the array (the precondition above), and the pointer does not outlive the
        // call; taking it copies storage another buffer shares first.
        cells.withUnsafeMutableBufferPointer { p in
            for (k, b) in bytes.enumerated() { p[first + k] = Cell(scalar: Unicode.Scalar(b), style: style) }
        }
    }

    /// Fills `rect` (clipped to the buffer) with `cell`, which must be one cell wide.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        if r.width == size.width {
            // Whole rows are one run. Safe: it lies inside the array (`r` is clipped to the buffer's area).
            cells.withUnsafeMutableBufferPointer { p in
                Buffer.repeatCell(cell, at: p.baseAddress.map { $0 + r.y * size.width }, count: r.width * r.height)
            }
            return
        }
        for y in r.y..<r.maxY {
            if r.x > 0 { set(Position(x: r.x, y: y), cell) }
            if r.maxX < size.width { set(Position(x: r.maxX - 1, y: y), cell) }
            let base = y * size.width
            // Safe: the row's part of `r` lies inside the array (`r` is clipped to the buffer's area), and the
            // pointer does not outlive the call.
            cells.withUnsafeMutableBufferPointer { p in Buffer.repeatCell(cell, at: p.baseAddress.map { $0 + base + r.x }, count: r.width) }
        }
    }

    /// Copies the first row of `row` (a buffer drawn elsewhere, say a list's row kept from an earlier frame)
    /// to `position`, clipped to this buffer, keeping wide characters whole at both ends as `set` does.
    ///
    /// For example: `frame.buffer.paste(cachedRow, at: Position(x: 0, y: 3))`.
    public mutating func paste(_ row: Buffer, at position: Position) {
        let (x, y) = (position.x, position.y)
        guard y >= 0, y < size.height, x >= 0, x < size.width, row.size.height > 0 else { return }
        let count = min(row.size.width, size.width - x)
        guard count > 0 else { return }
        let first = y * size.width + x, end = first + count
        if cells[first].isContinuation, x > 0 { cells[first - 1] = .blank(cells[first - 1].style) }
        if end < (y + 1) * size.width, cells[end].isContinuation { cells[end] = .blank(cells[end].style) }
        // Safe: first..<end lies inside this buffer's row `y` (x + count <= width, checked above), the source
        // holds at least `count` cells (its first row), and neither pointer outlives the call.
        row.cells.withUnsafeBufferPointer { source in
            cells.withUnsafeMutableBufferPointer { p in
                _ = UnsafeMutableBufferPointer(rebasing: p[first..<end]).update(fromContentsOf: source[0..<count])
            }
        }
        // Clipped through a wide character: its first half alone would be drawn over the edge.
        if count < row.size.width, cells[end - 1].width == 2 { cells[end - 1] = .blank(cells[end - 1].style) }
    }

    /// Changes the style of every cell in `rect`, e.g. to highlight a selected row.
    public mutating func updateStyle(in rect: Rect, _ change: (inout Style) -> Void) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { change(&cells[y * size.width + x].style) }
        }
    }

    /// The text of each row, wide characters once, trailing spaces kept.
    public var lines: [String] {
        (0..<size.height).map { y in
            var line = ""
            for x in 0..<size.width where !self[x, y].isContinuation { line += self[x, y].symbol }
            return line
        }
    }
}
