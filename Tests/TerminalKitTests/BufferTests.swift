import TestSupport
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

    /// Text written a code point at a time (`DisplayWidth.standaloneWidth`) leaves the cells that writing it a
    /// character at a time leaves: the same text with a combining mark after it takes the character path.
    @Test func standaloneTextIsWrittenAsCharactersWouldBe() {
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "·", "é", "ß", "…", "›", "▾", "✂", "⌚", "日", "本", "가", "—", "→", "│"]
        var rng = SeededRandom(seed: 3401)
        var cut = 0
        for _ in 0..<3_000 {
            var text = ""
            text.unicodeScalars.append(
                contentsOf: (0..<Int.random(in: 1...12, using: &rng)).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] })
            let x = Int.random(in: -3...8, using: &rng), maxWidth = Bool.random(using: &rng) ? nil : Int.random(in: 0...14, using: &rng)
            var fast = Buffer(size: Size(width: 12, height: 1)), slow = fast
            fast.fill(fast.area, with: Cell(scalar: "~")); slow.fill(slow.area, with: Cell(scalar: "~"))
            let used = fast.write(text, at: Position(x: x, y: 0), style: Style(foreground: .red), maxWidth: maxWidth)
            let slowUsed = slow.write(text + "e\u{301}", at: Position(x: x, y: 0), style: Style(foreground: .red), maxWidth: maxWidth)
            // Up to where the text ended; the character path goes on with the e.
            let end = x + DisplayWidth.of(text)
            let isCut = end > min(12, x + (maxWidth ?? 12))
            if isCut { cut += 1 }
            for col in 0..<min(12, max(0, end)) {
                #expect(fast[col, 0] == slow[col, 0], "\(text.debugDescription) at \(x), max \(String(describing: maxWidth)): column \(col)")
            }
            #expect(used == (isCut ? slowUsed : max(0, end - max(0, x))), "\(text.debugDescription) at \(x)")
        }
        // The dangerous case, a wide character cut at the limit, was met.
        #expect(cut > 500, "\(cut)")
    }

    /// ASCII written as one run leaves what putting its cells one at a time leaves, over rows of wide and
    /// narrow characters: the halves of a wide character at either end of the run become blanks.
    @Test func asciiRunsKeepWideNeighboursWhole() {
        var rng = SeededRandom(seed: 3402)
        var halvesMet = 0
        for _ in 0..<3_000 {
            var before = Buffer(size: Size(width: 10, height: 2))
            for _ in 0..<6 {
                let at = Position(x: Int.random(in: 0..<10, using: &rng), y: Int.random(in: 0..<2, using: &rng))
                before.write(["日", "a", "本b", "語"][Int.random(in: 0..<4, using: &rng)], at: at, style: Style(foreground: .blue))
            }
            let text = String(repeating: "xyz", count: 4).prefix(Int.random(in: 0...11, using: &rng))
            let x = Int.random(in: -3...11, using: &rng), y = Int.random(in: 0..<2, using: &rng)
            let maxWidth = Bool.random(using: &rng) ? nil : Int.random(in: -1...12, using: &rng)
            var run = before, expected = before
            let used = run.write(String(text), at: Position(x: x, y: y), style: Style(foreground: .red), maxWidth: maxWidth)
            let limit = min(10, x + (maxWidth ?? 10))
            var col = x
            for b in text.utf8 {
                guard col < limit else { break }
                if col >= 0 { expected.set(Position(x: col, y: y), Cell(scalar: Unicode.Scalar(b), style: Style(foreground: .red))) }
                col += 1
            }
            let first = max(0, x), end = min(limit, x + text.count)
            if first < end, before[first, y].isContinuation || before[end - 1, y].width == 2 { halvesMet += 1 }
            #expect(
                run.cells == expected.cells,
                "\(text) at \(x),\(y) max \(String(describing: maxWidth))\n\(before.lines)\n\(run.lines)\n\(expected.lines)")
            #expect(used == (x < 10 ? max(0, col - max(0, x)) : 0))
        }
        #expect(halvesMet > 300, "\(halvesMet)")
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

    /// A fill of any rectangle, clipped or not, whole rows or not, over wide characters or not, is its cells
    /// set one at a time (the fill copies one cell onto the rest in runs that double; a run's end that is off
    /// by one leaves a cell unfilled or writes past the rectangle).
    @Test(arguments: TestSeed.seeds([21, 22]))
    func fillsAreTheirCellsSetOneByOne(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let pieces = ["ab", "日本", "x", "👍", "  ", "é", "中"]
        for _ in 0..<300 {
            let size = Size(width: 1 + rng.below(90), height: 1 + rng.below(30))
            var filled = Buffer(size: size)
            for y in 0..<size.height {
                filled.write(
                    (0..<(1 + rng.below(20))).map { _ in pieces[rng.below(pieces.count)] }.joined(), at: Position(x: rng.below(size.width), y: y))
            }
            var reference = filled
            let rect =
                rng.below(3) == 0
                ? Rect(x: 0, y: rng.below(size.height), width: size.width, height: rng.below(size.height + 2))
                : Rect(
                    x: rng.below(size.width + 2) - 1, y: rng.below(size.height + 2) - 1, width: rng.below(size.width + 3),
                    height: rng.below(size.height + 3))
            let cell = Cell(scalar: Unicode.Scalar(UInt8(33 + rng.below(90))), style: Style(foreground: .palette(UInt8(rng.below(256)))))
            filled.fill(rect, with: cell)
            let clipped = rect.intersection(reference.area)
            if !clipped.isEmpty {
                for y in clipped.y..<clipped.maxY { for x in clipped.x..<clipped.maxX { reference.set(Position(x: x, y: y), cell) } }
            }
            // Counted, not compared whole: a failure prints a number, not two screens of cells.
            let wrong = zip(filled.cells, reference.cells).filter { $0 != $1 }.count
            #expect(wrong == 0, "\(rect) on \(size)")
        }
    }

    /// A row pasted at any place, clipped or not, over wide characters or not, gives what putting its cells one
    /// at a time with `set` gives (the reference keeps wide characters whole), and leaves no half character.
    @Test(arguments: TestSeed.seeds([11, 12, 13]))
    func pastedRowsAreTheirCellsSetOneByOne(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let pieces = ["ab", "日本", "x", "👍", "  ", "é", "中"]
        func text() -> String { (0..<(1 + rng.below(6))).map { _ in pieces[rng.below(pieces.count)] }.joined() }
        var clipped = 0, overWide = 0
        for _ in 0..<2_000 {
            let size = Size(width: 1 + rng.below(12), height: 1 + rng.below(3))
            var target = Buffer(size: size)
            for y in 0..<size.height { target.write(text(), at: Position(x: rng.below(size.width), y: y)) }
            var row = Buffer(size: Size(width: 1 + rng.below(10), height: 1))
            row.write(text(), at: Position(x: rng.below(row.size.width), y: 0), style: Style(foreground: .red))
            let at = Position(x: rng.below(size.width), y: rng.below(size.height))
            if target[at].isContinuation || (at.x + row.size.width < size.width && target[at.x + row.size.width, at.y].isContinuation) {
                overWide += 1
            }
            var expected = target
            let count = min(row.size.width, size.width - at.x)
            if count < row.size.width { clipped += 1 }
            for i in 0..<count {
                let cell = row[i, 0]
                // The reference: each cell set, a continuation only after its first half (which set made).
                if cell.isContinuation { continue }
                if cell.width == 2, i + 1 >= count {
                    expected.set(Position(x: at.x + i, y: at.y), .blank(cell.style))
                } else {
                    expected.set(Position(x: at.x + i, y: at.y), cell)
                }
            }
            target.paste(row, at: at)
            #expect(target == expected, "paste \(row.lines) at \(at) into \(size): \(target.lines) want \(expected.lines), \(rng.note)")
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let cell = target[x, y]
                    if cell.isContinuation { #expect(x > 0 && target[x - 1, y].width == 2, "\(rng.note)") }
                    if cell.width == 2 { #expect(x + 1 < size.width && target[x + 1, y].isContinuation, "\(rng.note)") }
                }
            }
        }
        print("paste: 2,000 rows, \(clipped) clipped, \(overWide) over half a wide character")
        #expect(clipped > 200 && overWide > 100)
    }
}
