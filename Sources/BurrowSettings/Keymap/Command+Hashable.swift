extension Command: Hashable {
    // By case, not by name: a `String` raw value makes the standard library hash and compare the name, and
    // every key asks each component's set of commands, and the panels' table, whether it holds the command.
    public static func == (lhs: Command, rhs: Command) -> Bool { lhs.ordinal == rhs.ordinal }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The case's place in the declaration, as the enum stores it: one byte while there are at most 256
    /// cases (`KeymapTests.commandsHashAndCompareByCase` checks the size, so a 257th case fails a test).
    private var ordinal: UInt8 { withUnsafeBytes(of: self) { $0[0] } }
}
