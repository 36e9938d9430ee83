/// A multi-line text editor: lines of grapheme clusters, a cursor, soft wrapping at the width and vertical
/// scrolling that keeps the cursor in view (see `TextArea+Rows.swift`).
///
/// Keys: printable characters insert; Enter inserts a line break; Backspace and Delete (joining lines at
/// their ends); ←/→ (Ctrl-B/Ctrl-F), ↑/↓ (Ctrl-P/Ctrl-N) by display column through wrapped rows; Home/End
/// to the start or end of the row on screen, Ctrl-A/Ctrl-E of the line; Ctrl-Home/Ctrl-End to the start or
/// end of the text; PgUp/PgDn by a screenful; Ctrl-←/→ by word; Ctrl-W deletes the word before the cursor,
/// Ctrl-U the line before it, Ctrl-K the line after it (or the line break at its end). Esc and the rest are
/// left to the caller. Each edit costs in proportion to the line it changes, not to the whole text.
///
/// For example:
/// ```swift
/// var area = TextArea(text: "Saturday\nbefore ten")
/// _ = area.handle(.enter)
/// frame.cursor = area.render(into: &frame.buffer, area: pane, focused: true)
/// ```
public struct TextArea: Sendable {
    /// A place in the text: a line, and an index into that line's characters (0…count).
    public struct Location: Comparable, Hashable, Sendable {
        public var line: Int
        public var index: Int

        public init(line: Int, index: Int) {
            self.line = line
            self.index = index
        }

        public static func < (a: Location, b: Location) -> Bool { (a.line, a.index) < (b.line, b.index) }
    }

    /// What a key did to the text.
    public enum Outcome: Equatable, Sendable {
        /// The text changed.
        case edited
        /// Only the cursor moved (or the key was an edit with nothing to do).
        case moved
        /// Not an editing key: the caller handles it (Esc, Tab, …).
        case ignored
    }

    /// The characters of each line, without its line break.
    public internal(set) var lines: [[Character]]
    /// The line break after each line but the last, as it was in the text (`\n`, `\r\n`, …), so that text
    /// read and written back unchanged is the same text.
    var breaks: [Character]
    public internal(set) var cursor: Location
    /// The display column ↑ and ↓ aim for, kept through a run of them (a short row in between moves the
    /// cursor left, the next longer one takes it back).
    var goalColumn: Int?
    /// The first row shown: a line and one of its wrapped rows. Kept by `scrollToCursor` and `render`.
    public internal(set) var top = Location(line: 0, index: 0)
    /// Each line's wrapped rows at `wrapWidth`, computed when first needed after the line changed.
    var wrapped: [[Range<Int>]?]
    /// How many times a line has been wrapped: the work a key costs besides its own line (tests count it,
    /// since the time of a key in a megabyte of text is not a thing a test can assert on a loaded machine).
    var linesWrapped = 0
    var wrapWidth = 0
    /// The height last scrolled for: what PgUp and PgDn move by.
    var viewHeight = 1

    /// Starts with `text` and the cursor at its end (where a note is most often added to).
    public init(text: String = "") {
        var lines: [[Character]] = [[]]
        var breaks: [Character] = []
        for c in text {
            if c.isNewline {
                breaks.append(c)
                lines.append([])
            } else {
                lines[lines.count - 1].append(c)
            }
        }
        self.lines = lines
        self.breaks = breaks
        cursor = Location(line: lines.count - 1, index: lines[lines.count - 1].count)
        wrapped = Array(repeating: nil, count: lines.count)
    }

    /// The whole text, with the line breaks it was read with (new ones are `\n`).
    public var text: String {
        var out = ""
        for (i, line) in lines.enumerated() {
            out.append(contentsOf: line)
            if i < breaks.count { out.append(breaks[i]) }
        }
        return out
    }

    public var isEmpty: Bool { lines.count == 1 && lines[0].isEmpty }

