import TerminalKit
import TestSupport
import Testing

struct SanitizerTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("\u{1B}[2J\u{1B}[H", "^[[2J^[[H"),  // CSI: clear screen, home
        ("\u{1B}]0;pwned\u{07}", "^[]0;pwned^G"),  // OSC: window title
        ("\u{1B}]52;c;aGk=\u{1B}\\", "^[]52;c;aGk=^[\\"),  // OSC 52: clipboard
        ("\u{9B}31m red", "<U+009B>31m red"),  // C1 CSI
        ("\u{9D}0;x\u{9C}", "<U+009D>0;x<U+009C>"),  // C1 OSC and ST
        ("a\u{7F}b\u{00}c", "a^?b^@c"),
        ("tab\there", "tab^Ihere"),
        ("line\r\nbreak", "line^M^Jbreak"),
        ("\u{202E}txt.exe", "<U+202E>txt.exe"),  // bidi override
        ("日本 café 😀", "日本 café 😀")
    ])
    func visibleForms(raw: String, visible: String) {
        #expect(Sanitizer.visible(raw) == visible)
        #expect(Sanitizer.isSafe(Sanitizer.visible(raw)))
    }

    /// Text printed to a terminal line by line (a command's output) keeps its line feeds and tabs, which only
    /// move the cursor on; everything else that a terminal would act on is made visible, carriage returns too.
    @Test func printedTextKeepsLineFeedsAndTabs() {
        #expect(Sanitizer.printable("a\tb\nc\u{1B}]0;pwned\u{07}\r\n\u{9B}2J\u{2028}") == "a\tb\nc^[]0;pwned^G^M\n<U+009B>2J<U+2028>")
        #expect(Sanitizer.printable("plain\n") == "plain\n")
        #expect(Sanitizer.printable("\u{1B}[2J\u{08}x") == Sanitizer.visible("\u{1B}[2J\u{08}x"))
    }

    @Test func invalidUTF8NeverSurvivesAsBytes() {
        let text = String(decoding: [0x61, 0xFF, 0xC3, 0x28, 0x1B, 0x5B, 0x6D], as: UTF8.self)
        #expect(Sanitizer.visible(text) == "a\u{FFFD}\u{FFFD}(^[[m")
    }

    @Test func hostileTextReachesTheBackendOnlyAsVisibleCells() {
        let backend = TestBackend(width: 40, height: 2)
        let terminal = Terminal(backend: backend)
        let hostile = "x\u{1B}]0;t\u{07}\u{9B}2J" + String(decoding: [0xE2, 0x28, 0xA1], as: UTF8.self)
        terminal.draw { frame in
            frame.buffer.write(hostile, at: .zero)
            frame.buffer.write("\u{1B}[31mred", at: Position(x: 0, y: 1))
        }
        #expect(backend.unsafeCellsReceived == 0)
        expectScreen(
            backend,
            """
            x^[]0;t^G<U+009B>2J\u{FFFD}(\u{FFFD}
            ^[[31mred
            """)
    }
}
