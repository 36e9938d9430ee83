/// Org mode, as Emacs reads it: a headline (`*` at the start of a line, one per level, then a space) is an
/// item; a done keyword after the stars (`DONE`, or what the file's `#+TODO:` lines name) marks it done; the
/// lines below it, up to the next headline, are its note exactly as written; text before the first headline
/// is the note of a first item with an empty title. docs/FORMATS.md has every rule.
public enum OrgOutline {
    /// Put before a title that would otherwise read as done (`DONE it` not done), or that starts with it:
    /// Org's own escape for text that would be read as markup, invisible in Emacs.
    static let zeroWidthSpace: [UInt8] = [0xE2, 0x80, 0x8B]

    /// Reads Org text; it fails only for a headline deeper than ``OutlineFormat/maximumLevels``.
    public static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(InterchangeError) -> [OutlineNode] in try OrgReader(bytes).read() }
        }.get()
    }

    /// Writes `nodes`: `*` per level, `DONE ` before a done item's title, its note's lines below it. Check
    /// ``OutlineFormat/maximumLevels`` first: deeper outlines are refused by ``read(_:)``.
    public static func write(_ nodes: [OutlineNode]) -> String {
        // The notes are written as they are, so their keyword lines are the file's: done items get a
        // keyword of those, and titles are escaped by those.
        var keywords = OrgKeywords()
        forEachInOrder(nodes) { node, _ in
            if let note = node.note { keywords.scan(note: note) }
        }
        // Then the items' own states that no keyword line declares: the writer declares them.
        forEachInOrder(nodes) { node, _ in
            if let state = node.state { keywords.include(state: Array(state.utf8), done: node.isDone) }
        }
        var writer = OrgWriter(keywords: keywords)
        return writer.write(nodes)
    }

    /// Whether `node` is what the reader makes of text before the first headline: a first item with an empty
    /// title, not done, without sub-items, whose note has a line that is not blank. Not when its note starts
    /// with a byte-order mark (the reader drops one that starts the file) or has a CR ending every line (the
    /// file would read as one with Windows line ends, whose CRs are no text): such an item is a headline.
    static func isPreamble(_ node: OutlineNode, hasChildren: Bool) -> Bool {
        guard node.title.isEmpty, !node.isDone, !hasChildren, let note = node.note,
            !note.utf8.starts(with: [0xEF, 0xBB, 0xBF])
        else { return false }
        let lines = note.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        return lines.contains { $0.contains { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } }
            && !lines.allSatisfy { $0.last == 0x0D }
    }

    /// A title on one line: each line break (CR LF, LF, CR) becomes a space.
    static func singleLine(_ title: String, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var previous: UInt8 = 0
        for b in title.utf8 {
            if b == 0x0A && previous == 0x0D {
                // The CR before was made a space already.
            } else {
                out.append(b == 0x0A || b == 0x0D ? UInt8(ascii: " ") : b)
            }
            previous = b
        }
    }

    /// The note's lines, each followed by a line feed; a line that would read as a headline (after any
    /// commas: `* x`, `,* x`) gets a comma before it, which the reader takes away again.
    static func appendNote(_ note: String, to out: inout [UInt8]) {
        for line in note.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if isHeadline(line, afterCommas: 0) { out.append(UInt8(ascii: ",")) }
            out += line
            out.append(0x0A)
        }
    }

    /// Whether `line` is at least `commas` commas, then a headline's stars and space. With one, a line the
    /// writer escaped.
    static func isHeadline<Line: Collection<UInt8>>(_ line: Line, afterCommas commas: Int) -> Bool {
        var i = line.startIndex
        var seen = 0
        while i != line.endIndex, line[i] == UInt8(ascii: ",") {
            i = line.index(after: i)
            seen += 1
        }
        guard seen >= commas else { return false }
        let stars = i
        while i != line.endIndex, line[i] == UInt8(ascii: "*") { i = line.index(after: i) }
        return i != stars && i != line.endIndex && line[i] == UInt8(ascii: " ")
    }
}
