import TerminalKit

/// Keys bound to a command, with the help text shown for them. Each binding is one key or a sequence of
/// keys pressed one after the other (`zo`: z, then o).
public struct KeyBinding: Sendable {
    /// The alternatives, each a sequence of one or more keys.
    public let sequences: [[Key]]
    public let command: Command
    public let help: String

    /// A binding from keys in notation, alternatives separated by spaces, a sequence written as one word:
    /// `KeyBinding("j <Down>", .moveDown, "Move down")`, `KeyBinding("zo +", .openFold, "Open")`.
    public init(_ notation: String, _ command: Command, _ help: String) {
        let sequences = notation.split(separator: " ").map { (try? Key.parseSequence(String($0))) ?? [] }
        precondition(!sequences.isEmpty && sequences.allSatisfy { !$0.isEmpty }, "bad key notation in the keymap: \(notation)")
        self.init(sequences: sequences, command, help)
    }

    /// A binding from key sequences.
    public init(sequences: [[Key]], _ command: Command, _ help: String) {
        self.sequences = sequences
        self.command = command
        self.help = help
    }

    /// The alternatives that are a single key.
    public var keys: [Key] { sequences.compactMap { $0.count == 1 ? $0[0] : nil } }

    /// Each alternative as people read it: `j`, `<Down>`, `zo`.
    public var labels: [String] { sequences.map(KeyBinding.label) }

    /// A sequence as people read it: its keys' labels one after the other.
    public static func label(_ sequence: [Key]) -> String { sequence.map(\.label).joined() }
}
