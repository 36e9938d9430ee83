/// A terminal colour: the terminal's default, or an entry of the 256-colour palette (0–7 are the basic eight).
///
/// For example: `Style(foreground: .red)` or `Style(background: .palette(236))`.
public enum Color: Hashable, Sendable {
    case `default`
    case palette(UInt8)

    public static let black = Color.palette(0)
    public static let red = Color.palette(1)
    public static let green = Color.palette(2)
    public static let yellow = Color.palette(3)
    public static let blue = Color.palette(4)
    public static let magenta = Color.palette(5)
    public static let cyan = Color.palette(6)
    public static let white = Color.palette(7)

    /// The nearest colour a terminal with `count` palette entries can show (8, 16, 88 or 256).
    ///
    /// Bright colours 8–15 fold onto 0–7, the 6×6×6 cube and the grey ramp onto the nearest basic colour.
    public func approximated(toPaletteSize count: Int) -> Color {
        guard case .palette(let n) = self, Int(n) >= count else { return self }
        if count <= 0 { return .default }
        let index = Int(n)
        if index < 16 { return .palette(UInt8(index - 8)) }
        let (r, g, b): (Int, Int, Int)
        if index < 232 {
            let cube = index - 16
            (r, g, b) = (cube / 36, (cube / 6) % 6, cube % 6)
        } else {
            let level = (index - 232) * 5 / 23
            (r, g, b) = (level, level, level)
        }
        // A component counts as "on" from the middle of the cube; all-on is white, all-off black.
        let bits = (r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0)
        return .palette(UInt8(bits))
    }
}
