import TestSupport
import Testing

@testable import TerminalKit

/// A cell's symbol is packed into bits (`Glyph`): every symbol must come back whole, and two cells must be
/// equal exactly when their symbols are, or the diff would skip a change or send one that is not.
struct CellTests {
    static let symbols = [
        "", " ", "a", "~", "é", "e\u{301}", "日", "\u{FFFD}", "\u{10FFFF}",
        "🇫🇷", "👍🏽", "👨‍💻", "1️⃣",
        // More than three code points: kept in the table.
        "👨‍👩‍👧‍👦", "🏳️‍🌈", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "a\u{301}\u{302}\u{303}",
        // Canonically equivalent (equal as `String`s), yet different bytes to a terminal: two cells.
        "a\u{301}\u{323}\u{304}", "a\u{323}\u{301}\u{304}",
        // A zero code point cannot be packed with others: it too goes to the table.
        "\u{0}", "a\u{0}", "\u{0}\u{301}"
    ]

    @Test(arguments: symbols)
    func aSymbolComesBackWhole(_ symbol: String) {
        let cell = Cell(symbol, width: 1)
        #expect(cell.symbol.unicodeScalars.elementsEqual(symbol.unicodeScalars))
        var changed = Cell.blank
        changed.symbol = symbol
        #expect(changed == cell)
    }

    @Test func cellsAreEqualExactlyWhenTheirSymbolsAre() {
        for a in Self.symbols {
            for b in Self.symbols {
                let same = a.unicodeScalars.elementsEqual(b.unicodeScalars)
                #expect((Cell(a) == Cell(b)) == same, "\(a.debugDescription) \(b.debugDescription)")
                #expect((Cell(a).hashValue == Cell(b).hashValue) || !same)
            }
        }
    }

    @Test func aSingleCodePointIsItsOwnScalar() {
        #expect(Cell("x").scalar == "x")
        #expect(Cell(scalar: "x") == Cell("x"))
        #expect(Cell("日", width: 2).scalar == "日")
        #expect(Cell("e\u{301}").scalar == nil)
        #expect(Cell("👨‍👩‍👧‍👦").scalar == nil)
        #expect(Cell.continuation(.plain).scalar == nil)
    }

    @Test func styleAndWidthStillTellCellsApart() {
        #expect(Cell("a") != Cell("a", style: Style(attributes: .bold)))
        #expect(Cell("日", width: 2) != Cell("日", width: 1))
    }

    /// A style is packed too: each part set comes back as set, and leaves the others as they were.
    @Test func aStyleKeepsEachPartApart() {
        let colors: [Color] = [.default] + (0...255).map { .palette(UInt8($0)) }
        let attributes: [TextAttributes] = [[], .bold, [.dim, .underline], [.bold, .dim, .reverse, .underline]]
        for (i, foreground) in colors.enumerated() {
            let background = colors[(i * 7 + 3) % colors.count]
            let attribute = attributes[i % attributes.count]
            var style = Style(foreground: foreground, background: background, attributes: attribute)
            #expect(style.foreground == foreground && style.background == background && style.attributes == attribute)
            style.background = foreground
            style.foreground = background
            #expect(style.foreground == background && style.background == foreground && style.attributes == attribute)
            style.attributes = attributes[(i + 1) % attributes.count]
            #expect(style.foreground == background && style.background == foreground)
            #expect(style == Style(foreground: background, background: foreground, attributes: attributes[(i + 1) % attributes.count]))
        }
        #expect(Style(foreground: .default) != Style(foreground: .palette(0)))
        #expect(Style(foreground: .palette(1)) != Style(background: .palette(1)))
    }

    /// Zero-width characters after a cell join it once, not one at a time: each longer cluster on the way
    /// would take a number in the process's table, and hostile text could fill it.
    @Test func zeroWidthCharactersJoinTheirCellOnce() {
        var buffer = Buffer(size: Size(width: 10, height: 1))
        let text = "a" + String(repeating: "\u{200B}", count: 200) + "b"
        let before = Glyph.count
        buffer.write(text, at: .zero)
        // (Other tests may add a few meanwhile; one at a time, this alone added 198.)
        #expect(Glyph.count <= before + 10, "\(Glyph.count - before) clusters kept")
        #expect(buffer[0, 0].symbol.unicodeScalars.count == 201)
        #expect(buffer[1, 0].symbol == "b")
    }

    /// Rows compare as words (`Buffer.sameCells`): that needs a cell to be 16 bytes that are all its fields,
    /// and equal cells to be equal bits, however they were made or changed.
    @Test func aCellIsSixteenBytesOfItsOwnFields() {
        #expect(MemoryLayout<Cell>.size == 16 && MemoryLayout<Cell>.stride == 16)
        // Nothing to retain: cells are compared as bytes and copied by `memcpy` (`Buffer.repeatCell`).
        #expect(_isPOD(Cell.self))
        #expect(MemoryLayout<Style>.size == 4)
        #expect(MemoryLayout<Cell>.offset(of: \Cell.glyph) == 0)
        #expect(MemoryLayout<Cell>.offset(of: \Cell.style) == 8)
        #expect(MemoryLayout<Cell>.offset(of: \Cell.width) == 12)
        // 8 + 4 + 1, and the two reserved fields of 1 and 2 bytes: 16, so no byte is padding.
        var rng = SeededRandom(seed: 5)
        let styles = [Style.plain, Style(attributes: .bold), Style(foreground: .red, background: .palette(200))]
        func cell() -> Cell {
            var c = Cell(
                Self.symbols.randomElement(using: &rng)!, style: styles.randomElement(using: &rng)!, width: UInt8.random(in: 0...2, using: &rng))
            if Bool.random(using: &rng) { c.style.attributes.insert(.reverse) }
            if Bool.random(using: &rng) { c.symbol = Self.symbols.randomElement(using: &rng)! }
            return c
        }
        var (equal, compared) = (0, 0)
        for _ in 0..<5_000 {
            var (a, b) = ([cell(), cell()], [cell(), cell()])
            if Bool.random(using: &rng) { b = a }
            if Bool.random(using: &rng) { b[1] = a[1]; b[1].style.attributes.remove(.reverse); a[1].style.attributes.remove(.reverse) }
            let same = a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in Buffer.sameCells(pa.baseAddress!, pb.baseAddress!, 2) } }
            #expect(same == (a == b), "\(a) \(b)")
            equal += same ? 1 : 0
            compared += 1
        }
        #expect(equal > 1_000 && compared - equal > 1_000)
    }
}
