import CNCursesW
import Foundation
import Testing

@testable import CursesBackend

/// ncurses' terminal set-up is process-wide: the tests that make a screen take turns.
enum TerminfoLock {
    static let lock = NSLock()
}

@Suite struct TerminfoFormatTests {
    /// The capabilities read from terminfo for xterm are the ones the other tests use, and every parameterized
    /// string of several terminals' descriptions comes out as ncurses' `tiparm` makes it.
    @Test func capabilitiesAndTheirParametersAreTerminfos() throws {
        TerminfoLock.lock.lock()
        defer { TerminfoLock.lock.unlock() }
        let out = try #require(fopen("/dev/null", "w"))
        let input = try #require(fopen("/dev/null", "r"))
        defer { fclose(out); fclose(input) }
        var compared = 0
        for name in ["xterm-256color", "xterm", "screen-256color", "tmux-256color", "linux", "vt100", "rxvt-unicode-256color", "ansi"] {
            guard let screen = newterm(name, out, input) else { continue }
            defer { endwin(); delscreen(screen) }
            if name == "xterm-256color" { #expect(TerminalCapabilities.fromTerminfo(colors: true) == .xterm256) }
            // No padding reaches the screen (vt100's `cup` ends in `$<5>`).
            if let c = TerminalCapabilities.fromTerminfo(colors: true) {
                let strings = [c.cursorAddress, c.scrollRegion, c.scrollReverse, c.attributesOff, c.bold, c.reverse, c.underline]
                #expect(!strings.contains { $0?.contains("$<") == true }, "\(name): \(strings)")
                if name == "vt100" { #expect(c.cursorAddress == "\u{1B}[%i%p1%d;%p2%dH" && c.scrollReverse == "\u{1B}M") }
            }
            for cap in ["cup", "csr", "setaf", "setab", "hpa", "vpa", "cuf", "cud", "indn", "rin"] {
                guard let value = burrow_tigetstr(cap) else { continue }
                for (a, b) in [(0, 0), (4, 9), (7, 7), (8, 15), (15, 0), (16, 99), (23, 79), (99, 199), (196, 3), (255, 255)] {
                    let theirs = burrow_tiparm2(value, Int32(a), Int32(b)).map { Array(String(cString: $0).utf8) } ?? []
                    #expect(TerminfoFormat.apply(String(cString: value), [a, b]) == theirs, "\(name) \(cap) \(a) \(b)")
                    compared += 1
                }
            }
        }
        print("terminfo formats compared with tiparm: \(compared)")
        #expect(compared >= 100)
    }

    @Test func conditionalsArithmeticAndPrintfForms() {
        #expect(TerminfoFormat.apply("%p1%{3}%+%d|%p1%p2%*%d|%p2%p1%/%d|%p2%p1%m%d", [4, 9]) == Array("7|36|2|1".utf8))
        #expect(TerminfoFormat.apply("%?%p1%{1}%=%tone%e%p1%{2}%=%ttwo%eother%;", [2]) == Array("two".utf8))
        #expect(TerminfoFormat.apply("%?%p1%t%?%p2%tA%eB%;%eC%;", [1, 0]) == Array("B".utf8))
        #expect(TerminfoFormat.apply("%p1%02d %p1%3d %p1%x %p1%c %'A'%d %%", [5]) == Array("05   5 5 \u{5} 65 %".utf8))
        #expect(TerminfoFormat.apply("%p1%Pa%ga%ga%+%d", [21]) == Array("42".utf8))
    }

    @Test func paddingIsLeftOut() {
        #expect(TerminalCapabilities.withoutPadding("\u{1B}[%i%p1%d;%p2%dH$<5>") == "\u{1B}[%i%p1%d;%p2%dH")
        #expect(TerminalCapabilities.withoutPadding("$<2*/>\u{1B}[m$<1.5>x") == "\u{1B}[mx")
        // Not padding: kept as written.
        #expect(TerminalCapabilities.withoutPadding("a$<b>$<>$5") == "a$<b>$<>$5")
    }
}
