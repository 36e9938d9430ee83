/// A scrolling list with a selection, drawn row by row by the caller so a list of a million rows only ever
/// touches the rows on screen.
///
/// For example:
/// ```swift
/// ListView(count: titles.count).render(into: &frame.buffer, area: area, state: &state) { row, buffer in
///     buffer.write(titles[row.index], at: row.area.origin, maxWidth: row.area.width)
/// }
/// ```
public struct ListView {
    public var count: Int
    /// Applied over the selected row after it is drawn.
    public var selectedStyle: (inout Style) -> Void
    /// Rows of context kept above and below the selection when scrolling.
    public var margin: Int

    public init(count: Int, margin: Int = 0, selectedStyle: @escaping (inout Style) -> Void = { $0.attributes.insert(.reverse) }) {
        self.count = count
        self.margin = margin
        self.selectedStyle = selectedStyle
    }

    /// One row being drawn.
    public struct Row: Sendable {
        public let index: Int
        public let area: Rect
        public let isSelected: Bool
    }

    /// Scrolls to keep the selection visible, then draws the visible rows with `drawRow`.
    public func render(into buffer: inout Buffer, area: Rect, state: inout ListState, drawRow: (Row, inout Buffer) -> Void) {
        let area = area.intersection(buffer.area)
        scroll(&state, height: area.height)
        buffer.fill(area)
        guard !area.isEmpty else { return }
        for i in 0..<min(area.height, max(0, count - state.offset)) {
            let index = state.offset + i
            let row = Row(index: index, area: area.row(i), isSelected: index == state.selected)
            drawRow(row, &buffer)
            if row.isSelected { buffer.updateStyle(in: row.area, selectedStyle) }
        }
    }

    /// What `render` does to `state` before drawing `height` rows: a selection past the end or missing is
    /// put on a row, then the list scrolls to it. A caller that keeps its state between frames applies this
    /// when the state changes, so drawing can leave the state alone.
    public func scroll(_ state: inout ListState, height: Int) {
        if let s = state.selected, s >= count { state.select(s, count: count) }
        if state.selected == nil, count > 0 { state.selected = 0 }
        state.scrollToSelection(height: height, count: count, margin: margin)
    }

    /// The rows a page key moves: the list's height less one row of overlap.
    public static func pageSize(height: Int) -> Int { max(1, height - 1) }
}
