/// A single-line text field: the text, a cursor, and horizontal scrolling when the text is wider than the field.
///
/// Printable characters insert; ``apply(_:)`` does a ``TextEdit`` (an app's keymap chooses the keys), and
/// ``handle(_:)`` the usual keys: Backspace and Delete; ←/→, Home/End, Ctrl-A/Ctrl-E; Alt-B/Alt-F and
/// Ctrl-←/→ by word; Ctrl-W deletes the word before the cursor, Ctrl-U everything before it, Ctrl-K everything
/// after it. Enter, Esc and the rest are left to the caller.
///
/// For example:
/// ```swift
/// var field = TextField()
/// _ = field.handle(.character("a"))
/// frame.cursor = field.render(into: &frame.buffer, area: row, focused: true)
/// ```
public struct TextField: Sendable {
    public private(set) var characters: [Character]
    /// The cells each character takes, in step with `characters` (changed only through `replace`): a frame of
    /// a long text (a pasted blob of a title) adds up integers instead of measuring every character again.
    private var widths: [Int]
    /// The cursor, as an index into `characters` (0…count).
    public private(set) var cursor: Int
    /// The first cell column shown (horizontal scroll), kept by `render`.
    public private(set) var scroll = 0

    public init(text: String = "") {
        characters = Array(text)
        widths = characters.map { DisplayWidth.of($0) }
        cursor = characters.count
    }

    /// Puts `new` in place of `range`, widths and all.
    private mutating func replace(_ range: Range<Int>, with new: [Character]) {
        characters.replaceSubrange(range, with: new)
        widths.replaceSubrange(range, with: new.map { DisplayWidth.of($0) })
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }

    /// What a key did to the field.
    public enum Outcome: Equatable, Sendable {
        /// The text changed.
        case edited
        /// Only the cursor moved (or the key was an edit with nothing to do).
        case moved
        /// Not a field key: the caller handles it (Enter, Esc, Tab, …).
        case ignored
    }

    /// Replaces the text and puts the cursor at its end.
    public mutating func setText(_ text: String) {
        characters = Array(text)
        widths = characters.map { DisplayWidth.of($0) }
        cursor = characters.count
        scroll = 0
    }

    /// Inserts text at the cursor (typed or pasted); line breaks become spaces in a single-line field.
    public mutating func insert(_ text: String) {
        let cleaned = text.map { $0.isNewline ? " " : $0 }
        let start = cursor
        replace(cursor..<cursor, with: cleaned)
        cursor += cleaned.count
        regroup(around: start..<cursor)
    }

    /// Makes `characters` the text's grapheme clusters again around `changed` (what was inserted, or the
    /// empty range where something was deleted). Keys arrive one scalar at a time: an accent typed after `e`,
    /// the second half of a flag, a skin tone or a zero-width joiner join the character before them, so that
    /// moving, deleting and drawing treat them as the one character they are. Only the characters next to
    /// the change can join it (a run of regional indicators is taken whole, as flags pair from its start),
    /// so a key in a long text costs what is near it. The cursor stays after the text that was before it
    /// (after the whole character, when that one grew).
    private mutating func regroup(around changed: Range<Int>) {
        func flag(_ c: Character) -> Bool { c.unicodeScalars.contains { (0x1F1E6...0x1F1FF).contains($0.value) } }
        var lo = max(0, changed.lowerBound - 1)
        while lo > 0, flag(characters[lo - 1]) { lo -= 1 }
        var hi = min(characters.count, changed.upperBound + 1)
        while hi < characters.count, flag(characters[hi]) { hi += 1 }
        guard hi - lo > 1 else { return }
        let window = characters[lo..<hi]
        let regrouped = Array(String(window))
        // Compared whole: a flag's halves can pair differently in as many characters as before.
        guard !regrouped.elementsEqual(window) else { return }
        var target = 0
        if cursor > lo { for c in characters[lo..<min(cursor, hi)] { target += c.unicodeScalars.count } }
        var scalars = 0, index = 0
        for c in regrouped where scalars < target {
            scalars += c.unicodeScalars.count
            index += 1
        }
        replace(lo..<hi, with: regrouped)
        if cursor > lo { cursor = lo + index }
    }

    /// Applies an editing key: typing inserts, and the usual keys (``TextEdit/standard(for:)``) edit.
    public mutating func handle(_ key: Key) -> Outcome {
        if let c = key.text {
            insert(String(c))
            return .edited
        }
        return TextEdit.standard(for: key).map { apply($0) } ?? .ignored
    }

