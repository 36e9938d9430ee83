import CNCursesW
import TerminalKit

/// Maps ncurses key codes to keys: the fixed codes of `<curses.h>` plus the codes ncurses assigns at run time
/// to modified keys the terminal describes in terminfo (`kUP3` is Alt-↑, `kDN2` Shift-↓, …).
struct CursesKeyTable {
    private(set) var keys: [Int32: Key]

    /// Builds the table; `codeForCapability` turns a terminfo capability name into the code ncurses returns
    /// for it (nil when the terminal lacks it).
    init(codeForCapability: (String) -> Int32?) {
        keys = Self.fixed
        for n in 1...60 {
            // ncurses numbers shifted and controlled function keys on: F13–F24 are Shift-F1…, F25– Ctrl-F1…
            let (base, group) = ((n - 1) % 12 + 1, (n - 1) / 12)
            let modifiers: [Key.Modifiers] = [[], .shift, .control, [.control, .shift], .alt]
            keys[burrow_key_f(Int32(n))] = Key(.function(base), modifiers: modifiers[group])
        }
        let named: [(String, Key.Code)] = [
            ("kUP", .up), ("kDN", .down), ("kLFT", .left), ("kRIT", .right), ("kHOM", .home), ("kEND", .end),
            ("kNXT", .pageDown), ("kPRV", .pageUp), ("kDC", .delete), ("kIC", .insert)
        ]
        for (name, code) in named {
            for parameter in 2...8 {
                if let c = codeForCapability(name + String(parameter)), c > 0 {
                    keys[c] = Key(code, modifiers: KeyDecoder.modifiers(parameter: parameter))
                }
            }
        }
    }

    /// The table for the current ncurses screen (keypad on), from its terminal description.
    static func fromTerminfo() -> CursesKeyTable {
        CursesKeyTable { name in burrow_tigetstr(name).map { key_defined($0) } }
    }

    /// The key for a code `get_wch` returned with `KEY_CODE_YES`.
    func key(for code: Int32) -> Key? { keys[code] }

    private static let fixed: [Int32: Key] = [
        KEY_UP: .up, KEY_DOWN: .down, KEY_LEFT: .left, KEY_RIGHT: .right,
        KEY_HOME: .home, KEY_END: .end, KEY_PPAGE: .pageUp, KEY_NPAGE: .pageDown,
        KEY_DC: .delete, KEY_IC: .insert, KEY_BACKSPACE: .backspace, KEY_ENTER: .enter, KEY_BTAB: .backTab,
        KEY_SR: Key(.up, modifiers: .shift), KEY_SF: Key(.down, modifiers: .shift),
        KEY_SLEFT: Key(.left, modifiers: .shift), KEY_SRIGHT: Key(.right, modifiers: .shift),
        KEY_SHOME: Key(.home, modifiers: .shift), KEY_SEND: Key(.end, modifiers: .shift),
        KEY_SDC: Key(.delete, modifiers: .shift), KEY_SIC: Key(.insert, modifiers: .shift),
        KEY_SNEXT: Key(.pageDown, modifiers: .shift), KEY_SPREVIOUS: Key(.pageUp, modifiers: .shift),
        KEY_A1: .home, KEY_C1: .end, KEY_A3: .pageUp, KEY_C3: .pageDown
    ]
}
