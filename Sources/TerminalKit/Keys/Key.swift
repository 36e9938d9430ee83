/// A key press as a value: a code and modifiers.
///
/// Printable keys are characters (`Shift` is already in the character: `J` is `.character("J")`); control
/// keys are the lower-case letter with `.control`. Tab, Enter, Backspace and Escape are their own codes even
/// though terminals send them as Ctrl-I, Ctrl-M, Ctrl-H and Ctrl-[.
///
/// For example: `Key.ctrl("z")`, `Key(.up, modifiers: .shift)`, or `try Key.parse("<C-z>")`.
public struct Key: Hashable, Sendable {
    public enum Code: Hashable, Sendable {
        case character(Character)
        case enter, escape, tab, backspace, delete, insert
        case up, down, left, right, home, end, pageUp, pageDown
        /// F1 to F12 (and beyond, as far as the terminal goes).
        case function(Int)
    }

    /// Modifier keys, with xterm's bit values (its modifier parameter is these bits plus one).
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1)
        public static let alt = Modifiers(rawValue: 2)
        public static let control = Modifiers(rawValue: 4)
    }

    public var code: Code
    public var modifiers: Modifiers

    public init(_ code: Code, modifiers: Modifiers = []) {
        self.code = code
        self.modifiers = modifiers
    }

    public static func character(_ c: Character) -> Key { Key(.character(c)) }
    /// Ctrl and a letter: `Key.ctrl("r")`.
    public static func ctrl(_ c: Character) -> Key { Key(.character(Character(c.lowercased())), modifiers: .control) }
    /// Alt (or Esc then) a key: `Key.alt("x")`.
    public static func alt(_ c: Character) -> Key { Key(.character(c), modifiers: .alt) }

    public static let enter = Key(.enter)
    public static let escape = Key(.escape)
    public static let tab = Key(.tab)
    public static let backTab = Key(.tab, modifiers: .shift)
    public static let backspace = Key(.backspace)
    public static let delete = Key(.delete)
    public static let insert = Key(.insert)
    public static let up = Key(.up)
    public static let down = Key(.down)
    public static let left = Key(.left)
    public static let right = Key(.right)
    public static let home = Key(.home)
    public static let end = Key(.end)
    public static let pageUp = Key(.pageUp)
    public static let pageDown = Key(.pageDown)

    /// The character this key types into text, if it types one (no Ctrl or Alt).
    public var text: Character? {
        guard case .character(let c) = code, modifiers.isDisjoint(with: [.control, .alt]) else { return nil }
        return c
    }
}