    /// Puts the cursor at `location` (clamped into the text).
    public mutating func moveCursor(to location: Location) {
        let line = min(max(0, location.line), lines.count - 1)
        cursor = Location(line: line, index: min(max(0, location.index), lines[line].count))
        goalColumn = nil
    }

    // MARK: Editing

    /// Inserts text at the cursor (typed or pasted); every line break in it, `\r` included (what terminals
    /// send for Enter in a paste), starts a new line (written as `\n`).
    public mutating func insert(_ text: String) {
        goalColumn = nil
        var pieces: [[Character]] = [[]]
        for c in text {
            if c.isNewline { pieces.append([]) } else { pieces[pieces.count - 1].append(c) }
        }
        let at = cursor
        if pieces.count == 1 {
            lines[at.line].insert(contentsOf: pieces[0], at: at.index)
            cursor.index += pieces[0].count
            changed(at.line)
            regroup(at.line, at.index, cursor.index)
            return
        }
        let tail = Array(lines[at.line][at.index...])
        lines[at.line].replaceSubrange(at.index..., with: pieces[0])
        var added = Array(pieces.dropFirst())
        let lastCount = added[added.count - 1].count
        added[added.count - 1] += tail
        lines.insert(contentsOf: added, at: at.line + 1)
        breaks.insert(contentsOf: Array(repeating: "\n", count: added.count), at: at.line)
        wrapped.insert(contentsOf: Array(repeating: nil, count: added.count), at: at.line + 1)
        changed(at.line)
        cursor = Location(line: at.line + added.count, index: lastCount)
        regroup(at.line, at.index, lines[at.line].count)
        regroup(cursor.line, 0, cursor.index)
    }

    /// Applies an editing or moving key.
    public mutating func handle(_ key: Key) -> Outcome {
        if let c = key.text {
            insert(String(c))
            return .edited
        }
        return TextEdit.standard(for: key).map { apply($0) } ?? .ignored
    }

    /// Applies one editing action (what a key bound to it in an app's keymap does).
    public mutating func apply(_ edit: TextEdit) -> Outcome {
        let keepsGoal: Bool
        switch edit {
        case .up, .down, .pageUp, .pageDown: keepsGoal = true
        default: keepsGoal = false
        }
        defer { if !keepsGoal { goalColumn = nil } }
        switch edit {
        case .newLine:
            insert("\n")
            return .edited
        case .deleteBackward: return deleteBackward() ? .edited : .moved
        case .deleteForward: return deleteForward() ? .edited : .moved
        case .left: moveLeft()
        case .right: moveRight()
        case .up: moveVertically(by: -1)
        case .down: moveVertically(by: 1)
        case .pageUp: moveVertically(by: -max(1, viewHeight - 1))
        case .pageDown: moveVertically(by: max(1, viewHeight - 1))
        case .rowStart: moveToRowEdge(end: false)
        case .rowEnd: moveToRowEdge(end: true)
        case .lineStart: cursor.index = 0
        case .lineEnd: cursor.index = lines[cursor.line].count
        case .textStart: cursor = Location(line: 0, index: 0)
        case .textEnd: cursor = Location(line: lines.count - 1, index: lines[lines.count - 1].count)
        case .wordLeft: cursor.index = wordStart(before: cursor.index)
        case .wordRight: cursor.index = wordEnd(after: cursor.index)
        case .deleteWordBackward: return removeInLine(wordStart(before: cursor.index)..<cursor.index) ? .edited : .moved
        case .deleteToLineStart: return removeInLine(0..<cursor.index) ? .edited : .moved
        case .deleteToLineEnd:
            if cursor.index == lines[cursor.line].count { return deleteForward() ? .edited : .moved }
            return removeInLine(cursor.index..<lines[cursor.line].count) ? .edited : .moved
        }
        return .moved
    }

    private mutating func deleteBackward() -> Bool {
        if cursor.index > 0 { return removeInLine(cursor.index - 1..<cursor.index) }
        guard cursor.line > 0 else { return false }
        cursor = Location(line: cursor.line - 1, index: lines[cursor.line - 1].count)
        joinWithNext(cursor.line)
        return true
    }

