import Foundation
import TestSupport
import Testing

@testable import TerminalKit

/// `TextArea`: multi-line editing by grapheme cluster, soft wrapping at the width, moving by display column
/// through wrapped rows, scrolling that keeps the cursor in view, and drawing that shows no raw control bytes.
@Suite struct TextAreaTests {
    /// Applies keys (in notation) to an area holding `start` with the cursor at `|`, and returns the text
    /// with the cursor marked the same way. `width` wraps it first (as drawing does).
    private func edit(_ start: String, _ keys: String, width: Int = 20) throws -> String {
        var area = TextArea(text: start.replacingOccurrences(of: "|", with: ""))
        let before = start.prefix { $0 != "|" }
        let line = before.filter { $0 == "\n" }.count
        area.moveCursor(to: TextArea.Location(line: line, index: before.split(separator: "\n", omittingEmptySubsequences: false).last!.count))
        area.scrollToCursor(width: width, height: 5)
        for key in try Key.parseSequence(keys) { _ = area.handle(key) }
        return marked(area)
    }

    private func marked(_ area: TextArea) -> String {
        var lines = area.lines
        lines[area.cursor.line].insert("|", at: area.cursor.index)
        return lines.map { String($0) }.joined(separator: "\n")
    }

    /// Draws `area` on a screen of `width`×`height` and returns the screen and the cursor.
    private func draw(_ area: inout TextArea, width: Int, height: Int) -> (TestBackend, Position?) {
        let backend = TestBackend(width: width, height: height)
        let terminal = Terminal(backend: backend)
        terminal.draw { frame in frame.cursor = area.render(into: &frame.buffer, area: frame.area, focused: true) }
        return (backend, backend.cursor)
    }

    @Test(arguments: [
        ("|", "a b <Enter> c", "ab\nc|"),
        ("one|two", "<Enter>", "one\n|two"),
        ("one\n|two", "<BS>", "one|two"),
        ("one|\ntwo", "<Del>", "one|two"),
        ("one|\ntwo", "<C-k>", "one|two"),
        ("o|ne\ntwo", "<C-k>", "o|\ntwo"),
        ("one\n|two", "<Left>", "one|\ntwo"),
        ("one|\ntwo", "<Right>", "one\n|two"),
        ("|one", "<BS> <Left> <Up>", "|one"),
        ("one|", "<Del> <Right> <Down>", "one|"),
        ("one\ntw|o", "<C-a> x", "one\nx|two"),
        ("one\n|two", "<C-e>", "one\ntwo|"),
        ("a b\nc d|", "<C-w>", "a b\nc |"),
        ("a b\nc d|", "<C-u>", "a b\n|"),
        ("a\nb\nc|", "<C-Home>", "|a\nb\nc"),
        ("|a\nb\nc", "<C-End>", "a\nb\nc|"),
        ("ab|cd\nx", "<Down>", "abcd\nx|"),
        ("abcd\nx|", "<Up>", "a|bcd\nx"),
        ("日本|語\nabcdef", "<Down>", "日本語\nabcd|ef"),
        ("abc|\n日本語", "<Down>", "abc\n日|本語"),
        ("abcdef|\nab\nabcdefgh", "<Down> <Down>", "abcdef\nab\nabcdef|gh"),
        ("e|\n\u{301}", "<Down> <Home> <BS>", "e\u{301}|")
    ])
    func editingKeys(start: String, keys: String, expected: String) throws {
        #expect(try edit(start, keys) == expected)
    }

    @Test func wrappedRowsAreMovedThroughByDisplayColumn() throws {
        // "buy oat milk and" wraps at 8 as "buy oat " / "milk and": ↓ from column 5 of the first row lands
        // in column 5 of the second, End stops before a row's hanging space, and Home is the row's start.
        #expect(try edit("buy o|at milk and", "<Down>", width: 8) == "buy oat milk |and")
        #expect(try edit("buy oat milk a|nd", "<Up>", width: 8) == "buy oa|t milk and")
        #expect(try edit("b|uy oat milk and", "<End>", width: 8) == "buy oat| milk and")
        #expect(try edit("buy oat milk a|nd", "<Home>", width: 8) == "buy oat |milk and")
        #expect(try edit("buy oat milk a|nd", "<End>", width: 8) == "buy oat milk and|")
        // A word longer than the row is cut anywhere; the end of a cut row is the next row's start.
        #expect(try edit("|abcdefghij", "<Down>", width: 4) == "abcd|efghij")
        #expect(try edit("|abcdefghij", "<End>", width: 4) == "abc|defghij")
        #expect(try edit("abcdefg|hij", "<Down> <Down>", width: 4) == "abcdefghij|")
    }

