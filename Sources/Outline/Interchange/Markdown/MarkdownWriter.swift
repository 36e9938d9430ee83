import CCMarkGFM

/// Writes outline nodes as CommonMark that cmark-gfm reads back to the same nodes: `- title`, `- [x] title`
/// for a done item, two spaces a level, a note's lines under its title after a blank line (indented to the
/// item's content, so they stay in it), with `MarkdownEscaping`'s backslashes where the text would
/// otherwise read as something else.
struct MarkdownWriter: OutlineWriter {
    /// For each item entered with sub-items, not left yet: where its sub-items' markers go, whether their
    /// content is `wide` (5 columns after the marker instead of 2), and its note when that goes after them.
    private var open: [(childColumn: Int, childrenWide: Bool, note: [UInt8]?, content: Int)] = []

    /// The outline's own text (the top item's note), written above the first item.
    let preamble: String?

    init(preamble: String? = nil) {
        self.preamble = preamble
    }

    mutating func begin(into out: inout [UInt8]) {
        guard let preamble, let lines = Self.noteLines(preamble, column: 0) else { return }
        if Self.readsAsPreamble(lines) {
            out += lines
            out += [0x0A, 0x0A]
        } else {
            // Text that would read as items (a paragraph, a list, a heading) or take them in (a fence left
            // open): the note of a first item with an empty title, which is how it reads back.
            enter(OutlineNode("", note: preamble), depth: 0, hasChildren: false, into: &out)
        }
    }

    /// The lines read back as a preamble (see `MarkdownReader`): only code, quotes, HTML, breaks and a Logseq
    /// page's properties, none left open to take in the first item after them.
    static func readsAsPreamble(_ lines: [UInt8]) -> Bool {
        let text = lines + Array("\n\n- item\n".utf8)
        let document = MarkdownDocument(text)
        let blocks = document.root.children
        guard let last = blocks.last, last.type == CMARK_NODE_LIST, last.children.count == 1,
            last.startLine == text.split(separator: 0x0A, omittingEmptySubsequences: false).count - 1,
            // A break first or last only separates: the reader keeps none outside the blocks it separates.
            blocks.first?.type != CMARK_NODE_THEMATIC_BREAK, blocks.dropLast().last?.type != CMARK_NODE_THEMATIC_BREAK
        else { return false }
        return blocks.dropLast().allSatisfy { b in
            b.type == CMARK_NODE_CODE_BLOCK || b.type == CMARK_NODE_BLOCK_QUOTE || b.type == CMARK_NODE_HTML_BLOCK
                || b.type == CMARK_NODE_THEMATIC_BREAK || (b.type == CMARK_NODE_PARAGRAPH && MarkdownReader.isPageProperties(b))
        }
    }

    mutating func enter(_ node: OutlineNode, depth: Int, hasChildren: Bool, into out: inout [UInt8]) {
        // `column` is where the item's marker goes; its content (note lines, sub-items) starts 2 further, or 5
        // when `wide`.
        let column = open.last?.childColumn ?? 0
        let wide = open.last?.childrenWide ?? false
        titleLine(node, column: column, wide: wide, into: &out)
        let content = column + (wide ? 5 : 2)
        var note: [UInt8]?
        if let text = node.note { note = Self.noteLines(text, column: content) }
        var childColumn = content
        var childrenWide = false
        var after: [UInt8]?
        if let lines = note, hasChildren, !Self.noteMayGoFirst(lines, column: content) {
            after = lines
            // The note's first line, when indented, must not fall into the last sub-item: sub-items 3
            // columns in, with 4 blanks after their marker, have their content 8 columns in, past a note's
            // first 7.
            childColumn += 3
            childrenWide = true
        } else if let lines = note {
            Self.noteBlock(lines, column: content, into: &out)
            // A blank line ends what the note leaves open until one (an HTML block) before a sub-item.
            if hasChildren { out.append(0x0A) }
        }
        if hasChildren { open.append((childColumn, childrenWide, after, content)) }
    }

    mutating func leave(depth: Int, into out: inout [UInt8]) {
        let item = open.removeLast()
        if let lines = item.note { Self.noteBlock(lines, column: item.content, into: &out) }
    }

    func end(into out: inout [UInt8]) {}

    private func titleLine(_ node: OutlineNode, column: Int, wide: Bool, into out: inout [UInt8]) {
        out += Array(repeating: MarkdownEscaping.space, count: column)
        out += Array((wide ? "-    " : "- ").utf8)
        if node.isDone && node.state == nil { out += Array("[x] ".utf8) }
        // A title cannot hold a line break: each (LF, CR or CRLF) is a space. U+0000 is read as U+FFFD: so
        // it is written, so that what the title is read as (tags at its end, say) is decided on that.
        let raw = Array(node.title.utf8)
        var flat: [UInt8] = []
        var i = 0
        while i < raw.count {
            if raw[i] == 0x0D && i + 1 < raw.count && raw[i + 1] == 0x0A { i += 1 }
            if raw[i] == 0 {
                flat += [0xEF, 0xBF, 0xBD]
            } else {
                flat.append(raw[i] == 0x0A || raw[i] == 0x0D ? MarkdownEscaping.space : raw[i])
            }
            i += 1
        }
        // Most titles have no marker's capital first, no `#`, no extras, none of the signs and marks that start
        // with 0xE2 or 0xF0 in UTF-8 (U+200B, ✅, ⏳, 📅): nothing to look at.
        if node.extras != nil || flat.first.map({ $0 == UInt8(ascii: "[") || ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }) ?? false
            || flat.contains(where: { $0 == UInt8(ascii: "#") || $0 == 0xE2 || $0 == 0xF0 }),
            let line = LogseqBlock.firstLine(of: node, title: String(decoding: flat, as: UTF8.self))
        {
            flat = Array(line.utf8)
        }
        // Planning and properties: lines of the title's paragraph, which the reader takes out of the title.
        let more = LogseqBlock.moreLines(of: node.extras)
        out += MarkdownEscaping.source(ofTitle: flat, moreLines: !more.isEmpty)
        out.append(0x0A)
        let indent = Array(repeating: MarkdownEscaping.space, count: column + (wide ? 5 : 2))
        for line in more { out += indent + Array(line.utf8) + [0x0A] }
    }

