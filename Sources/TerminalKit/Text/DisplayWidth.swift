/// How many terminal cells text takes, and cutting or padding it to a number of cells.
///
/// Widths are those of the text as drawn: most characters take one cell, East Asian wide characters and emoji
/// two, combining marks none (they join the character before them), and a control character the width of its
/// visible stand-in (`^[` is two cells; see `Sanitizer`). Tables come from Unicode 17 (see
/// `DisplayWidth+Tables.swift`); a terminal with older tables may disagree on emoji added since.
///
/// For example: `DisplayWidth.of("日本")` is 4; `DisplayWidth.truncate("Groceries", to: 6)` is `"Groce…"`.
public enum DisplayWidth {
    /// Cells taken by one code point drawn on its own: 0, 1 or 2 (controls are measured by `of(_:)`).
    public static func of(scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        if v < 0x300 { return v <= 0x9F ? 0 : 1 }
        if contains(zero, v) { return 0 }
        if contains(wide, v) { return 2 }
        return 1
    }

    /// Cells taken by one character (a grapheme cluster) as drawn.
    public static func of(_ character: Character) -> Int {
        // ("\r\n" is one Character whose asciiValue is that of "\n": only single bytes take the fast path.)
        if let ascii = character.asciiValue, character.utf8.count == 1 {
            return ascii >= 0x20 && ascii < 0x7F ? 1 : (Sanitizer.replacement(for: Unicode.Scalar(ascii))?.count ?? 0)
        }
        let scalars = character.unicodeScalars
        if scalars.contains(where: { Sanitizer.replacement(for: $0) != nil }) {
            // A cluster that holds a control character is drawn scalar by scalar.
            return scalars.reduce(0) { $0 + (Sanitizer.replacement(for: $1)?.count ?? of(scalar: $1)) }
        }
        let first = scalars.first!
        if isRegionalIndicator(first.value) { return 2 }
        let w = of(scalar: first)
        if w == 1 && scalars.contains(where: { $0.value == 0xFE0F }) && contains(narrowToWideWithVS16, first.value) {
            return 2
        }
        return w
    }

    /// Cells taken by `text` as drawn.
    public static func of(_ text: some StringProtocol) -> Int { of(String(text)) }

    /// Cells taken by `text` as drawn. (A `String` is measured without the generic version's conversion,
    /// which cost more than measuring a short title.)
    public static func of(_ text: String) -> Int {
        var string = text
        let ascii = string.withUTF8 { bytes -> Int? in
            for b in bytes where b >= 0x7F || b < 0x20 { return nil }
            return bytes.count
        }
        if let ascii { return ascii }
        var total = 0
        for scalar in string.unicodeScalars {
            guard let w = standaloneWidth(scalar.value) else { return string.reduce(0) { $0 + of($1) } }
            total += w
        }
        return total
    }

    /// The cells taken by a code point that is a whole character wherever it stands in text made only of such
    /// code points, or nil. Text like that (`3/12 · ?: help`, `Café`, `東京`, `▾`) is measured and drawn a code
    /// point at a time: breaking it into characters first was most of the cost of a status line.
    ///
    /// Only code points that nothing joins to or with (no combining marks, joiners, variation selectors,
    /// regional indicators, Hangul jamo, prepended or spacing marks) and that need no stand-in are in it;
    /// `DisplayWidthTests` checks each one against the measure by characters.
    @inlinable
    public static func standaloneWidth(_ v: UInt32) -> Int? {
        switch v {
        case 0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E: return 1
        // Arrows, mathematical and technical symbols, box drawing, shapes, symbols, dingbats: some are wide.
        case 0x2190...0x23FF, 0x2500...0x27BF: return standaloneSymbolWidth(v)
        // CJK ideographs, Hangul syllables (a syllable joins only jamo, which are not in here).
        case 0x4E00...0x9FFF, 0xAC00...0xD7A3: return 2
        default: return nil
        }
    }

    @usableFromInline
    static func standaloneSymbolWidth(_ v: UInt32) -> Int { contains(wide, v) ? 2 : 1 }

    /// `text` cut to at most `width` cells, ending in `ellipsis` when something was cut.
    ///
    /// Never splits a character: a wide character that would cross the limit is left out.
    public static func truncate(_ text: some StringProtocol, to width: Int, ellipsis: String = "…") -> String {
        truncate(String(text), to: width, ellipsis: ellipsis)
    }

    /// `truncate` of a `String`, without the generic version's conversions.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return String(text) }
        let room = width - of(ellipsis)
        guard room >= 0 else { return prefix(ellipsis, width: width) }
        return prefix(text, width: room) + ellipsis
    }

    /// `text` cut from the left to at most `width` cells, starting with `ellipsis` when something was cut.
    ///
    /// For example: breadcrumbs `…› Groceries › Dairy` keep the end, where the user is.
    public static func truncateLeading(_ text: some StringProtocol, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return String(text) }
        let room = width - of(ellipsis)
        guard room >= 0 else { return prefix(ellipsis, width: width) }
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let before = text.index(before: start)
            let w = of(text[before])
            if used + w > room { break }
            used += w
            start = before
        }
        return ellipsis + String(text[start...])
    }

    /// `text` cut to `width` cells if longer, then padded with spaces to exactly `width` cells.
    public static func pad(_ text: some StringProtocol, to width: Int, ellipsis: String = "…") -> String {
        let cut = truncate(text, to: width, ellipsis: ellipsis)
        let w = of(cut)
        return w >= width ? cut : cut + String(repeating: " ", count: width - w)
    }

    /// The longest start of `text` that fits in `width` cells.
    public static func prefix(_ text: some StringProtocol, width: Int) -> String {
        var used = 0
        var end = text.startIndex
        while end < text.endIndex {
            let w = of(text[end])
            if used + w > width { break }
            used += w
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    static func isRegionalIndicator(_ v: UInt32) -> Bool { v >= 0x1F1E6 && v <= 0x1F1FF }

    static func contains(_ table: [ClosedRange<UInt32>], _ v: UInt32) -> Bool {
        guard let first = table.first, v >= first.lowerBound, v <= table[table.count - 1].upperBound else { return false }
        var lo = 0, hi = table.count - 1
        while lo <= hi {
            let mid = (lo + hi) >> 1
            let r = table[mid]
            if v < r.lowerBound { hi = mid - 1 } else if v > r.upperBound { lo = mid + 1 } else { return true }
        }
        return false
    }
}
