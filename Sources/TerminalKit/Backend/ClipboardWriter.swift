/// A terminal that can put text on the system clipboard: through the OSC 52 escape sequence (`OSC52`), which
/// reaches the clipboard of the machine the terminal runs on, over ssh and through tmux, with no display
/// server. A terminal that does not understand it ignores it.
///
/// Implemented by the ncurses backend (`CursesBackend`) and by `TestBackend`, which records what it was sent.
public protocol ClipboardWriter: AnyObject {
    /// Puts `text` on the clipboard (the caller has made it safe to paste and small enough to send).
    func copyToClipboard(_ text: String)
}
