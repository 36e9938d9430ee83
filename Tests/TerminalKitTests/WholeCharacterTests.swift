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
}
