/// How a cell looks: foreground and background colour plus attributes.
///
/// For example: `Style(attributes: .reverse)` for a selected row, `Style(foreground: .palette(244))` for hints.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var attributes: TextAttributes

    public init(foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()

    /// This style with `extra` attributes added.
    public func adding(_ extra: TextAttributes) -> Style {
        var s = self
        s.attributes.formUnion(extra)
        return s
    }
}
