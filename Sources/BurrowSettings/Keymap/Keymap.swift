import TerminalKit

/// Which key runs which command, as data: the help overlay and `docs/KEYMAP.md` are generated from it, so
/// they cannot drift from what the keys do.
///
/// For example: `Keymap.default.command(for: .character("j"))` is `.moveDown`.
public struct Keymap: Sendable {
    /// A titled group of bindings, in the order help shows them.
    public struct Section: Sendable {
        public let title: String
        public let bindings: [KeyBinding]

        public init(_ title: String, _ bindings: [KeyBinding]) {
            self.title = title
            self.bindings = bindings
        }
    }

    public let sections: [Section]
    /// The keys while the help overlay shows: moving commands scroll it, and every other key closes it.
    public let help: Section
    private let lookup: [[Key]: Command]
    private let helpLookup: [[Key]: Command]
    /// Every proper start of a sequence of several keys (`z` of `zo`): such a key waits for the next.
    private let prefixes: Set<[Key]>

    /// A keymap from sections and the help overlay's keys; a key bound twice keeps its first binding.
    public init(sections: [Section], help: Section = Section("In the help overlay", [])) {
        self.sections = sections
        self.help = help
        lookup = Self.lookup(sections)
        helpLookup = Self.lookup([help])
        var prefixes = Set<[Key]>()
        for binding in sections.flatMap(\.bindings) {
            for sequence in binding.sequences where sequence.count > 1 {
                for n in 1..<sequence.count { prefixes.insert(Array(sequence.prefix(n))) }
            }
        }
        self.prefixes = prefixes
    }

    private static func lookup(_ sections: [Section]) -> [[Key]: Command] {
        var lookup: [[Key]: Command] = [:]
        for section in sections {
            for binding in section.bindings {
                for sequence in binding.sequences where lookup[sequence] == nil { lookup[sequence] = binding.command }
            }
        }
        return lookup
    }

    /// The command bound to `key` alone, if any.
    public func command(for key: Key) -> Command? { lookup[[key]] }

    /// The command bound to the keys pressed so far, if they make a whole binding.
    public func command(for sequence: [Key]) -> Command? { lookup[sequence] }

    /// True when `sequence` starts a binding of several keys (and so waits for the next key).
    public func isPrefix(_ sequence: [Key]) -> Bool { prefixes.contains(sequence) }

    /// The command `key` runs while the help overlay shows; nil closes the overlay.
    public func helpCommand(for key: Key) -> Command? { helpLookup[[key]] }

    /// The first key bound to `command`, as people read it (for hints: "a: add").
    public func label(for command: Command) -> String? {
        Self.label(for: command, in: sections)
    }

    /// The first key bound to `command` in the help overlay, as people read it.
    public func helpLabel(for command: Command) -> String? {
        Self.label(for: command, in: [help])
    }

    private static func label(for command: Command, in sections: [Section]) -> String? {
        for section in sections {
            if let b = section.bindings.first(where: { $0.command == command }) { return b.labels.first }
        }
        return nil
    }

    /// Every binding outside the help overlay, in order.
    public var bindings: [KeyBinding] { sections.flatMap(\.bindings) }
}
