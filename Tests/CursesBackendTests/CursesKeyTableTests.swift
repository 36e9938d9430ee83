import CNCursesW
import Foundation
import Testing
@testable import CursesBackend
import TerminalKit

struct CursesKeyTableTests {
    @Test(arguments: [
        (KEY_UP, Key.up), (KEY_DOWN, Key.down), (KEY_LEFT, Key.left), (KEY_RIGHT, Key.right),
        (KEY_BACKSPACE, Key.backspace), (KEY_DC, Key.delete), (KEY_IC, Key.insert), (KEY_ENTER, Key.enter),
        (KEY_BTAB, Key.backTab), (KEY_HOME, Key.home), (KEY_END, Key.end), (KEY_PPAGE, Key.pageUp),
        (KEY_NPAGE, Key.pageDown), (KEY_SR, Key(.up, modifiers: .shift)), (KEY_SF, Key(.down, modifiers: .shift)),
        (KEY_SLEFT, Key(.left, modifiers: .shift)), (KEY_SRIGHT, Key(.right, modifiers: .shift)),
        (burrow_key_f(1), Key(.function(1))), (burrow_key_f(12), Key(.function(12))),
        (burrow_key_f(13), Key(.function(1), modifiers: .shift)), (burrow_key_f(29), Key(.function(5), modifiers: .control)),
        (burrow_key_f(49), Key(.function(1), modifiers: .alt)),
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

    /// ncurses assigns codes to xterm's modified arrows at run time; resolve them as the backend does, on a
    /// screen that writes to /dev/null.
    @Test func resolvesXtermModifiedArrowsThroughTerminfo() throws {
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