    @Test func reportsWhatAKeyDid() {
        var area = TextArea(text: "ab")
        #expect(area.handle(.character("c")) == .edited)
        #expect(area.handle(.enter) == .edited)
        #expect(area.handle(.left) == .moved)
        #expect(area.handle(.escape) == .ignored)
        #expect(area.handle(.tab) == .ignored)
        #expect(area.handle(.ctrl("g")) == .ignored)
        #expect(area.text == "abc\n")
    }

    @Test func pastedLineBreaksStartLinesAndTheTextsOwnBreaksAreKept() {
        var area = TextArea(text: "one\r\ntwo\u{2028}three")
        #expect(area.lines.count == 3)
        #expect(area.text == "one\r\ntwo\u{2028}three", "read and written back unchanged")
        area.moveCursor(to: TextArea.Location(line: 1, index: 1))
        // Terminals send a pasted line break as \r.
        area.insert("A\rB\nC")
        #expect(area.text == "one\r\ntA\nB\nCwo\u{2028}three")
        #expect(area.cursor == TextArea.Location(line: 3, index: 1))
    }

    /// Keys arrive one scalar at a time: an accent, the second half of a flag, a skin tone or a ZWJ joins the
    /// character before it, so one Backspace removes it whole and the cursor is never inside it.
    @Test(
        arguments: [
            ["e", "\u{301}"], ["\u{1F1EB}", "\u{1F1F7}"], ["\u{1F44D}", "\u{1F3FD}"],
            ["\u{1F468}", "\u{200D}", "\u{1F469}", "\u{200D}", "\u{1F467}", "\u{200D}", "\u{1F466}"]
        ] as [[Unicode.Scalar]])
    func aCharacterTypedInPiecesIsOneCharacter(scalars: [Unicode.Scalar]) {
        var area = TextArea(text: "x\nab")
        area.moveCursor(to: TextArea.Location(line: 1, index: 1))
        for s in scalars { _ = area.handle(.character(Character(s))) }
        #expect(area.lines[1].count == 3, "\(area.lines[1])")
        #expect(area.cursor == TextArea.Location(line: 1, index: 2))
        _ = area.handle(.backspace)
        #expect(area.text == "x\nab")
    }

    @Test func flagsRepairFromTheStartOfTheirRun() {
        // Regional indicators pair from the start of their run: one typed before a run of two flags re-pairs
        // the whole run, which reaches past the few characters around the edit.
        var area = TextArea(text: "a🇫🇷🇩🇪")
        #expect(area.lines[0].count == 3)
        area.moveCursor(to: TextArea.Location(line: 0, index: 1))
        _ = area.handle(.character("\u{1F1EF}"))
        #expect(area.lines[0].map { $0.unicodeScalars.count } == [1, 2, 2, 1])
        #expect(area.cursor.index == 2, "after the character the typed half went into")
    }

    @Test func wrapsScrollsAndKeepsTheCursorInView() throws {
        var area = TextArea(text: "Saturday, before ten\nat the market\n\nby the station\nlast")
        area.moveCursor(to: TextArea.Location(line: 0, index: 0))
        var (backend, cursor) = draw(&area, width: 10, height: 3)
        expectScreen(
            backend,
            """
            Saturday,
            before ten
            at the
            """)
        #expect(cursor == Position(x: 0, y: 0))
        for key in try Key.parseSequence("<Down> <Down> <Down> <Down> <End>") { _ = area.handle(key) }
        (backend, cursor) = draw(&area, width: 10, height: 3)
        expectScreen(
            backend,
            """
            at the
            market

            """)
        #expect(cursor == Position(x: 0, y: 2), "an empty line's end is its start")
        _ = area.handle(.pageDown)
        (backend, cursor) = draw(&area, width: 10, height: 3)
        expectScreen(
            backend,
            """

            by the
            station
            """)
        #expect(cursor == Position(x: 0, y: 2))
        _ = area.handle(Key(.home, modifiers: .control))
        (backend, cursor) = draw(&area, width: 10, height: 3)
        #expect(backend.lines.first == "Saturday,")
        #expect(cursor == Position(x: 0, y: 0))
    }

    @Test func aNarrowerAreaRewrapsAndTheCursorStaysOnItsCharacter() {
        var area = TextArea(text: "one two three four")
        area.moveCursor(to: TextArea.Location(line: 0, index: 14))
        var (backend, cursor) = draw(&area, width: 20, height: 2)
        expectScreen(backend, "one two three four\n")
        #expect(cursor == Position(x: 14, y: 0))
        (backend, cursor) = draw(&area, width: 6, height: 2)
        expectScreen(
            backend,
            """
            three
            four
            """)
        #expect(cursor == Position(x: 0, y: 1), "on the f of four")
        (backend, cursor) = draw(&area, width: 1, height: 1)
        #expect(cursor == Position(x: 0, y: 0))
        (backend, cursor) = draw(&area, width: 20, height: 2)
        expectScreen(backend, "one two three four\n")
        #expect(area.text == "one two three four")
    }

