import TerminalKit
import TestSupport
import Testing

/// Text that stays whole (issue 15): keys arrive one scalar at a time, but an accent, the second half of a
/// flag, a skin tone or a zero-width joiner belongs to the character before it, in the field and on screen.
@Suite struct WholeCharacterTests {
    /// Types `scalars` one key at a time, as a terminal delivers them.
    private func type(_ scalars: [Unicode.Scalar], into field: inout TextField) {
        for s in scalars { _ = field.handle(.character(Character(s))) }
    }

    @Test func anAccentTypedAfterItsLetterStaysOnIt() {
        var field = TextField()
        type(["e", "\u{301}"], into: &field)
        #expect(field.characters == ["e\u{301}"] && field.cursor == 1)
        _ = field.handle(.left)
        type(["x"], into: &field)
        #expect(field.text == "xe\u{301}", "the accent stays on the e")
        _ = field.handle(.end)
        _ = field.handle(.backspace)
        #expect(field.text == "x", "one Backspace removes the accented e whole")
    }

    @Test(
        arguments: [
            ["\u{1F1EB}", "\u{1F1F7}"],  // a flag: two regional indicators
            ["\u{1F44D}", "\u{1F3FD}"],  // thumbs up, a skin tone
            ["\u{1F468}", "\u{200D}", "\u{1F469}", "\u{200D}", "\u{1F467}"]  // a family: joined by ZWJ
        ] as [[Unicode.Scalar]])
    func aCharacterTypedInPiecesIsDeletedWhole(scalars: [Unicode.Scalar]) {
        var field = TextField(text: "a")
        type(scalars, into: &field)
        #expect(field.characters.count == 2, "\(field.characters)")
        #expect(field.cursor == 2)
        _ = field.handle(.backspace)
        #expect(field.text == "a")
    }

    @Test func typingBeforeACombiningMarkKeepsTheCursorAfterTheNewCharacter() {
        // A text that starts with a combining mark (pasted from elsewhere): the letter typed before it
        // takes it, and the cursor goes after the character that grew.
        var field = TextField(text: "\u{301}b")
        _ = field.handle(.home)
        type(["e"], into: &field)
        #expect(field.text == "e\u{301}b" && field.characters.count == 2 && field.cursor == 1)
    }

    @Test(arguments: ["\u{1F1EB}\u{1F1F7}", "\u{1F44D}\u{1F3FD}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "e\u{301}"])
    func rowsDrawACharacterWhole(text: String) {
        var buffer = Buffer(size: Size(width: 6, height: 1))
        let used = buffer.write("a" + text + "b", at: Position(x: 0, y: 0))
        let width = DisplayWidth.of(Character(text))
        #expect(used == 2 + width)
        #expect(
            buffer[1, 0].symbol == text, "the whole cluster in one cell: \(buffer[1, 0].symbol.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(buffer[1 + width, 0].symbol == "b")
    }

    /// A field regroups only around each edit (a key in a megabyte of text costs what is near it); random
    /// typing and deleting of joining scalars (accents, flag halves, skin tones, joiners) always leaves the
    /// characters the text's whole grapheme clusters, and draws as a field made from the text at once.
    @Test(arguments: 0..<200)
    func regroupingAroundAnEditMatchesRegroupingEverything(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed))
        let pieces = ["a", "e", " ", "\u{301}", "\u{1F1EB}", "\u{1F1F7}", "\u{1F44D}", "\u{1F3FD}", "\u{200D}", "\u{1F468}", "日", "\u{FE0F}"]
        var field = TextField()
        var joins = 0
        for _ in 0..<60 {
            let before = field.characters.count
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: _ = field.apply(.deleteBackward)
            case 1: _ = field.apply(.deleteForward)
            case 2: _ = field.apply(.left)
            case 3: _ = field.apply(.right)
            default:
                let piece = pieces[Int.random(in: 0..<pieces.count, using: &rng)]
                field.insert(piece)
                if field.characters.count == before { joins += 1 }
            }
            #expect(field.characters == Array(field.text), "seed \(seed)")
            #expect(field.cursor >= 0 && field.cursor <= field.characters.count)
        }
        var drawn = Buffer(size: Size(width: 12, height: 1)), fresh = Buffer(size: Size(width: 12, height: 1))
        var copy = field
        let at = copy.render(into: &drawn, area: Rect(x: 0, y: 0, width: 12, height: 1), focused: true)
        var remade = TextField(text: field.text)
        for _ in 0..<(field.characters.count - field.cursor) { _ = remade.apply(.left) }
        let again = remade.render(into: &fresh, area: Rect(x: 0, y: 0, width: 12, height: 1), focused: true)
        #expect(drawn.lines == fresh.lines && at == again, "seed \(seed)")
        if seed == 0 { print("regrouping: joining inserts in seed 0: \(joins)") }
    }
}
