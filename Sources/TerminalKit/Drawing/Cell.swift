/// One screen cell: a grapheme cluster that is safe to draw, and its style.
///
/// A wide character takes two cells: its first half (`width == 2`) holds the symbol, the second half is a
/// continuation cell (`width == 0`, empty symbol) that the terminal fills when it draws the first half.
public struct Cell: Hashable, Sendable {
    /// What the cell shows: one grapheme cluster with no control characters; empty for a continuation.
    public var symbol: String
    public var style: Style
    /// 1 for a normal cell, 2 for the first half of a wide character, 0 for its second half.
    public var width: UInt8

    public init(_ symbol: String, style: Style = .plain, width: UInt8 = 1) {
        self.symbol = symbol
        self.style = style
        self.width = width
    }

    public static let blank = Cell(" ")

    /// A blank cell in `style`, as left behind when half of a wide character is overwritten.
    public static func blank(_ style: Style) -> Cell { Cell(" ", style: style) }

    /// The second half of a wide character.
    public static func continuation(_ style: Style) -> Cell { Cell("", style: style, width: 0) }

    public var isContinuation: Bool { width == 0 }
}
