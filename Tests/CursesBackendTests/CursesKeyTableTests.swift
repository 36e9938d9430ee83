import CNCursesW
import Foundation
import TerminalKit
import TestSupport
import Testing

@testable import CursesBackend

struct CursesKeyTableTests {
    @Test(
        arguments: [
            (KEY_UP, Key.up), (KEY_DOWN, Key.down), (KEY_LEFT, Key.left), (KEY_RIGHT, Key.right),
            (KEY_BACKSPACE, Key.backspace), (KEY_DC, Key.delete), (KEY_IC, Key.insert), (KEY_ENTER, Key.enter),
            (KEY_BTAB, Key.backTab), (KEY_HOME, Key.home), (KEY_END, Key.end), (KEY_PPAGE, Key.pageUp),
            (KEY_NPAGE, Key.pageDown), (KEY_SR, Key(.up, modifiers: .shift)), (KEY_SF, Key(.down, modifiers: .shift)),
            (KEY_SLEFT, Key(.left, modifiers: .shift)), (KEY_SRIGHT, Key(.right, modifiers: .shift)),
            (burrow_key_f(1), Key(.function(1))), (burrow_key_f(12), Key(.function(12))),
            (burrow_key_f(13), Key(.function(1), modifiers: .shift)), (burrow_key_f(29), Key(.function(5), modifiers: .control)),
            (burrow_key_f(49), Key(.function(1), modifiers: .alt))
        ] as [(Int32, Key)])
    func fixedCodes(code: Int32, key: Key) {
        let table = CursesKeyTable { _ in nil }
        #expect(table.key(for: code) == key)
    }

    @Test func modifiedKeysComeFromTheTerminalDescription() {
        let codes = ["kUP3": Int32(600), "kDN2": 601, "kLFT5": 602, "kRIT6": 603, "kDC5": 604, "kHOM2": 605]
        let table = CursesKeyTable { codes[$0] }
        #expect(table.key(for: 600) == Key(.up, modifiers: .alt))
        #expect(table.key(for: 601) == Key(.down, modifiers: .shift))
        #expect(table.key(for: 602) == Key(.left, modifiers: .control))
        #expect(table.key(for: 603) == Key(.right, modifiers: [.control, .shift]))
        #expect(table.key(for: 604) == Key(.delete, modifiers: .control))
        #expect(table.key(for: 605) == Key(.home, modifiers: .shift))
        #expect(table.key(for: 606) == nil)
    }

    /// Terminal descriptions drawn at random: any of the modified-key capabilities present, absent or
    /// cancelled (a code of 0 or less), at the distinct codes above `KEY_MAX` ncurses hands out at run time.
    /// Each present one gives its key with the modifiers xterm's parameter stands for (written out here, not
    /// computed as the table does), no other code gives a key, and the fixed codes are untouched.
    @Test(arguments: TestSeed.seeds([1, 2, 3, 4, 5]))
    func randomTerminalDescriptions(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let names: [(String, Key.Code)] = [
            ("kUP", .up), ("kDN", .down), ("kLFT", .left), ("kRIT", .right), ("kHOM", .home), ("kEND", .end),
            ("kNXT", .pageDown), ("kPRV", .pageUp), ("kDC", .delete), ("kIC", .insert)
        ]
        let modifiers: [Int: Key.Modifiers] = [
            2: .shift, 3: .alt, 4: [.alt, .shift], 5: .control, 6: [.control, .shift], 7: [.control, .alt],
            8: [.control, .alt, .shift]
        ]
        let runtimeCodes = (Int32(KEY_MAX) + 1)...(Int32(KEY_MAX) + 200)
        var unused = Array(runtimeCodes).shuffled(using: &rng)
        var description: [String: Int32] = [:]
        var expected: [Int32: Key] = [:]
        for (name, code) in names {
            for parameter in 2...8 {
                switch rng.below(4) {
                case 0: break
                case 1: description[name + String(parameter)] = rng.pick([0, -1])
                default:
                    let c = unused.removeLast()
                    description[name + String(parameter)] = c
                    expected[c] = Key(code, modifiers: modifiers[parameter]!)
                }
            }
        }
        let table = CursesKeyTable { description[$0] }
        let wrong = runtimeCodes.filter { table.key(for: $0) != expected[$0] }
        #expect(wrong.isEmpty, "codes \(wrong) of \(description.sorted { $0.key < $1.key }), \(rng.note)")
        #expect(table.key(for: 0) == nil && table.key(for: -1) == nil, "\(rng.note)")
        #expect(table.key(for: KEY_UP) == .up && table.key(for: KEY_SLEFT) == Key(.left, modifiers: .shift), "\(rng.note)")
    }

    /// ncurses assigns codes to xterm's modified arrows at run time; resolve them as the backend does, on a
    /// screen that writes to /dev/null.
    @Test func resolvesXtermModifiedArrowsThroughTerminfo() throws {
        TerminfoLock.lock.lock()
        defer { TerminfoLock.lock.unlock() }
        let out = try #require(fopen("/dev/null", "w"))
        let input = try #require(fopen("/dev/null", "r"))
        defer { fclose(out); fclose(input) }
        let screen = try #require(newterm("xterm-256color", out, input))
        defer { endwin(); delscreen(screen) }
        keypad(burrow_stdscr(), true)
        let table = CursesKeyTable.fromTerminfo()
        let altUp = try #require(burrow_tigetstr("kUP3"))
        #expect(String(cString: altUp) == "\u{1B}[1;3A")
        #expect(table.key(for: key_defined(altUp)) == Key(.up, modifiers: .alt))
        let ctrlRight = try #require(burrow_tigetstr("kRIT5"))
        #expect(table.key(for: key_defined(ctrlRight)) == Key(.right, modifiers: .control))
    }
}
