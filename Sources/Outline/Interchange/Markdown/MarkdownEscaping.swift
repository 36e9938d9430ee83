/// The backslashes Burrow's writer adds so that a title or note reads back as itself, and the reader takes
/// off again (docs/FORMATS.md, Markdown). They are CommonMark's own escapes, so other programs show the text
/// the same way.
///
/// A title is a paragraph's source text: a title that would start another block (a heading, quote, list,
/// code fence, HTML block, task box, link reference definition) or begins with blanks gets one `\` in
/// front; one that ends with a blank (which a paragraph drops) gets the writer's mark, a zero-width space,
/// after it. A note line that would start a list (which the reader takes for sub-items) gets one `\` before
/// its marker.
enum MarkdownEscaping {
    // MARK: Titles

    /// The title a paragraph's source text stands for: the writer's leading `\` taken off. Its end is as
    /// written: a `\` there is text (LaTeX's `\\` ends many a line), and the writer's mark after a blank is
    /// taken off with the title's other marks (`LogseqBlock.read`).
    static func title(fromSource source: [UInt8], leading: Bool = true) -> [UInt8] {
        var s = source[...]
        if leading, s.first == backslash, s.count == 1 || takesLeadingEscape(s[s.startIndex + 1]) { s = s.dropFirst() }
        return Array(s)
    }

    /// The source text that reads back as `title` (which holds no line breaks) at the start of an item.
    /// `moreLines`: lines of the same paragraph follow (planning, properties).
    static func source(ofTitle title: [UInt8], moreLines: Bool = false) -> [UInt8] {
        if title.isEmpty { return [backslash] }
        var out: [UInt8] = []
        let first = title[0]
        // Form feed and vertical tab count as blanks where cmark-gfm looks for a task box.
        if first == space || first == tab || first == 0x0B || first == 0x0C
            || (first == backslash && (title.count == 1 || takesLeadingEscape(title[1])))
            || startsBlock(title)
        {
            out.append(backslash)
        }
        out += title
        // A blank at the end (which a paragraph drops), or a `\` that would break the line before the next
        // line of the paragraph: kept by the writer's mark after it, a zero-width space, which the reader
        // takes off.
        let last = title[title.count - 1]
        if last == space || last == tab || last == 0x0B || last == 0x0C
            || (moreLines && out.reversed().prefix { $0 == backslash }.count % 2 == 1)
        {
            out += mark
        }
        return out
    }

    /// The writer's mark (U+200B, `LogseqBlock.mark`) as UTF-8.
    static let mark: [UInt8] = [0xE2, 0x80, 0x8B]

    /// A `\` before this byte at the start of a title is the writer's.
    private static func takesLeadingEscape(_ b: UInt8) -> Bool {
        isPunctuation(b) || b == space || b == tab || b == 0x0B || b == 0x0C || isDigit(b)
    }

    /// The text, at the start of an item's first line, would open a block other than a paragraph (or a task
    /// box, or a link reference definition, which a paragraph swallows). It may say yes to a little more
    /// than CommonMark would (a `\` too many), never less.
    static func startsBlock(_ s: [UInt8]) -> Bool {
        guard let first = s.first else { return false }
        switch first {
        case UInt8(ascii: "#"):
            let hashes = s.prefix { $0 == first }.count
            return hashes <= 6 && endsMarker(s, at: hashes)
        case UInt8(ascii: ">"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "_"):
            if first != UInt8(ascii: "_") && endsMarker(s, at: 1) { return true }
            // A thematic break: three or more of one of `-*_`, blanks between; with `-`, the item's own
            // marker is the third.
            return first != UInt8(ascii: "+") && s.allSatisfy { $0 == first || $0 == space || $0 == tab }
                && s.filter { $0 == first }.count >= (first == UInt8(ascii: "-") ? 2 : 3)
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            return s.count >= 3 && s[1] == first && s[2] == first
        case UInt8(ascii: "<"):
            return !isAutolinkStart(s)
        case UInt8(ascii: "["):
            // A task box, whatever follows it (cmark-gfm takes any whitespace after it, form feed included).
            if s.count >= 3, s[1] == space || s[1] == UInt8(ascii: "x") || s[1] == UInt8(ascii: "X"), s[2] == UInt8(ascii: "]") {
                return true
            }
            return containsLinkDefinitionColon(s)
        default:
            return orderedMarkerLength(s) != nil
        }
    }

    // MARK: Notes

    /// The line (without its container's indentation) starts a list item after its blanks: see `isMarked`.
    static func startsListItem(_ line: ArraySlice<UInt8>) -> Bool {
        isMarked(line.drop { $0 == space || $0 == tab })
    }

    /// The text starts with a list marker (`-`, `+`, `*`, or 1–9 digits and `.` or `)`, then a blank or the
    /// end), or with the writer's `\` (any number of them) right before one.
    static func isMarked(_ text: ArraySlice<UInt8>) -> Bool {
        let s = text.drop { $0 == backslash }
        guard let first = s.first else { return false }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") { return endsMarker(Array(s.prefix(2)), at: 1) }
        return orderedMarkerLength(Array(s.prefix(11))) != nil
    }

    /// A note line with the writer's `\` before a list marker (after its blanks) gives the line without it.
    static func unescapedNoteLine(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blanks = line.prefix { $0 == space || $0 == tab }.count
        let rest = line.dropFirst(blanks)
        guard rest.first == backslash, isMarked(rest.dropFirst()) else { return line }
        return line.prefix(blanks) + rest.dropFirst()
    }

    /// A note line with a `\` added before its marker (after its blanks).
    static func escapedNoteLine(_ line: [UInt8]) -> [UInt8] {
        let blanks = line.prefix { $0 == space || $0 == tab }.count
        return Array(line.prefix(blanks)) + [backslash] + line.dropFirst(blanks)
    }

    // MARK: Bytes

    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let backslash = UInt8(ascii: "\\")

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private static func isPunctuation(_ b: UInt8) -> Bool {
        (0x21...0x2F).contains(b) || (0x3A...0x40).contains(b) || (0x5B...0x60).contains(b) || (0x7B...0x7E).contains(b)
    }

    /// A marker ending at `index` is followed by a blank or the end of the line.
    private static func endsMarker(_ s: [UInt8], at index: Int) -> Bool {
        index >= s.count || s[index] == space || s[index] == tab
    }

    /// The length of an ordered list marker (`1.`, `23)`) at the start, when one is there.
    private static func orderedMarkerLength(_ s: [UInt8]) -> Int? {
        let digits = s.prefix(while: isDigit).count
        guard digits >= 1 && digits <= 9 && digits < s.count else { return nil }
        guard s[digits] == UInt8(ascii: ".") || s[digits] == UInt8(ascii: ")"), endsMarker(s, at: digits + 1) else { return nil }
        return digits + 1
    }

    /// `<scheme:`: an autolink, which never opens an HTML block.
    private static func isAutolinkStart(_ s: [UInt8]) -> Bool {
        guard s.count >= 4 else { return false }
        let isLetter = { (b: UInt8) in (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        guard isLetter(s[1]) else { return false }
        var i = 2
        while i < s.count && i <= 33
            && (isLetter(s[i]) || isDigit(s[i]) || s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: "-"))
        {
            i += 1
        }
        return i >= 3 && i < s.count && s[i] == UInt8(ascii: ":")
    }

    private static func containsLinkDefinitionColon(_ s: [UInt8]) -> Bool {
        s.indices.dropLast().contains { s[$0] == UInt8(ascii: "]") && s[$0 + 1] == UInt8(ascii: ":") }
    }
}
