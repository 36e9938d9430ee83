/// Draws frames on a backend, sending only the cells that changed since the previous frame.
///
/// For example:
/// ```swift
/// let terminal = Terminal(backend: backend)
/// terminal.draw { frame in frame.buffer.write("Hello", at: .zero) }
/// ```
public final class Terminal {
    public let backend: any TerminalBackend
    private var previous: Buffer?
    /// The buffer of the frame before `previous`, drawn into again: a frame's cells are not allocated, and
    /// the last-but-one frame's freed, for every key.
    private var spare: Buffer?
    /// The last frame's changes: its storage holds the next frame's, so a key that scrolls (a whole screen
    /// changed) allocates nothing for them.
    private var changes: [CellChange] = []
    /// How many cells the last `draw` sent to the backend.
    public private(set) var lastChangeCount = 0
    /// How many times a frame had the backend scroll rows instead of sending them.
    public private(set) var scrolls = 0

    public init(backend: any TerminalBackend) {
        self.backend = backend
    }

    public var size: Size { backend.size }

    /// Makes the next frame send every cell (after a resize, a resume, or anything that garbled the screen).
    public func invalidate() {
        previous = nil
        spare = nil
        backend.clear()
    }

    /// Renders a frame at the backend's current size and sends what changed.
    @discardableResult
    public func draw(_ render: (inout Frame) -> Void) -> Frame {
        var frame = Frame(size: .zero)
        if var reused = spare, reused.size == backend.size {
            // Dropped first, so the buffer has one owner and is cleared in place.
            spare = nil
            reused.clear()
            frame.buffer = reused
        } else {
            frame = Frame(size: backend.size)
        }
        render(&frame)
        present(frame)
        return frame
    }

    /// Changes the last frame sent in place and sends what changed: a message on a status line while the
    /// program is busy and cannot render a whole frame. Nothing happens before a first frame.
    public func update(_ change: (inout Frame) -> Void) {
        guard let last = previous, last.size == backend.size else { return }
        var frame = Frame(size: last.size)
        frame.buffer = last
        change(&frame)
        present(frame)
    }

    /// Sends a frame rendered elsewhere (e.g. by the app's view code) and what changed in it.
    public func present(_ frame: Frame) {
        if let p = previous, p.size != frame.size { invalidate() }
        // A list that scrolled moved most of the screen by a row or two: the terminal moves those rows itself,
        // and only what is new is sent (a whole screen of cells otherwise, for every key that scrolls).
        if var shifted = previous, let (band, by) = frame.buffer.scroll(from: shifted) {
            let region = by > 0 ? band.lowerBound..<band.upperBound + by : band.lowerBound + by..<band.upperBound
            if backend.scroll(region, by: by) {
                // Dropped first, so the buffer has one owner and moves in place.
                previous = nil
                shifted.shift(region, by: by)
                previous = shifted
                scrolls += 1
            }
        }
        frame.buffer.changes(from: previous, into: &changes)
        lastChangeCount = changes.count
        if !changes.isEmpty { backend.draw(changes, in: frame.buffer) }
        backend.setCursor(frame.cursor.flatMap { frame.area.contains($0) ? $0 : nil })
        backend.flush()
        spare = previous
        previous = frame.buffer
    }
}
