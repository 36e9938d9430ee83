import TerminalKit
import Testing

struct KeyTests {
    @Test(arguments: [
        ("j", Key.character("j")), ("J", Key.character("J")), ("<Enter>", Key.enter), ("<CR>", Key.enter),
        ("<Esc>", Key.escape), ("<Tab>", Key.tab), ("<S-Tab>", Key.backTab), ("<BS>", Key.backspace),
        ("<Del>", Key.delete), ("<C-z>", Key.ctrl("z")), ("<C-Z>", Key.ctrl("z")), ("<C-r>", Key.ctrl("r")),
        ("<A-x>", Key.alt("x")), ("<M-x>", Key.alt("x")), ("<S-Up>", Key(.up, modifiers: .shift)),
        ("<A-Down>", Key(.down, modifiers: .alt)), ("<C-S-Left>", Key(.left, modifiers: [.control, .shift])),
        ("<PgUp>", Key.pageUp), ("<PageDown>", Key.pageDown), ("<Home>", Key.home), ("<F1>", Key(.function(1))),
        ("<F12>", Key(.function(12))), ("<S-F5>", Key(.function(5), modifiers: .shift)),
        ("<Space>", Key.character(" ")), ("<lt>", Key.character("<")), ("<S-a>", Key.character("A")),
        ("日", Key.character("日"))
    ])
    func parsesNotation(notation: String, key: Key) throws {
        #expect(try Key.parse(notation) == key)
        // Printing and reading back gives the same key.
        #expect(try Key.parse(key.description) == key)
    }

    @Test func printsCanonicalNotationAndLabels() {
        #expect(Key.ctrl("z").description == "<C-z>")
        #expect(Key(.up, modifiers: .shift).description == "<S-Up>")
        #expect(Key.character("x").description == "x")
        #expect(Key.character(" ").description == "<Space>")
        #expect(Key.ctrl("r").label == "Ctrl-R")
        #expect(Key(.up, modifiers: .shift).label == "Shift-↑")
        #expect(Key.alt("x").label == "Alt-x")
        #expect(Key.pageDown.label == "PgDn")
        #expect(Key.character("u").label == "u")
    }

    @Test func parsesSequences() throws {
        #expect(
            try Key.parseSequence("j j <Enter> <C-z> <S-Up>") == [
                .character("j"), .character("j"), .enter, .ctrl("z"), Key(.up, modifiers: .shift)
            ])
        #expect(try Key.parseSequence("ab <Space>c") == [.character("a"), .character("b"), .character(" "), .character("c")])
        #expect(try Key.parseSequence("ab<Enter>") == [.character("a"), .character("b"), .enter])
        #expect(try Key.parseSequence("<") == [.character("<")])
        #expect(try Key.parseSequence("a < b") == [.character("a"), .character("<"), .character("b")])
        #expect(throws: Key.NotationError.self) { try Key.parseSequence("x <Bogus>") }
    }

    @Test(arguments: ["<Nope>", "<X-a>", "<F0>", "<>x", "ab"])
    func rejectsUnknownNotation(notation: String) {
        #expect(throws: Key.NotationError.self) { try Key.parse(notation) }
    }

    @Test func textIsOnlyForPlainCharacters() {
        #expect(Key.character("a").text == "a")
        #expect(Key.ctrl("a").text == nil)
        #expect(Key.alt("a").text == nil)
        #expect(Key.enter.text == nil)
    }
}

struct KeyDecoderTests {
    @Test(
        arguments: [
            (0x01, Key.ctrl("a")), (0x1A, Key.ctrl("z")), (0x13, Key.ctrl("s")), (0x11, Key.ctrl("q")),
            (0x03, Key.ctrl("c")), (0x12, Key.ctrl("r")), (0x19, Key.ctrl("y")),
            (0x08, Key.backspace), (0x7F, Key.backspace), (0x09, Key.tab), (0x0D, Key.enter), (0x0A, Key.enter),
            (0x1B, Key.escape), (0x00, Key(.character(" "), modifiers: .control)), (0x1F, Key.ctrl("_"))
        ] as [(UInt32, Key)])
    func controlBytes(byte: UInt32, key: Key) {
        #expect(KeyDecoder.control(byte) == key)
    }

    @Test func printableScalarsAreCharacters() {
        #expect(KeyDecoder.scalar("x") == .character("x"))
        #expect(KeyDecoder.scalar("é") == .character("é"))
        #expect(KeyDecoder.control(0x41) == nil)
        #expect(KeyDecoder.alt("x") == .alt("x"))
        #expect(KeyDecoder.alt("\u{7F}") == Key(.backspace, modifiers: .alt))
    }

    @Test(
        arguments: [
            ("", "A", Key.up), ("1;2", "A", Key(.up, modifiers: .shift)), ("1;3", "B", Key(.down, modifiers: .alt)),
            ("1;5", "C", Key(.right, modifiers: .control)), ("1;6", "D", Key(.left, modifiers: [.control, .shift])),
            ("", "H", Key.home), ("", "F", Key.end), ("1;2", "H", Key(.home, modifiers: .shift)),
            ("3~", "", nil), ("3", "~", Key.delete), ("3;5", "~", Key(.delete, modifiers: .control)),
            ("2", "~", Key.insert), ("5", "~", Key.pageUp), ("6;2", "~", Key(.pageDown, modifiers: .shift)),
            ("1", "~", Key.home), ("4", "~", Key.end), ("15", "~", Key(.function(5))), ("24", "~", Key(.function(12))),
            ("1;2", "P", Key(.function(1), modifiers: .shift)), ("", "Z", Key.backTab),
            ("200", "~", nil), ("99", "~", nil), ("", "q", nil)
        ] as [(String, String, Key?)])
    func csiSequences(parameters: String, final: String, key: Key?) {
        guard let f = final.first else { return }
        #expect(KeyDecoder.csi(parameters: parameters, final: f) == key)
    }

    @Test func ss3Sequences() {
        #expect(KeyDecoder.ss3(final: "P") == Key(.function(1)))
        #expect(KeyDecoder.ss3(final: "S") == Key(.function(4)))
        #expect(KeyDecoder.ss3(final: "A") == .up)
    }
}
