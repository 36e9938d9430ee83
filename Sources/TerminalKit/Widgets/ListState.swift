/// The selection and scroll position of a list, kept between frames (the list's data lives elsewhere).
///
/// For example: `state.move(by: 1, count: rows)` on ↓, then `ListView.render` scrolls to keep it visible.
public struct ListState: Hashable, Sendable {
    /// The selected row, or nil when the list is empty.
    public var selected: Int?
    /// The first row shown.
    public var offset: Int

    public init(selected: Int? = nil, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// Selects row `index`, clamped to a list of `count` rows (none when empty).
    public mutating func select(_ index: Int, count: Int) {
        selected = count > 0 ? min(max(0, index), count - 1) : nil
    }

    /// Moves the selection by `delta` rows (negative is up), clamped to the list.
    public mutating func move(by delta: Int, count: Int) {
        select((selected ?? (delta >= 0 ? -1 : count)) + delta, count: count)
    }

    /// Adjusts `offset` so the selection is visible in `height` rows, with `margin` rows of context when the
    /// list allows, and no empty rows at the bottom when it is long enough to fill them.
    public mutating func scrollToSelection(height: Int, count: Int, margin: Int = 0) {
        guard height > 0 else { return }
        let m = min(margin, (height - 1) / 2)
        if let s = selected {
            if s - m < offset { offset = s - m }
            if s + m >= offset + height { offset = s + m - height + 1 }
        }
        offset = max(0, min(offset, count - height))
    }
}
