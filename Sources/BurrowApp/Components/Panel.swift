import BurrowSettings
import TerminalKit

/// A part of the outliner that has the keys while it is open (the help overlay, the search line, the move
/// picker, the note editor), and owns everything about itself: its state, its keys (looked up in its own
/// section of the keymap, so the config file rebinds them and `?` lists them), its drawing into the layout
/// it is given, and its hint on the status line. `App` opens one (``App/panels``, or a component), hands it
/// the keys and pastes, draws it, and closes it when it says so; it keeps none of its state.
///
/// A panel is handed the app for what the app owns (the outline, the stack of levels, the status line): it
/// changes those only through the app's methods.
///
/// ```swift
/// final class Clock: Panel {
///     func handle(_ key: Key, in app: App) -> Bool { false }   // any key closes it
///     func render(into frame: inout Frame, layout: Layout, in app: App) {
///         frame.buffer.write("12:00", at: layout.help.origin, style: app.theme.hint)
///     }
///     func hint(in app: App) -> String { "any key: close" }
/// }
/// ```
protocol Panel: AnyObject {
    /// Handles `key`; false closes the panel.
    func handle(_ key: Key, in app: App) -> Bool
    /// Takes pasted text (nothing, unless the panel has text to paste into).
    func paste(_ text: String, in app: App)
    /// Brings what it shows up to date after an event or a poll, and scrolls as drawing it at `layout` would
    /// (so drawing changes nothing).
    func settle(_ layout: Layout, in app: App)
    /// Draws the panel, and what it leaves of the screen (the capture line, the level, the pane), at `layout`
    /// (all but the breadcrumbs and the status line).
    func render(into frame: inout Frame, layout: Layout, in app: App)
    /// What the status line says while the panel is open ("Esc: close").
    func hint(in app: App) -> String
    /// The outliner is leaving (quit, a signal) while the panel is open: it keeps what must be kept.
    func leave(in app: App)
    /// True while the panel shows the level (the note editor under it, the search line before it has
    /// results): the level then scrolls to its selection as it does while browsing.
    var showsLevel: Bool { get }
}

extension Panel {
    func paste(_ text: String, in app: App) {}
    func settle(_ layout: Layout, in app: App) {}
    func leave(in app: App) {}
    var showsLevel: Bool { false }
}
