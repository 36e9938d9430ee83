/// Something that happened at the terminal.
public enum InputEvent: Hashable, Sendable {
    /// A key press.
    case key(Key)
    /// Text pasted with bracketed paste, whole (it may hold newlines and control characters).
    case paste(String)
    /// A mouse click or wheel turn.
    case mouse(MouseEvent)
    /// The screen changed size; the next frame is drawn whole.
    case resize(Size)
    /// The program was resumed after a suspend (SIGTSTP); the next frame is drawn whole.
    case resumed
    /// The program was asked to end (SIGINT, SIGTERM or SIGHUP): finish the work at hand and stop.
    case terminate(signal: Int32)
}