    private mutating func deleteForward() -> Bool {
        if cursor.index < lines[cursor.line].count { return removeInLine(cursor.index..<cursor.index + 1) }
        guard cursor.line + 1 < lines.count else { return false }
        joinWithNext(cursor.line)
        return true
    }

    /// Removes characters of the cursor's line; the cursor goes where they were.
    private mutating func removeInLine(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        lines[cursor.line].removeSubrange(range)
        cursor.index = range.lowerBound
        changed(cursor.line)
        regroup(cursor.line, range.lowerBound, range.lowerBound)
        return true
    }

    /// Removes the line break after line `l`.
    private mutating func joinWithNext(_ l: Int) {
        let seam = lines[l].count
        lines[l] += lines[l + 1]
        lines.remove(at: l + 1)
        breaks.remove(at: l)
        wrapped.remove(at: l + 1)
        changed(l)
        regroup(l, seam, seam)
    }

    private mutating func changed(_ l: Int) { wrapped[l] = nil }

    /// Makes the characters of line `l` around `lo..<hi` (what an edit just changed) its grapheme clusters
    /// again, as `TextField` does for its whole text: an accent, the second half of a flag, a skin tone or a
    /// zero-width joiner typed one key at a time joins the character before it. Only a few characters around
    /// the edit are regrouped (further for runs of flags, whose pairs depend on all before them), so typing
    /// into a long line does not cost its whole length. The cursor stays after the text that was before it.
    private mutating func regroup(_ l: Int, _ lo: Int, _ hi: Int) {
        let chars = lines[l]
        func joins(_ c: Character) -> Bool {
            c.unicodeScalars.contains { (0x1F1E6...0x1F1FF).contains($0.value) || $0.value == 0x200D }
        }
        var a = max(0, lo - 1)
        while a > 0 && joins(chars[a - 1]) { a -= 1 }
        var b = min(chars.count, hi + 1)
        while b < chars.count && (joins(chars[b]) || joins(chars[b - 1])) { b += 1 }
        guard a < b else { return }
        let old = chars[a..<b]
        let regrouped = Array(String(old))
        if regrouped.count == old.count && zip(regrouped, old).allSatisfy({ $0.unicodeScalars.count == $1.unicodeScalars.count }) {
            return
        }
        lines[l].replaceSubrange(a..<b, with: regrouped)
        changed(l)
        guard cursor.line == l, cursor.index > a else { return }
        if cursor.index >= b {
            cursor.index += regrouped.count - old.count
            return
        }
        var target = 0
        for c in chars[a..<cursor.index] { target += c.unicodeScalars.count }
        var scalars = 0, index = a
        for c in regrouped where scalars < target {
            scalars += c.unicodeScalars.count
            index += 1
        }
        cursor.index = index
    }

    // MARK: Moving in a line

    private mutating func moveLeft() {
        if cursor.index > 0 {
            cursor.index -= 1
        } else if cursor.line > 0 {
            cursor = Location(line: cursor.line - 1, index: lines[cursor.line - 1].count)
        }
    }

    private mutating func moveRight() {
        if cursor.index < lines[cursor.line].count {
            cursor.index += 1
        } else if cursor.line + 1 < lines.count {
            cursor = Location(line: cursor.line + 1, index: 0)
        }
    }

    private func wordStart(before i: Int) -> Int {
        let chars = lines[cursor.line]
        var j = i
        while j > 0, chars[j - 1].isWhitespace { j -= 1 }
        while j > 0, !chars[j - 1].isWhitespace { j -= 1 }
        return j
    }

    private func wordEnd(after i: Int) -> Int {
        let chars = lines[cursor.line]
        var j = i
        while j < chars.count, chars[j].isWhitespace { j += 1 }
        while j < chars.count, !chars[j].isWhitespace { j += 1 }
        return j
    }
}
