import Testing

@testable import TerminalKit

struct BufferTests {
    private func buffer(_ width: Int, _ text: String, at x: Int = 0) -> Buffer {
        var b = Buffer(size: Size(width: width, height: 1))
        b.write(text, at: Position(x: x, y: 0))
        return b
    }

    @Test func wideCharactersTakeTwoCells() {
        let b = buffer(6, "a日b")
        #expect(b.lines == ["a日b  "])
        #expect(b[1, 0] == Cell("日", width: 2))
        #expect(b[2, 0].isContinuation)
        #expect(b[3, 0].symbol == "b")
    }

    @Test func aWideCharacterThatDoesNotFitBecomesASpace() {
        var b = Buffer(size: Size(width: 4, height: 1))
        let used = b.write("ab日本", at: .zero, maxWidth: 3)
        #expect(used == 3)
        #expect(b.lines == ["ab  "])
        #expect(buffer(3, "ab日").lines == ["ab "])
        #expect(buffer(3, "日本").lines == ["日 "])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var b = buffer(4, "日本")
        b.write("x", at: Position(x: 1, y: 0))  // second half of 日
        #expect(b.lines == [" x本"])
        b.write("y", at: Position(x: 2, y: 0))  // first half of 本
        #expect(b.lines == [" xy "])
        #expect(!b[3, 0].isContinuation)
        var c = buffer(4, "abcd")
        c.write("日", at: Position(x: 1, y: 0))
        #expect(c.lines == ["a日d"])
        var d = buffer(4, "日本")
        d.write("語", at: Position(x: 1, y: 0))  // straddles both
        #expect(d.lines == [" 語 "])
    }

    @Test func combiningMarksJoinTheCellBefore() {
        let b = buffer(4, "e\u{301}x")
        #expect(b[0, 0].symbol == "e\u{301}")
        #expect(b[1, 0].symbol == "x")
        #expect(buffer(3, "\u{301}ab").lines == ["ab "])
    }

    @Test func writesClipAtTheEdgesAndBetweenRows() {
        var b = Buffer(size: Size(width: 3, height: 2))
        #expect(b.write("abcdef", at: Position(x: 1, y: 0)) == 2)
        #expect(b.write("zz", at: Position(x: 0, y: 5)) == 0)
        #expect(b.lines == [" ab", "   "])
    }

    @Test func diffSendsOnlyChangedCells() {
        let old = buffer(6, "abcdef")
        var new = old
        new.write("X", at: Position(x: 2, y: 0))
        #expect(new.changes(from: old) == [CellChange(position: Position(x: 2, y: 0), cell: Cell("X"))])
        #expect(old.changes(from: old).isEmpty)
        #expect(old.changes(from: nil).count == 6)
        #expect(old.changes(from: Buffer(size: Size(width: 5, height: 1))).count == 6)
    }

    @Test func diffOfWideOverNarrowAndNarrowOverWide() {
        let narrow = buffer(4, "abcd")
        let wide = buffer(4, "a日d")
        // The wide character is sent once; its second half is never sent.
        #expect(wide.changes(from: narrow) == [CellChange(position: Position(x: 1, y: 0), cell: Cell("日", width: 2))])
        // Back to narrow: both cells the wide character covered are sent.
        #expect(
            narrow.changes(from: wide) == [
                CellChange(position: Position(x: 1, y: 0), cell: Cell("b")),
                CellChange(position: Position(x: 2, y: 0), cell: Cell("c"))
            ])
        let other = buffer(4, "a本d")
        #expect(other.changes(from: wide) == [CellChange(position: Position(x: 1, y: 0), cell: Cell("本", width: 2))])
    }

    @Test func fillAndStyleKeepWideCharactersWhole() {
        var b = buffer(5, "日本x")
        b.fill(Rect(x: 1, y: 0, width: 2, height: 1), with: Cell("-"))
        #expect(b.lines == [" -- x"])
        b.updateStyle(in: Rect(x: 0, y: 0, width: 2, height: 1)) { $0.attributes.insert(.reverse) }
        #expect(b[0, 0].style.attributes == .reverse)
        #expect(b[2, 0].style.attributes == [])
    }
}
