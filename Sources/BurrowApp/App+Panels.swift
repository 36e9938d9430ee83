import BurrowSettings
import TerminalKit

extension App {
    /// The panels opened by a command of the list, by that command: a new panel is a type conforming to
    /// ``Panel``, its command and keys in the keymap (`BurrowSettings`), and one line here. Each returns nil
    /// (saying why on the status line) when it cannot open.
    static let panels: [Command: @Sendable (App) -> (any Panel)?] = [
        .help: { HelpPanel(keymap: $0.keymap) },
        .movePicker: { MovePicker.open(in: $0) },
        .editNoteInPlace: { NoteDraft.open(in: $0) },
        .commandLine: { _ in ExLine() }
    ]

    /// Opens the panel `command` names; false when it names none.
    func openPanel(for command: Command) -> Bool {
        guard let make = Self.panels[command] else { return false }
        if let panel = make(self) { mode = .panel(panel) }
        return true
    }

    /// A key for the open panel: it keeps it, or closes (unless it opened something else meanwhile).
    func panelKey(_ key: TerminalKit.Key, _ panel: any Panel) {
        if !panel.handle(key, in: self), case .panel(let open) = mode, open === panel { mode = .browse }
    }

    /// The outliner is leaving: the open panel keeps what it must (a note being edited is saved).
    func leavePanel() {
        guard case .panel(let panel) = mode else { return }
        mode = .browse
        panel.leave(in: self)
    }
}
