import BurrowSettings
import TerminalKit

/// A part of the outliner that takes over the middle of the screen (the capture line and the list) while it
/// is open, and owns everything about itself: its state, its keys (looked up in its own section of the
/// keymap, so the config file rebinds them and `?` lists them), its drawing into the area it is given, and
/// its hint on the status line. `App` opens one for a command (``App/panels``), hands it the keys, draws
/// it and closes it when it says so; it keeps none of its state.
///
/// ```swift
/// final class Clock: Panel {
///     func handle(_ key: Key, area: Rect) -> Bool { false }   // any key closes it
///     func render(into buffer: inout Buffer, area: Rect, theme: Theme) { buffer.write("12:00", at: area.origin, style: theme.hint) }
///     var hint: String { "any key: close" }
/// }
/// ```
protocol Panel: AnyObject {
    /// Handles `key` with the panel drawn in `area` (for page sizes); false closes the panel.
    func handle(_ key: Key, area: Rect) -> Bool
    /// Draws the panel into `area`, all of it.
    func render(into buffer: inout Buffer, area: Rect, theme: Theme)
    /// What the status line says while the panel is open ("Esc: close").
    var hint: String { get }
}
