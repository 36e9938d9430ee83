/// One screen cell: a grapheme cluster that is safe to draw, and its style.
///
/// A wide character takes two cells: its first half (`width == 2`) holds the symbol, the second half is a
/// continuation cell (`width == 0`, empty symbol) that the terminal fills when it draws the first half.
///
/// A cell is plain bits (no reference to count): the symbol is packed as up to three code points, or, for a
/// longer cluster (a family, a region's flag), the number `Glyph` gave it. Every frame copies, compares and
/// hands over a screenful of cells, and a `String` in each made that a retain and a release per cell.
public struct Cell: Hashable, Sendable {
    /// The symbol, packed (see `Glyph`).
    @usableFromInline var glyph: UInt64
    public var style: Style
    /// 1 for a normal cell, 2 for the first half of a wide character, 0 for its second half.
    public var width: UInt8
    /// Always zero: they fill the cell to 16 bytes with no padding, so that equal cells are equal bits and
    /// rows of cells compare as words (see `Buffer.sameCells`; `CellTests` checks the layout).
    private var reserved8: UInt8 = 0
    private var reserved16: UInt16 = 0

    public init(_ symbol: String, style: Style = .plain, width: UInt8 = 1) {
        self.glyph = Glyph.pack(symbol)
        self.style = style
        self.width = width
    }

    /// A cell of one code point (printable ASCII, say), without going through a `String`.
    public init(scalar: Unicode.Scalar, style: Style = .plain, width: UInt8 = 1) {
        // A zero code point alone would read as no symbol: it is packed as `pack` packs it.
        self.glyph = scalar.value == 0 ? Glyph.pack("\u{0}") : UInt64(scalar.value)
        self.style = style
        self.width = width
    }

    /// What the cell shows: one grapheme cluster with no control characters; empty for a continuation.
    public var symbol: String {
        get { Glyph.symbol(glyph) }
        set { glyph = Glyph.pack(newValue) }
    }

    /// The cell's one code point, or nil when it shows several (or none).
    @inlinable
    public var scalar: Unicode.Scalar? {
        glyph > 0 && glyph <= 0x10FFFF ? Unicode.Scalar(UInt32(truncatingIfNeeded: glyph)) : nil
    }

    public static let blank = Cell(scalar: " ")

    /// A blank cell in `style`, as left behind when half of a wide character is overwritten.
    public static func blank(_ style: Style) -> Cell { Cell(scalar: " ", style: style) }

    /// The second half of a wide character.
    public static func continuation(_ style: Style) -> Cell { Cell("", style: style, width: 0) }

    public var isContinuation: Bool { width == 0 }

    /// Several code points, or a table's number: a cell a backend may draw past its screen library.
    var isCluster: Bool { glyph > 0x10FFFF && width > 0 }

    /// No character: what a frame's model of the screen holds where it does not know what the terminal shows,
    /// so the next diff sends that cell whatever it holds.
    static let unsent = Cell("", width: 1)
}
