/// How a cell looks: foreground and background colour plus attributes.
///
/// For example: `Style(attributes: .reverse)` for a selected row, `Style(foreground: .palette(244))` for hints.
public struct Style: Hashable, Sendable {
    /// The three packed in 26 bits (9 per colour: 0 for the default, 256 + n for palette colour n; then the
    /// attributes), so that comparing the cells of two frames compares one number per cell's look.
    @usableFromInline var bits: UInt32

    public init(foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []) {
        bits = Self.code(foreground) | Self.code(background) << 9 | UInt32(attributes.rawValue) << 18
    }

    public var foreground: Color {
        get { Self.color(bits & 0x1FF) }
        set { bits = bits & ~0x1FF | Self.code(newValue) }
    }

    public var background: Color {
        get { Self.color(bits >> 9 & 0x1FF) }
        set { bits = bits & ~(0x1FF << 9) | Self.code(newValue) << 9 }
    }

    public var attributes: TextAttributes {
        get { TextAttributes(rawValue: UInt8(truncatingIfNeeded: bits >> 18)) }
        set { bits = bits & ~(0xFF << 18) | UInt32(newValue.rawValue) << 18 }
    }

    public static let plain = Style()

    /// This style with `extra` attributes added.
    public func adding(_ extra: TextAttributes) -> Style {
        var s = self
        s.attributes.formUnion(extra)
        return s
    }

    private static func code(_ color: Color) -> UInt32 {
        switch color {
        case .default: 0
        case .palette(let n): 0x100 | UInt32(n)
        }
    }

    private static func color(_ code: UInt32) -> Color {
        code & 0x100 == 0 ? .default : .palette(UInt8(truncatingIfNeeded: code))
    }
}