    /// A blank line, then the note's lines indented to the item's content `column`; blank lines stay empty.
    private static func noteBlock(_ lines: [UInt8], column: Int, into out: inout [UInt8]) {
        out.append(0x0A)
        let indent = Array(repeating: MarkdownEscaping.space, count: column)
        for line in lines.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if !line.isEmpty { out += indent + line }
            out.append(0x0A)
        }
    }

    /// A note's text as it is written (before indentation to `column`): lines split at LF, CR and CRLF,
    /// leading and trailing blank lines dropped, and a `\` before each marker that would start a list (cmark,
    /// run on the note where it goes, says which lines start one, again until none does) and each a reader
    /// would unescape.
    static func noteLines(_ note: String, column: Int) -> [UInt8]? {
        let lines = SourceLines(Array(note.utf8))
        var text: [[UInt8]] = (0..<lines.count).map { Array(lines.line($0 + 1, droppingColumns: 0)) }
        while let first = text.first, first.allSatisfy({ $0 == MarkdownEscaping.space || $0 == MarkdownEscaping.tab }) { text.removeFirst() }
        while let last = text.last, last.allSatisfy({ $0 == MarkdownEscaping.space || $0 == MarkdownEscaping.tab }) { text.removeLast() }
        guard !text.isEmpty else { return nil }
        // Most notes have no line that could start a list: cmark need not look at them.
        if text.contains(where: { MarkdownEscaping.startsListItem($0[...]) }) {
            var escaped = Set<Int>()
            for _ in 0...text.count {
                let parsed = ParsedNote(text, column: column)
                let starts = parsed.blocks.filter { $0.type == CMARK_NODE_LIST }.flatMap { $0.children.map { parsed.index(ofLine: $0.startLine) } }
                if starts.isEmpty {
                    // Lines that already hold a `\` before a marker in a paragraph or heading, at any depth
                    // (which the reader would take for the writer's), get one more.
                    for range in MarkdownDocument.textLines(in: parsed.blocks) {
                        let first = max(0, parsed.index(ofLine: range.lowerBound))
                        let last = min(parsed.index(ofLine: range.upperBound), text.count - 1)
                        for n in first...max(first, last) where n < text.count && !escaped.contains(n) {
                            let rest = text[n].drop { $0 == MarkdownEscaping.space || $0 == MarkdownEscaping.tab }
                            if rest.first == MarkdownEscaping.backslash && MarkdownEscaping.isMarked(rest) {
                                text[n] = MarkdownEscaping.escapedNoteLine(text[n])
                                escaped.insert(n)
                            }
                        }
                    }
                    break
                }
                for n in starts where n >= 0 && n < text.count {
                    text[n] = MarkdownEscaping.escapedNoteLine(text[n])
                    escaped.insert(n)
                }
            }
        }
        return joined(text)
    }

    /// The note can go before the item's sub-items: it leaves no block open that would take them in (a
    /// code fence or an HTML comment not closed). Checked by cmark when the note has `` ` ``, `~` or `<`.
    static func noteMayGoFirst(_ note: [UInt8], column: Int) -> Bool {
        guard note.contains(where: { $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "<") }) else { return true }
        var lines = note.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        lines += [[], Array("- sub-item".utf8)]
        let parsed = ParsedNote(lines, column: column)
        guard let last = parsed.blocks.last, last.type == CMARK_NODE_LIST, last.children.count == 1 else { return false }
        return parsed.index(ofLine: last.startLine) == lines.count - 1
    }

    /// A note's lines parsed as they will be read: in an item whose content starts at the same column modulo
    /// 4 (where a leading tab ends depends on it).
    private struct ParsedNote {
        let document: MarkdownDocument
        /// The note's top-level blocks.
        let blocks: [MarkdownDocument.Node]
        /// Lines of the wrapping before the note's first line.
        private let offset: Int

        init(_ lines: [[UInt8]], column: Int) {
            // The item's first line: the marker, then blanks to the content column (2, 3 or 5; 0 needs none).
            let width = [0, 5, 2, 3][column % 4]
            guard width > 0 else {
                document = MarkdownDocument(MarkdownWriter.joined(lines))
                blocks = document.root.children
                offset = 0
                return
            }
            let indent = Array(repeating: MarkdownEscaping.space, count: width)
            var text = Array("-".utf8) + indent.dropFirst() + Array("x\n\n".utf8)
            text += MarkdownWriter.joined(lines.map { $0.isEmpty ? $0 : indent + $0 })
            document = MarkdownDocument(text)
            let item = document.root.firstChild?.firstChild
            blocks = Array(item?.children.dropFirst() ?? [])
            offset = 2
        }

        /// The index in the note's lines of a line of the parsed text.
        func index(ofLine line: Int) -> Int { line - 1 - offset }
    }

    fileprivate static func joined(_ lines: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for (n, line) in lines.enumerated() {
            if n > 0 { out.append(0x0A) }
            out += line
        }
        return out
    }
}
