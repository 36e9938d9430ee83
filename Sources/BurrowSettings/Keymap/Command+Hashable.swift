extension Command: Hashable {
    // By case, not by name: a `String` raw value makes the standard library hash and compare the name, and
    // every key asks each component's set of commands, and the panels' table, whether it holds the command.
    public static func == (lhs: Command, rhs: Command) -> Bool { lhs.ordinal == rhs.ordinal }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The case's place in the declaration (`CaseIterable.allCases` order), as the enum stores it.
    private var ordinal: UInt16 {
        withUnsafeBytes(of: self) { bytes in bytes.count == 1 ? UInt16(bytes[0]) : bytes.loadUnaligned(as: UInt16.self) }
    }
}
