/// The textual key notation used by tests and the keymap, vim-style: `j`, `<Enter>`, `<C-z>`, `<S-Up>`,
/// `<A-x>` (or `<M-x>`), `<F5>`, `<Space>`, `<lt>` for `<`.
///
/// A key sequence is tokens separated by spaces; a bare token types each of its characters:
/// `Key.parseSequence("ab <Enter> <C-z>")` is a, b, Enter, Ctrl-Z.
extension Key: CustomStringConvertible {
    /// A key's notation could not be read.
    public struct NotationError: Error, Equatable, CustomStringConvertible {
        public let token: String
        public var description: String { "unknown key notation “\(token)”" }
    }

    static let names: [(String, Code)] = [
        ("Enter", .enter), ("CR", .enter), ("Return", .enter), ("Esc", .escape), ("Escape", .escape),
        ("Tab", .tab), ("BS", .backspace), ("Backspace", .backspace), ("Del", .delete), ("Delete", .delete),
        ("Ins", .insert), ("Insert", .insert), ("Up", .up), ("Down", .down), ("Left", .left), ("Right", .right),
        ("Home", .home), ("End", .end), ("PageUp", .pageUp), ("PgUp", .pageUp), ("PageDown", .pageDown),
        ("PgDn", .pageDown), ("Space", .character(" ")), ("lt", .character("<")), ("gt", .character(">"))
    ]

    /// Reads one key in notation: `"j"`, `"<C-z>"`, `"<S-Up>"`.
    public static func parse(_ notation: String) throws(NotationError) -> Key {
        if notation.count == 1, let c = notation.first { return .character(c) }
        guard notation.count > 2, notation.first == "<", notation.last == ">" else { throw NotationError(token: notation) }
        var body = Substring(notation.dropFirst().dropLast())
        var modifiers: Modifiers = []
        while body.count > 2, body[body.index(after: body.startIndex)] == "-" {
            switch body.first!.uppercased() {
            case "C": modifiers.insert(.control)
            case "S": modifiers.insert(.shift)
            case "A", "M": modifiers.insert(.alt)
            default: throw NotationError(token: notation)
            }
            body = body.dropFirst(2)
        }
        if body.count == 1, let c = body.first {
            // <C-Z> and <C-z> mean the same key; <S-a> is just "A".
            if modifiers.contains(.control) { return Key(.character(Character(c.lowercased())), modifiers: modifiers.subtracting(.shift)) }
            if modifiers.contains(.shift) { return Key(.character(Character(c.uppercased())), modifiers: modifiers.subtracting(.shift)) }
            return Key(.character(c), modifiers: modifiers)
        }
        if let (_, code) = names.first(where: { $0.0.caseInsensitiveCompare(body) }) {
            return Key(code, modifiers: modifiers)
        }
        if body.first == "F" || body.first == "f", let n = Int(body.dropFirst()), n >= 1, n <= 63 {
            return Key(.function(n), modifiers: modifiers)
        }
        throw NotationError(token: notation)
    }

    /// Reads keys: `"j j <Enter> <C-z>"`. Spaces separate; other characters are typed as themselves, and a
    /// `<…>` that names a key is that key, so `abc` is three keys and `ab<Enter>` three.
    public static func parseSequence(_ notation: String) throws(NotationError) -> [Key] {
        var keys: [Key] = []
        var rest = Substring(notation)
        while let c = rest.first {
            if c == " " {
                rest = rest.dropFirst()
                continue
            }
            if c == "<", let close = rest.dropFirst().firstIndex(of: ">") {
                let token = String(rest[...close])
                if token.count > 2, !token.dropFirst().dropLast().contains(where: { $0 == "<" || $0 == " " }) {
                    keys.append(try parse(token))
                    rest = rest[rest.index(after: close)...]
                    continue
                }
            }
            keys.append(.character(c))
            rest = rest.dropFirst()
        }
        return keys
    }

    /// The key in notation, the inverse of `parse`: `"<C-z>"`, `"J"`, `"<S-Up>"`.
    public var description: String {
        let name: String
        var bracketed = !modifiers.isEmpty
        switch code {
        case .character(" "): name = "Space"; bracketed = true
        case .character("<"): name = "lt"; bracketed = true
        case .character(let c): name = String(c)
        case .function(let n): name = "F\(n)"; bracketed = true
        default:
            name = Self.names.first(where: { $0.1 == code }).map { $0.0 } ?? "?"
            bracketed = true
        }
        guard bracketed else { return name }
        var prefix = ""
        if modifiers.contains(.control) { prefix += "C-" }
        if modifiers.contains(.alt) { prefix += "A-" }
        if modifiers.contains(.shift) { prefix += "S-" }
        return "<" + prefix + name + ">"
    }

    /// The key as people read it in help: `u`, `Ctrl-R`, `Shift-↑`, `Enter`, `Space`, `PgDn`.
    public var label: String {
        let name: String
        switch code {
        case .character(" "): name = "Space"
        case .character(let c): name = modifiers.contains(.control) ? c.uppercased() : String(c)
        case .enter: name = "Enter"
        case .escape: name = "Esc"
        case .tab: name = "Tab"
        case .backspace: name = "Backspace"
        case .delete: name = "Delete"
        case .insert: name = "Insert"
        case .up: name = "↑"
        case .down: name = "↓"
        case .left: name = "←"
        case .right: name = "→"
        case .home: name = "Home"
        case .end: name = "End"
        case .pageUp: name = "PgUp"
        case .pageDown: name = "PgDn"
        case .function(let n): name = "F\(n)"
        }
        var prefix = ""
        if modifiers.contains(.control) { prefix += "Ctrl-" }
        if modifiers.contains(.alt) { prefix += "Alt-" }
        if modifiers.contains(.shift) { prefix += "Shift-" }
        return prefix + name
    }
}

extension String {
    fileprivate func caseInsensitiveCompare(_ other: Substring) -> Bool {
        lowercased() == other.lowercased()
    }
}