    @Test func aFullRowKeepsTheCursorInTheLastColumn() {
        var area = TextArea(text: "abcd")
        area.moveCursor(to: TextArea.Location(line: 0, index: 4))
        let (_, cursor) = draw(&area, width: 4, height: 2)
        #expect(cursor == Position(x: 3, y: 0))
    }

    @Test func hostileBytesAreDrawnAsVisibleStandIns() {
        var area = TextArea()
        area.insert("red \u{1B}[31mX\u{1B}]0;pwned\u{07}\n\u{9B}2J\u{202E}evil")
        let (backend, _) = draw(&area, width: 30, height: 2)
        expectScreen(
            backend,
            """
            red ^[[31mX^[]0;pwned^G
            <U+009B>2J<U+202E>evil
            """)
        #expect(backend.unsafeCellsReceived == 0)
        #expect(area.text == "red \u{1B}[31mX\u{1B}]0;pwned\u{07}\n\u{9B}2J\u{202E}evil", "the text itself is kept as typed")
    }

    @Test func wideCharactersAreNeverSplitAcrossRows() {
        var area = TextArea(text: "ab日本語👨‍👩‍👧‍👦🇫🇷")
        let (backend, _) = draw(&area, width: 5, height: 3)
        expectScreen(
            backend,
            """
            ab日
            本語
            👨‍👩‍👧‍👦🇫🇷
            """)
        var narrow = TextArea(text: "日")
        let (tiny, cursor) = draw(&narrow, width: 1, height: 1)
        #expect(tiny.lines == [""])
        #expect(cursor == Position(x: 0, y: 0))
    }

    /// Random keys on random text: the cursor always lies in the text, on a character boundary, and the
    /// drawn cursor inside the area; the text is always its lines joined by its breaks.
    @Test(arguments: TestSeed.seeds([11, 12, 13]))
    func randomKeysKeepTheCursorInTheText(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let keys = try Key.parseSequence(
            "a <Space> <Enter> <BS> <Del> <Left> <Right> <Up> <Down> <Home> <End> <C-a> <C-e> <C-k> <C-u> <C-w> <PgUp> <PgDn> <C-Home> <C-End>"
        )
        let pieces: [Unicode.Scalar] = ["日", "\u{301}", "\u{1F1EB}", "\u{200D}", "\u{1F468}", "\u{1B}", "x", " "]
        var area = TextArea(text: "start")
        for step in 0..<2000 {
            if rng.below(3) == 0 {
                _ = area.handle(.character(Character(pieces[rng.below(pieces.count)])))
            } else {
                _ = area.handle(keys[rng.below(keys.count)])
            }
            let width = 1 + rng.below(12), height = 1 + rng.below(5)
            var buffer = Buffer(size: Size(width: width, height: height))
            let cursor = area.render(into: &buffer, area: buffer.area, focused: true)
            let c = area.cursor
            #expect(c.line < area.lines.count && c.index <= area.lines[c.line].count, "\(rng.note) step \(step)")
            #expect(cursor.map { buffer.area.contains($0) } == true, "\(rng.note) step \(step): \(String(describing: cursor))")
            #expect(Array(area.lines[c.line].map(String.init).joined()).count == area.lines[c.line].count, "\(rng.note) step \(step): not regrouped")
        }
    }

    /// A megabyte of note: each key costs what its line costs, not the whole text (the lines are short).
    @Test func aHugeTextStaysResponsive() throws {
        let line = "the quick brown fox jumps over the lazy dog, again and again and again. "
        let text = String(repeating: line + "\n", count: 1_000_000 / (line.count + 1))
        var area = TextArea(text: text)
        var buffer = Buffer(size: Size(width: 40, height: 10))
        _ = area.render(into: &buffer, area: buffer.area, focused: true)
        let keys = try Key.parseSequence("<PgDn> x <Enter> <BS> y <Down> <C-End> z <Up> <BS>")
        for _ in 0..<20 {
            for key in keys {
                _ = area.handle(key)
                _ = area.render(into: &buffer, area: buffer.area, focused: true)
            }
        }
        // 220 keys, each drawn, among 13,698 lines: a pass over the whole text per key would wrap them all
        // again (three million lines); the lines near the cursor and on screen are a few per key.
        #expect(area.linesWrapped < 220 * 20, "\(area.linesWrapped) lines wrapped")
        #expect(area.text.count == text.count + 20 * 2, "x, y and z typed, z's line break and one character deleted")
    }
}
