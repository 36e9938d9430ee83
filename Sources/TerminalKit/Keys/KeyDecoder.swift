/// Turns what a terminal sends into keys: control bytes, and the xterm escape sequences a terminal description
/// may not list (modified arrows, `CSI n ~` keys, SS3 keys), so that an unknown sequence never arrives as
/// typed text.
///
/// For example: `KeyDecoder.control(0x1A)` is Ctrl-Z; `KeyDecoder.csi(parameters: "1;2", final: "A")` is Shift-↑.
public enum KeyDecoder {
    /// The key for a C0 control byte or DEL; nil for anything else.
    ///
    /// Backspace arrives as DEL (127) or ^H (8) depending on the terminal: both are Backspace.
    public static func control(_ byte: UInt32) -> Key? {
        switch byte {
        case 0x00: return Key(.character(" "), modifiers: .control)
        case 0x08, 0x7F: return .backspace
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x1B: return .escape
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(UInt8(0x60 + byte))))
        case 0x1C: return .ctrl("\\")
        case 0x1D: return .ctrl("]")
        case 0x1E: return .ctrl("^")
        case 0x1F: return .ctrl("_")
        default: return nil
        }
    }

    /// The key a scalar read from the terminal stands for: a control key, or the character typed.
    public static func scalar(_ scalar: Unicode.Scalar) -> Key {
        control(scalar.value) ?? .character(Character(scalar))
    }

    /// The key sent as `ESC x` (Alt held, or Esc pressed just before).
    public static func alt(_ scalar: Unicode.Scalar) -> Key {
        var key = self.scalar(scalar)
        key.modifiers.insert(.alt)
        return key
    }

    /// An xterm modifier parameter (2 = Shift, 3 = Alt, 5 = Ctrl, …) as modifiers.
    public static func modifiers(parameter: Int) -> Key.Modifiers {
        parameter > 1 ? Key.Modifiers(rawValue: UInt8(truncatingIfNeeded: (parameter - 1) & 7)) : []
    }

    /// The key for `ESC [ parameters final`, or nil when it is not a key (bracketed paste markers included).
    public static func csi(parameters: String, final: Character) -> Key? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = fields.first.flatMap { $0 }
        let modifiers = fields.count > 1 ? self.modifiers(parameter: fields[1] ?? 1) : []
        let code: Key.Code
        switch final {
        case "A": code = .up
        case "B": code = .down
        case "C": code = .right
        case "D": code = .left
        case "H": code = .home
        case "F": code = .end
        case "P", "Q", "R", "S": code = .function(Int(final.asciiValue! - 0x50 + 1))
        case "Z": return .backTab
        case "~":
            switch first {
            case 1, 7: code = .home
            case 2: code = .insert
            case 3: code = .delete
            case 4, 8: code = .end
            case 5: code = .pageUp
            case 6: code = .pageDown
            case .some(let n) where (11...15).contains(n): code = .function(n - 10)
            case .some(let n) where (17...21).contains(n): code = .function(n - 11)
            case .some(let n) where (23...24).contains(n): code = .function(n - 12)
            default: return nil
            }
        default: return nil
        }
        return Key(code, modifiers: modifiers)
    }

    /// The key for `ESC O final` (SS3: application-mode arrows and F1–F4).
    public static func ss3(final: Character) -> Key? {
        csi(parameters: "", final: final)
    }
}
