/// The output side of a terminal: what `Terminal` needs to put a frame on a screen.
///
/// Implemented by the ncurses backend (`CursesBackend`) and by `TestBackend`.
public protocol TerminalBackend: AnyObject {
    /// The screen size in cells.
    var size: Size { get }
    /// Draws changed cells (each already safe to draw; wide characters fill two cells).
    func draw(_ changes: [CellChange])
    /// Draws changed cells of `frame`, the whole frame they belong to: a backend may write an unchanged cell
    /// between two changes where that is shorter than moving past it.
    func draw(_ changes: [CellChange], in frame: Buffer)
    /// Shows the cursor at `position`, or hides it when nil.
    func setCursor(_ position: Position?)
    /// Forgets what the screen shows (after a resize or a resume); the next draw sends every cell.
    func clear()
    /// Makes everything drawn so far visible.
    func flush()
    /// Moves what rows `region` show up by `count` rows (down when negative), the rows uncovered blank, as a
    /// terminal's scroll region does; true when done. A backend that cannot says false, and its cells are
    /// sent instead. A character of several code points in the rows moved is sent again by the next `draw`.
    func scroll(_ region: Range<Int>, by count: Int) -> Bool
}

extension TerminalBackend {
    /// The changes alone.
    public func draw(_ changes: [CellChange], in frame: Buffer) { draw(changes) }

    /// Not done: the cells that moved are sent like any other changed cells.
    public func scroll(_ region: Range<Int>, by count: Int) -> Bool { false }
}
