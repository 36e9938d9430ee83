/// A one-line bar: a message on the left and a hint or position on the right, which wins when space is short.
///
/// For example: `StatusBar(left: "Deleted “Milk”", right: "u: undo  ?: help").render(into: &buffer, area: last)`.
public struct StatusBar {
    public var left: String
    public var right: String
    public var style: Style
    public var rightStyle: Style

    public init(left: String, right: String = "", style: Style = .plain, rightStyle: Style? = nil) {
        self.left = left
        self.right = right
        self.style = style
        self.rightStyle = rightStyle ?? style
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        let row = area.row(0).intersection(buffer.area)
        guard !row.isEmpty else { return }
        buffer.fill(row, with: .blank(style))
        let rightText = DisplayWidth.truncate(right, to: row.width)
        let rightWidth = DisplayWidth.of(rightText)
        let room = row.width - rightWidth - (rightWidth > 0 ? 1 : 0)
        if room > 0 {
            buffer.write(DisplayWidth.truncate(left, to: room), at: row.origin, style: style, maxWidth: room)
        }
        buffer.write(rightText, at: Position(x: row.maxX - rightWidth, y: row.y), style: rightStyle, maxWidth: rightWidth)
    }
}