    /// Applies one editing action; those that need several lines (up, a new line) are `.ignored`.
    public mutating func apply(_ edit: TextEdit) -> Outcome {
        switch edit {
        case .deleteBackward:
            guard cursor > 0 else { return .moved }
            cursor -= 1
            replace(cursor..<cursor + 1, with: [])
            regroup(around: cursor..<cursor)
            return .edited
        case .deleteForward:
            guard cursor < characters.count else { return .moved }
            replace(cursor..<cursor + 1, with: [])
            regroup(around: cursor..<cursor)
            return .edited
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .rowStart, .lineStart, .textStart: cursor = 0
        case .rowEnd, .lineEnd, .textEnd: cursor = characters.count
        case .wordLeft: cursor = wordStart(before: cursor)
        case .wordRight: cursor = wordEnd(after: cursor)
        case .deleteWordBackward:
            let start = wordStart(before: cursor)
            guard start < cursor else { return .moved }
            replace(start..<cursor, with: [])
            cursor = start
            return .edited
        case .deleteToLineStart:
            guard cursor > 0 else { return .moved }
            replace(0..<cursor, with: [])
            cursor = 0
            return .edited
        case .deleteToLineEnd:
            guard cursor < characters.count else { return .moved }
            replace(cursor..<characters.count, with: [])
            return .edited
        case .up, .down, .pageUp, .pageDown, .newLine:
            return .ignored
        }
        return .moved
    }

    private func wordStart(before i: Int) -> Int {
        var j = i
        while j > 0, characters[j - 1].isWhitespace { j -= 1 }
        while j > 0, !characters[j - 1].isWhitespace { j -= 1 }
        return j
    }

    private func wordEnd(after i: Int) -> Int {
        var j = i
        while j < characters.count, characters[j].isWhitespace { j += 1 }
        while j < characters.count, !characters[j].isWhitespace { j += 1 }
        return j
    }

    /// Scrolls as `render` does for a field `width` cells wide, so that a caller keeping the field between
    /// frames can do it when the text, the cursor or the width changes and draw a copy.
    public mutating func scrollToCursor(width: Int) {
        _ = scrollToCursor(width: width, widths: widths)
    }

    /// Returns the cursor's column in the text.
    private mutating func scrollToCursor(width: Int, widths: [Int]) -> Int {
        var cursorColumn = 0
        for w in widths[..<cursor] { cursorColumn += w }
        let total = cursorColumn + widths[cursor...].reduce(0, +)
        // Keep the cursor inside the field, and do not leave empty room on the right when the text would fill it.
        if cursorColumn < scroll { scroll = cursorColumn }
        if cursorColumn >= scroll + width { scroll = cursorColumn - width + 1 }
        scroll = max(0, min(scroll, max(0, total + 1 - width)))
        return cursorColumn
    }

    /// Draws the field in the first row of `area` and returns where the cursor goes when focused.
    ///
    /// An empty, unfocused field shows `placeholder`. The view scrolls so the cursor stays visible; a wide
    /// character cut by the left edge shows as a space.
    public mutating func render(
        into buffer: inout Buffer, area: Rect, style: Style = .plain, focused: Bool,
        placeholder: String = "", placeholderStyle: Style = Style(attributes: .dim)
    ) -> Position? {
        let row = area.row(0).intersection(buffer.area)
        guard !row.isEmpty else { return nil }
        buffer.fill(row, with: .blank(style))
        if characters.isEmpty && !focused {
            buffer.write(DisplayWidth.truncate(placeholder, to: row.width), at: row.origin, style: placeholderStyle, maxWidth: row.width)
            return nil
        }
        let cursorColumn = scrollToCursor(width: row.width, widths: widths)
        var column = 0
        for (c, w) in zip(characters, widths) {
            defer { column += w }
            if column + w <= scroll { continue }
            if column >= scroll + row.width { break }
            let x = row.x + column - scroll
            if column < scroll || column + w > scroll + row.width {
                // Half of a wide character is outside the field.
                buffer.write(" ", at: Position(x: max(row.x, x), y: row.y), style: style, maxWidth: 1)
            } else {
                buffer.write(String(c), at: Position(x: x, y: row.y), style: style, maxWidth: w)
            }
        }
        return focused ? Position(x: row.x + cursorColumn - scroll, y: row.y) : nil
    }
}
