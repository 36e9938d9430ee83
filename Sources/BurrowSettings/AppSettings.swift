import ObjectGraph

/// The outliner's settings from the config file, carried to `App` for the commands that read them.
///
/// For example: `App(outline: outline, settings: AppSettings(hideDoneByDefault: true))`.
public struct AppSettings: Equatable, Sendable {
    /// Whether done items start hidden (the hide-done command toggles them from there).
    public var hideDoneByDefault: Bool
    /// Whether copying may also put items on the system clipboard through the terminal (OSC 52).
    public var allowsClipboard: Bool
    /// How much undo history the outline keeps (applied when this outliner records an action).
    public var historyLimits: HistoryLimits

    public init(hideDoneByDefault: Bool = false, allowsClipboard: Bool = true, historyLimits: HistoryLimits = .standard) {
        self.hideDoneByDefault = hideDoneByDefault
        self.allowsClipboard = allowsClipboard
        self.historyLimits = historyLimits
    }
}
