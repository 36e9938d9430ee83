/// The output side of a terminal: what `Terminal` needs to put a frame on a screen.
///
/// Implemented by the ncurses backend (`CursesBackend`) and by `TestBackend`.
public protocol TerminalBackend: AnyObject {
    /// The screen size in cells.
    var size: Size { get }
    /// Draws changed cells (each already safe to draw; wide characters fill two cells).
    func draw(_ changes: [CellChange])
    /// Shows the cursor at `position`, or hides it when nil.
    func setCursor(_ position: Position?)
    /// Forgets what the screen shows (after a resize or a resume); the next draw sends every cell.
    func clear()
    /// Makes everything drawn so far visible.
    func flush()
}
