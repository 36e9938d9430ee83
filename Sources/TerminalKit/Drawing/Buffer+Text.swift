extension Buffer {
    /// Writes `text` from `position` rightwards in `style`, at most `maxWidth` cells and never past the right
    /// edge; returns the number of cells used.
    ///
    /// The text is untrusted: control characters are drawn as their visible stand-ins (see `Sanitizer`),
    /// combining marks join the cell before them, and a wide character that does not fit becomes a space.
    @discardableResult
    public mutating func write(
        _ text: some StringProtocol, at position: Position, style: Style = .plain, maxWidth: Int? = nil
    ) -> Int {
        write(String(text), at: position, style: style, maxWidth: maxWidth)
    }

    /// `write` of a `String`, without the generic version's conversion (a frame writes a few hundred).
    @discardableResult
    public mutating func write(_ text: String, at position: Position, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard position.y >= 0, position.y < size.height, position.x < size.width else { return 0 }
        let limit = min(size.width, position.x + (maxWidth ?? size.width))
        var x = position.x
        var lastCell: Int? = nil
        // Zero-width pieces for the last cell, joined to it once: one at a time, each longer cluster on the
        // way would take a number in `Glyph`'s table.
        var joining = ""
        func join() {
            if let i = lastCell, !joining.isEmpty { cells[i].symbol += joining }
            joining = ""
        }
        defer { join() }
        func put(_ symbol: String, _ w: Int) -> Bool {
            if w == 0 {
                // A combining mark with nothing of this write before it is dropped rather than drawn alone.
                if lastCell != nil { joining += symbol }
                return true
            }
            join()
            if x + w > limit {
                if x < limit, x >= 0 { set(Position(x: x, y: position.y), .blank(style)); x += 1 }
                return false
            }
            if x >= 0 {
                set(Position(x: x, y: position.y), Cell(symbol, style: style, width: UInt8(w)))
                lastCell = position.y * size.width + x
            }
            x += w
            return true
        }
        // Printable ASCII (most titles): a cell per byte, without breaking the text into characters, through
        // the string's contiguous bytes.
        var string = text
        let ascii = string.withUTF8 { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return false }
            // The columns shown: from the left edge (or x) to the limit (or the text's end).
            let first = max(0, x), end = min(limit, x + bytes.count)
            if first < end {
                putASCII(UnsafeBufferPointer(rebasing: bytes[(first - x)..<(end - x)]), x: first, y: position.y, style: style)
            }
            x = max(x, min(limit, x + bytes.count))
            return true
        }
        if ascii { return max(0, x - max(0, position.x)) }
        // Code points that are whole characters wherever they stand (`·`, `›`, `Café`, `東京`): a cell each,
        // without breaking the text into characters (see `DisplayWidth.standaloneWidth`).
        if string.unicodeScalars.allSatisfy({ DisplayWidth.standaloneWidth($0.value) != nil }) {
            for scalar in string.unicodeScalars {
                let w = DisplayWidth.standaloneWidth(scalar.value) ?? 1
                if x + w > limit {
                    if x < limit, x >= 0 { set(Position(x: x, y: position.y), .blank(style)); x += 1 }
                    break
                }
                if x >= 0 {
                    let cell = Cell(scalar: scalar, style: style, width: UInt8(w))
                    if w == 1 { setNarrow(x: x, y: position.y, cell) } else { set(Position(x: x, y: position.y), cell) }
                }
                x += w
            }
            return max(0, x - max(0, position.x))
        }
        for character in string {
            if character.unicodeScalars.contains(where: { Sanitizer.replacement(for: $0) != nil }) {
                for scalar in character.unicodeScalars {
                    let visible = Sanitizer.replacement(for: scalar) ?? String(Character(scalar))
                    for c in visible where !put(String(c), DisplayWidth.of(c)) { return x - position.x }
                }
            } else if !put(String(character), DisplayWidth.of(character)) {
                break
            }
        }
        return max(0, x - max(0, position.x))
    }
}
