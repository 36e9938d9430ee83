/// The outliner's settings from the config file, carried to `App` for the commands that read them.
///
/// For example: `App(outline: outline, settings: AppSettings(hideDoneByDefault: true))`.
public struct AppSettings: Equatable, Sendable {
    /// Whether done items start hidden (the hide-done command toggles them from there).
    public var hideDoneByDefault: Bool
    /// Whether copying may also put items on the system clipboard through the terminal (OSC 52).
    public var allowsClipboard: Bool

    public init(hideDoneByDefault: Bool = false, allowsClipboard: Bool = true) {
        self.hideDoneByDefault = hideDoneByDefault
        self.allowsClipboard = allowsClipboard
    }
}
