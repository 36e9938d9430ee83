extension KeyContext: Hashable {
    // By case, not by name (as `Command`): every key looks its context up in the keymap's tables.
    public static func == (lhs: KeyContext, rhs: KeyContext) -> Bool { lhs.ordinal == rhs.ordinal }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// The case's place in the declaration, as the enum stores it.
    var ordinal: Int { withUnsafeBytes(of: self) { Int($0[0]) } }
}
