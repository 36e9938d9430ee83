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
    private let lookup: [Key: Command]

    /// A keymap from sections; a key bound twice keeps its first binding.
    public init(sections: [Section]) {
        self.sections = sections
        var lookup: [Key: Command] = [:]
        for section in sections {
            for binding in section.bindings {
                for key in binding.keys where lookup[key] == nil { lookup[key] = binding.command }
            }
        }
        self.lookup = lookup
    }

    /// The command bound to `key`, if any.
    public func command(for key: Key) -> Command? { lookup[key] }

    /// The first key bound to `command`, as people read it (for hints: "a: add").
    public func label(for command: Command) -> String? {
        for section in sections {
            if let b = section.bindings.first(where: { $0.command == command }) { return b.keys.first?.label }
        }
        return nil
    }

    /// Every binding, in order.
    public var bindings: [KeyBinding] { sections.flatMap(\.bindings) }
}
