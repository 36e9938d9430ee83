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
}
