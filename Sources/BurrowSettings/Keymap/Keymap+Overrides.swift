import TerminalKit

extension Keymap {
    /// This keymap with the keys of some commands of `context` replaced (from a config file): each binding of
    /// an overridden command keeps its section, place and help text and gets the new keys (none unbinds it).
    ///
    /// For example: `Keymap.default.rebinding([.delete: [[.character("x")]]])`.
    public func rebinding(_ overrides: [Command: [[Key]]], in context: KeyContext = .browse) -> Keymap {
        rebinding([context: overrides])
    }

    /// This keymap with keys replaced in several contexts at once.
    public func rebinding(_ overrides: [KeyContext: [Command: [[Key]]]]) -> Keymap {
        guard overrides.values.contains(where: { !$0.isEmpty }) else { return self }
        let rebound = sections.map { section in
            let mine = overrides[section.context] ?? [:]
            let bindings: [KeyBinding] = section.bindings.map { b in mine[b.command].map { b.rebound(to: $0) } ?? b }
            return Section(section.title, section.context, bindings)
        }
        return Keymap(sections: rebound)
    }

    /// The commands a context's table may rebind: those it binds by default.
    public static func commands(in context: KeyContext) -> Set<Command> {
        Set(Keymap.default.bindings(in: context).map(\.command))
    }
}

extension KeyBinding {
    /// The same command and help text on other keys or sequences (possibly none).
    func rebound(to sequences: [[Key]]) -> KeyBinding {
        KeyBinding(sequences: sequences, command, help)
    }
}
