extension TextArea {
    /// The rows line `l` wraps into at the width last scrolled for (`DisplayWidth.wrapRanges`, so the text
    /// breaks where `DisplayWidth.wrap` breaks it when shown), computed once per change of the line.
    mutating func rows(_ l: Int) -> [Range<Int>] {
        if let rows = wrapped[l] { return rows }
        // Before the first scroll there is no width yet: a line is one row.
        let rows = DisplayWidth.wrapRanges(lines[l], width: wrapWidth > 0 ? wrapWidth : Int.max)
        wrapped[l] = rows
        linesWrapped += 1
        return rows
    }

    /// The row (its line, and its number in that line as `index`) that shows `location`: the last row
    /// starting at or before it, so the end of a line is on its last row.
    mutating func row(of location: Location) -> Location {
        let rows = rows(location.line)
        var low = 0, high = rows.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if rows[mid].lowerBound <= location.index { low = mid } else { high = mid - 1 }
        }
        return Location(line: location.line, index: low)
    }

    mutating func nextRow(_ row: Location) -> Location? {
        if row.index + 1 < rows(row.line).count { return Location(line: row.line, index: row.index + 1) }
        return row.line + 1 < lines.count ? Location(line: row.line + 1, index: 0) : nil
    }

    mutating func previousRow(_ row: Location) -> Location? {
        if row.index > 0 { return Location(line: row.line, index: row.index - 1) }
        return row.line > 0 ? Location(line: row.line - 1, index: rows(row.line - 1).count - 1) : nil
    }

    /// The cursor's display column in its row.
    mutating func cursorColumn() -> Int {
        let range = rows(cursor.line)[row(of: cursor).index]
        return lines[cursor.line][range.lowerBound..<cursor.index].reduce(0) { $0 + DisplayWidth.of($1) }
    }

    /// The index in `row` nearest `column` on its left. The end of a row that the line goes on from is the
    /// start of the next row, so it is never chosen there.
    mutating func index(atColumn column: Int, in row: Location) -> Int {
        let rows = rows(row.line)
        let range = rows[row.index]
        let end = row.index == rows.count - 1 ? range.upperBound : max(range.lowerBound, range.upperBound - 1)
        var x = 0, i = range.lowerBound
        while i < end {
            let w = DisplayWidth.of(lines[row.line][i])
            if x + w > column { break }
            x += w
            i += 1
        }
        return i
    }

    /// ↑/↓ (and pages): `rows` rows up or down at the same display column; past the first or last row, to the
    /// start or end of the text.
    mutating func moveVertically(by rows: Int) {
        let goal = goalColumn ?? cursorColumn()
        let start = row(of: cursor)
        var target = start
        for _ in 0..<abs(rows) {
            guard let next = rows < 0 ? previousRow(target) : nextRow(target) else { break }
            target = next
        }
        if target == start {
            cursor =
                rows < 0
                ? Location(line: 0, index: 0) : Location(line: lines.count - 1, index: lines[lines.count - 1].count)
            goalColumn = nil
            return
        }
        cursor = Location(line: target.line, index: index(atColumn: goal, in: target))
        goalColumn = goal
    }

    /// Home and End: the start or end of the row the cursor is on.
    mutating func moveToRowEdge(end: Bool) {
        let rows = rows(cursor.line)
        let r = row(of: cursor).index
        if !end {
            cursor.index = rows[r].lowerBound
        } else {
            cursor.index = r == rows.count - 1 ? rows[r].upperBound : max(rows[r].lowerBound, rows[r].upperBound - 1)
        }
    }

    /// Scrolls as `render` does for an area `width`×`height`, so that a caller keeping the editor between
    /// frames can do it when the text, the cursor or the size changes and draw a copy. It reads only the
    /// lines between the top row and the cursor, at most a screenful of rows apart.
    public mutating func scrollToCursor(width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        if width != wrapWidth {
            wrapWidth = width
            wrapped = Array(repeating: nil, count: lines.count)
        }
        viewHeight = height
        // The top row may be gone: lines removed, or fewer rows at a new width.
        if top.line >= lines.count { top = Location(line: lines.count - 1, index: 0) }
        top.index = min(top.index, rows(top.line).count - 1)
        let target = row(of: cursor)
        if target < top {
            top = target
        } else {
            var shown = top, distance = 0
            while shown != target && distance < height - 1, let next = nextRow(shown) {
                shown = next
                distance += 1
            }
            if shown != target {
                top = target
                for _ in 1..<height {
                    guard let previous = previousRow(top) else { break }
                    top = previous
                }
            }
        }
        // No empty rows under the text while some of it is above the top.
        var last = top, count = 1
        while count < height, let next = nextRow(last) {
            last = next
            count += 1
        }
        while count < height, let previous = previousRow(top) {
            top = previous
            count += 1
        }
    }

    /// Draws the rows that fit in `area` from the top row, and returns where the cursor goes when focused.
    ///
    /// Every character is drawn sanitised (a control character as its visible stand-in); the spaces at a
    /// break that reach past the width are not drawn, and the cursor on them stays in the last column.
    public mutating func render(into buffer: inout Buffer, area: Rect, style: Style = .plain, focused: Bool) -> Position? {
        let area = area.intersection(buffer.area)
        guard !area.isEmpty else { return nil }
        scrollToCursor(width: area.width, height: area.height)
        buffer.fill(area, with: .blank(style))
        let cursorRow = row(of: cursor)
        var position: Position?
        var shown: Location? = top
        for y in area.y..<area.maxY {
            guard let r = shown else { break }
            var x = 0
            for i in rows(r.line)[r.index] {
                let c = lines[r.line][i]
                let w = DisplayWidth.of(c)
                if x + w > area.width { break }
                if w > 0 { buffer.write(String(c), at: Position(x: area.x + x, y: y), style: style, maxWidth: w) }
                x += w
            }
            if focused && r == cursorRow { position = Position(x: area.x + min(cursorColumn(), area.width - 1), y: y) }
            shown = nextRow(r)
        }
        return position
    }
}
