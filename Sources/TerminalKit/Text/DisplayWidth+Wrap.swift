extension DisplayWidth {
    /// `text` as lines of at most `width` cells: its own line breaks kept, long lines broken at the last
    /// space that fits (the spaces at a break are dropped), or anywhere in a word longer than the line,
    /// wide characters never split. Widths are those of the text as drawn (a control character takes its
    /// stand-in's width). A character wider than `width` alone gets a line of its own.
    ///
    /// For example: `DisplayWidth.wrap("buy oat milk", width: 7)` is `["buy oat", "milk"]`.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let chars = Array(line)
            let rows = wrapRanges(chars, width: width)
            for row in rows {
                var end = row.upperBound
                // Spaces at a break are not drawn; a line that needed no break keeps its own.
                if rows.count > 1 || chars[row].reduce(0, { $0 + of($1) }) > width {
                    while end > row.lowerBound && chars[end - 1] == " " { end -= 1 }
                }
                out.append(String(chars[row.lowerBound..<end]))
            }
        }
        return out
    }

    /// Where `wrap` breaks one line (no line breaks in it) at `width`, as consecutive ranges of indices that
    /// cover the whole line: each row's characters, with the spaces at a break left at the end of the row
    /// before it (they may reach past the width), so an editor can map every index to a row. An empty line
    /// is one empty row; no width gives no rows.
    ///
    /// For example: `wrapRanges(Array("buy oat milk"), width: 7)` is `[0..<8, 8..<12]`.
    public static func wrapRanges(_ chars: [Character], width: Int) -> [Range<Int>] {
        guard width > 0 else { return [] }
        var starts = [0]
        /// The row being filled holds `contentStart..<i`, `used` cells.
        var contentStart = 0
        var used = 0
        /// Index just after the last space in the row: where the next row would start.
        var breakAfter: Int?
        var continuing = false
        /// A break left no characters over: the next row starts at the next one that is not a space.
        var pending = false

        func emit(_ end: Int, _ i: Int) {
            contentStart = end
            breakAfter = nil
            continuing = true
            if end < i {
                starts.append(end)
                used = (end..<i).reduce(0) { $0 + of(chars[$1]) }
                pending = false
            } else {
                used = 0
                pending = true
            }
        }

        for i in chars.indices {
            let c = chars[i]
            let w = of(c)
            if c == " " {
                if contentStart == i && continuing {
                    contentStart = i + 1
                    continue
                }
                if used + w > width {
                    emit(i, i)
                    contentStart = i + 1
                    continue
                }
            } else {
                while used + w > width && contentStart < i {
                    if let b = breakAfter, b < i { emit(b, i) } else { emit(i, i) }
                }
            }
            if pending {
                starts.append(i)
                pending = false
            }
            used += w
            if c == " " { breakAfter = i + 1 }
        }
        return zip(starts, starts.dropFirst() + [chars.count]).map { $0..<$1 }
    }
}
