import TerminalKit

/// Keys bound to a command, with the help text shown for them.
public struct KeyBinding: Sendable {
    public let keys: [Key]
    public let command: Command
    public let help: String

    /// A binding from keys in notation: `KeyBinding("j <Down>", .moveDown, "Move down")`.
    public init(_ notation: String, _ command: Command, _ help: String) {
        self.keys = (try? Key.parseSequence(notation)) ?? []
        precondition(!keys.isEmpty, "bad key notation in the keymap: \(notation)")
        self.command = command
        self.help = help
    }
}
