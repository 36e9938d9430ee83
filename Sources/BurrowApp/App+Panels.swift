import BurrowSettings
import TerminalKit

extension App {
    /// The panels, by the command that opens each: a new panel is a type conforming to ``Panel``, its command
    /// and keys in the keymap (`BurrowSettings`), and one line here.
    static let panels: [Command: @Sendable (App) -> any Panel] = [
        .help: { HelpPanel(keymap: $0.keymap) }
    ]

    /// Opens the panel `command` names; false when it names none.
    func openPanel(for command: Command) -> Bool {
        guard let make = Self.panels[command] else { return false }
        mode = .panel(make(self))
        return true
    }

    /// A key for the open panel: it keeps it, or closes.
    func panelKey(_ key: TerminalKit.Key, _ panel: any Panel) {
        if !panel.handle(key, area: layout.help) { mode = .browse }
    }
}
