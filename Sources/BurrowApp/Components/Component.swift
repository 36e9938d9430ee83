import BurrowSettings

/// A part of the outliner that lives beside the list (the detail pane, the done filter, search): it owns its
/// state and the list's commands that concern it, and brings what it shows up to date when the outline or
/// the selection changed. `App` lists the components (``App/components``), hands each its commands and
/// settles them after every event; it keeps none of their state.
///
/// A component is handed the app it belongs to for what the app owns (the outline, the stack of levels, the
/// status line, the layout): it changes those only through the app's methods.
protocol Component: AnyObject {
    /// The list's commands it runs (`I`, `]`, `[` for the detail pane).
    var commands: Set<Command> { get }
    /// Runs one of ``commands``.
    func run(_ command: Command, in app: App)
    /// Brings what it shows up to date after an event or a poll (never while drawing).
    func settle(in app: App)
}
