import TerminalKit

extension Keymap {
    /// This keymap with the keys of some commands replaced (from a config file): each binding of an overridden
    /// command keeps its section, place and help text and gets the new keys (none unbinds it). The help
    /// overlay's own keys stay as they are.
    ///
    /// For example: `Keymap.default.rebinding([.delete: [[.character("x")]]])`.
    public func rebinding(_ overrides: [Command: [[Key]]]) -> Keymap {
        guard !overrides.isEmpty else { return self }
        let rebound = sections.map { section in
            Section(section.title, section.bindings.map { b in overrides[b.command].map { b.rebound(to: $0) } ?? b })
        }
        return Keymap(sections: rebound, help: help)
    }
}

extension KeyBinding {
    /// The same command and help text on other keys or sequences (possibly none).
    func rebound(to sequences: [[Key]]) -> KeyBinding {
        KeyBinding(sequences: sequences, command, help)
    }
}
