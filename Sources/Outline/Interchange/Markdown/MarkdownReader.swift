import CCMarkGFM

/// Turns Markdown into outline items (docs/FORMATS.md, Markdown) as cmark-gfm reads it, a piece at a time:
/// headings and list items become items, an item's first paragraph its title, its other blocks its note
/// (their source text), the lists in it its children. Between pieces the blocks cmark has closed are read and
/// freed, so a million-item file never stands whole as a tree; what it reads is what the whole document says,
/// because cmark reads a line at a time and never reopens a closed block. Walks with its own stack, so
/// nesting costs no thread stack.
///
/// Items go to the builder in document order, a parent before its children: an item with sub-items goes when
/// its first sub-list is reached, with the note read so far. What joins that note after a sub-list (rare: a
/// paragraph after a nested list), and a task box a later line sets (a quote's lazy line shaped as a task
/// item: cmark-gfm ticks the item the line is in), is set on the open item by a tree-building builder; an
/// emitting one, which cannot take it back, gets it from a first pass that hands nothing on (``LateNotes``).
struct MarkdownReader {
    typealias Node = MarkdownDocument.Node

    /// What becomes of the rest of a note that grows after its item was handed on.
    enum LateNotes {
        /// Set on the open item: the builder builds the tree.
        case amend
        /// Kept by the item's number in document order (``recorded``): a first pass, with no builder.
        case record
        /// A first pass's notes, given to their items as they are handed on.
        case use([Int: (note: String?, done: Bool)])
    }

    private let source: SourceLines<UnsafeBufferPointer<UInt8>>
    /// Where the items go; nil for a first pass.
    private(set) var builder: OutlineBuilder?
    private let late: LateNotes
    /// The whole notes of the items whose note grew after they were handed on, by number (`.record`).
    private(set) var recorded: [Int: (note: String?, done: Bool)] = [:]
    /// The number of the next item handed on.
    private var ordinal = 0
    /// The open list items already handed on (when a sub-list was reached), with the note they went with.
    private var handedItems: [Node: Handed] = [:]
    /// The levels of the open headings: an item under them is as deep as they are many.
    private var headings: [Int] = []
    /// The heading whose section is being read.
    private var section: Section?
    /// Before the first heading, the item a top-level paragraph (or other block) made, whose note the blocks
    /// after it are, until the next paragraph, list or heading.
    private var loose: Loose?
    /// Before the first heading, the last item of the top-level list just read, with its whole note: code,
    /// a quote or HTML right after the list is more of its note (as blocks after any item are), not an item.
    private var lastTop: Handed?
    /// Where the blocks before anything else (code, a quote, HTML at the top of the file) go: the outline's
    /// own text, as an Org file's preamble; without it they make a first item with an empty title.
    private let preamble: ((String) -> Void)?

    /// Counts the blocks of cmark's tree after each piece (`mostBlocksAlive`): tests show that closed blocks
    /// are freed as they go. Walking the tree costs what the tree holds, so it is off otherwise.
    var countsBlocksAlive = false
    private(set) var mostBlocksAlive = 0

    /// An item handed on before it closed: its number and the note it went with.
    private struct Handed {
        var ordinal: Int
        var note: String?
        var done = false
    }

    /// A block by its lines, kept when the block itself is freed; a note's paragraph and heading lines are
    /// where a `\` before a marker is the writer's escape.
    private struct Span {
        var start: Int
        var end: Int
        var isNote: Bool
        var textLines: [ClosedRange<Int>]

        init(_ block: Node, isNote: Bool) {
            start = block.startLine
            end = block.endLine
            self.isNote = isNote
            textLines = isNote ? MarkdownDocument.textLines(in: [block]) : []
        }
    }

    /// A heading and the blocks of its section so far: its lists are its children, the rest its note.
    private struct Section {
        var title: String
        var depth: Int
        var endLine: Int
        var spans: [Span] = []
        var handed: Handed?
    }

    private struct Loose {
        var title: String
        var paragraphEnd: Int?
        var notes: [Span] = []
        /// The line before the block after the last note block, once there is one.
        var nextStart: Int?
        /// The list item handed on already whose note these blocks continue (nil: a new item's).
        var continues: Handed?
        /// The blocks are the file's preamble.
        var isPreamble = false
    }

    /// A list being read, or an item of one: the explicit stack of the walk down the open blocks.
    private enum Frame {
        case list(Node, depth: Int, column: Int)
        /// `column`: where the item's content starts; `after`: the last sub-list walked.
        case item(Node, depth: Int, column: Int, after: Node?)
    }

    /// A reader of `bytes` (valid UTF-8 without a byte-order mark; they must outlive the reader).
    init(_ bytes: UnsafeBufferPointer<UInt8>, into builder: OutlineBuilder?, late: LateNotes, preamble: ((String) -> Void)? = nil) {
        source = SourceLines(bytes)
        self.builder = builder
        self.late = late
        self.preamble = preamble
    }

    /// Reads the whole text, feeding cmark `feedSize` bytes at a time.
    mutating func read(feedSize: Int = 1 << 16) throws(InterchangeError) {
        let parser = MarkdownParser()
        let bytes = source.bytes
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, feedSize))
            parser.feed(UnsafeBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
            try advance(parser.root)
            if countsBlocksAlive { mostBlocksAlive = max(mostBlocksAlive, Self.blocks(under: parser.root)) }
        }
        let root = parser.finish()
        defer { cmark_node_free(root) }
        try advance(root)
        try flushLoose()
        try finishSection(through: source.count)
    }

    /// Reads and frees the top-level blocks cmark has closed, and the closed part of an open list.
    private mutating func advance(_ root: Node) throws(InterchangeError) {
        while let block = root.firstChild {
            if block.isOpen {
                if block.type == CMARK_NODE_LIST { try readTopList(block) }
                return
            }
            try readTop(block)
            cmark_node_free(block)
        }
    }

    /// The blocks (not inlines) of the tree under `root`.
    private static func blocks(under root: Node) -> Int {
        var count = 0
        var pending = [root]
        while let node = pending.popLast() {
            count += 1
            pending += node.children.filter { $0.type.rawValue & 0xC000 == 0x8000 }
        }
        return count
    }

    /// A closed top-level block.
    private mutating func readTop(_ block: Node) throws(InterchangeError) {
        let type = block.type
        if type == CMARK_NODE_HEADING {
            see(block)
            try flushLoose()
            try finishSection(through: block.startLine - 1)
            let level = block.headingLevel
            while let last = headings.last, last >= level { headings.removeLast() }
            let depth = headings.count
            try checkDepth(depth, of: block)
            headings.append(level)
            lastTop = nil
            section = Section(title: builder == nil ? "" : Self.title(of: block), depth: depth, endLine: block.endLine)
        } else if section != nil {
            if type == CMARK_NODE_LIST { try readTopList(block) }
            section?.spans.append(Span(block, isNote: type != CMARK_NODE_LIST))
        } else if type == CMARK_NODE_LIST {
            try readTopList(block)
        } else if type == CMARK_NODE_PARAGRAPH, preamble != nil, ordinal == 0, loose?.isPreamble ?? true, Self.isPageProperties(block) {
            // A Logseq page's own properties (`tags:: a, b` above its first block): part of the preamble.
            if loose == nil { loose = Loose(title: "", paragraphEnd: nil, isPreamble: true) }
            loose?.notes.append(Span(block, isNote: true))
            loose?.nextStart = nil
        } else if type == CMARK_NODE_PARAGRAPH {
            see(block)
            try flushLoose()
            lastTop = nil
            loose = Loose(title: builder == nil ? "" : Self.title(of: block), paragraphEnd: block.endLine)
        } else if type == CMARK_NODE_THEMATIC_BREAK {
            see(block)
        } else {
            // Code, a quote, HTML: the note of the paragraph item or list item above; at the top of the file
            // the preamble, or an item of its own.
            if loose == nil {
                loose = Loose(title: "", paragraphEnd: nil, continues: lastTop, isPreamble: lastTop == nil && ordinal == 0 && preamble != nil)
            }
            loose?.notes.append(Span(block, isNote: true))
            loose?.nextStart = nil
        }
    }

    /// The source lines of a drawer that opens under the first line of an item's title paragraph (Logseq's
    /// `:LOGBOOK:`) and closes at an `:END:` line, in the paragraph or further down the item (where the state
    /// changes Logseq logs, `* State "DONE" from "TODO" […]`, read as a list): what they hold is the item's
    /// note, not its title or sub-items. `column`: where the item's content starts. Nil when none closes
    /// before the item ends (then the lines are what CommonMark makes of them).
    static func drawer<B>(in paragraph: Node, column: Int, source: SourceLines<B>) -> ClosedRange<Int>? {
        // Most titles are one line: nothing to read.
        guard paragraph.endLine > paragraph.startLine else { return nil }
        let lines = paragraph.rawLines.map(Self.trimmed)
        guard let n = LogseqBlock.drawerOpening(lines) else { return nil }
        let start = paragraph.startLine + n
        if let k = lines[(n + 1)...].firstIndex(where: LogseqBlock.isDrawerEnd) { return start...(paragraph.startLine + k) }
        var line = paragraph.endLine + 1
        // Bounded: a drawer of clocked time is a few hundred lines at most; a file need not be walked twice.
        while line <= min(source.count, paragraph.endLine + 10_000) {
            if LogseqBlock.isDrawerEnd(source.line(line, droppingColumns: 0)) { return start...line }
            let (indent, blank) = source.indentation(line)
            if !blank && indent < column { return nil }
            line += 1
        }
        return nil
    }

    /// A paragraph of `key:: value` lines only: how Logseq writes a page's properties above its blocks.
    static func isPageProperties(_ block: Node) -> Bool {
        let lines = block.rawLines
        return !lines.isEmpty && lines.allSatisfy { LogseqBlock.isProperty(trimmed($0)) }
    }

    /// A top-level list (open or closed), read as far as cmark has closed its items.
    private mutating func readTopList(_ list: Node) throws(InterchangeError) {
        let depth: Int
        if let section {
            try handOnSection(before: list)
            depth = section.depth + 1
        } else {
            see(list)
            try flushLoose()
            depth = 0
        }
        try readList(list, depth: depth, column: 0)
    }

    /// Notes where the block after a loose item's last note block starts.
    private mutating func see(_ block: Node) {
        if let item = loose, !item.notes.isEmpty, item.nextStart == nil { loose?.nextStart = block.startLine - 1 }
    }

    private mutating func flushLoose() throws(InterchangeError) {
        guard let item = loose else { return }
        loose = nil
        var note: String?
        if let first = item.notes.first {
            // From the paragraph's end (or the first block) to the next block's start.
            let from = item.paragraphEnd.map { $0 + 1 } ?? first.start
            note = self.note(item.notes, from: from, through: item.nextStart ?? source.count, column: 0)
        }
        if let last = item.continues {
            let whole = [last.note, note].compactMap { $0 }.joined(separator: "\n\n")
            settle(last, note: whole.isEmpty ? nil : whole, done: last.done, depth: 0)
            lastTop = Handed(ordinal: last.ordinal, note: whole.isEmpty ? nil : whole, done: last.done)
        } else if item.isPreamble {
            if builder != nil, let note { preamble?(note) }
        } else {
            add((item.title, nil, false), note: note, depth: 0)
        }
    }

    /// The line where the heading's note starts: after it, or before its first block if cmark ended the
    /// heading late (a setext heading's end can be one line late).
    private static func noteStart(_ section: Section, firstBlock: Int?) -> Int {
        min(section.endLine, firstBlock.map { $0 - 1 } ?? section.endLine) + 1
    }

    /// Hands the heading on before the first item of its first list, with the note of the blocks before it.
    private mutating func handOnSection(before list: Node) throws(InterchangeError) {
        guard let open = section, open.handed == nil else { return }
        let from = Self.noteStart(open, firstBlock: open.spans.first?.start ?? list.startLine)
        let note = self.note(open.spans, from: from, through: list.startLine - 1, column: 0)
        section?.handed = Handed(ordinal: ordinal, note: note)
        add((open.title, nil, false), note: note, depth: open.depth)
    }

    /// Ends the section at `through`: hands its heading on now if no list did, else settles its note.
    private mutating func finishSection(through: Int) throws(InterchangeError) {
        guard let open = section else { return }
        section = nil
        if open.handed != nil, case .use = late { return }
        let note = self.note(open.spans, from: Self.noteStart(open, firstBlock: open.spans.first?.start), through: through, column: 0)
        if let handed = open.handed {
            settle(handed, note: note, done: false, depth: open.depth)
        } else {
            add((open.title, nil, false), note: note, depth: open.depth)
        }
    }

    /// The items of a list at `depth`, and their lists below them, in document order, as far as cmark has
    /// closed them; each closed item is freed once read. `column` is where the content of the item holding
    /// the list starts.
    private mutating func readList(_ list: Node, depth: Int, column: Int) throws(InterchangeError) {
        var stack: [Frame] = [.list(list, depth: depth, column: column)]
        while let frame = stack.popLast() {
            switch frame {
            case .list(let list, let depth, let column):
                guard let item = list.firstChild else { continue }  // every item read (and freed)
                try checkDepth(depth, of: item)
                stack.append(.list(list, depth: depth, column: column))
                stack.append(.item(item, depth: depth, column: column + item.contentOffset, after: nil))
            case .item(let item, let depth, let column, let after):
                var next = after.map { $0.next } ?? item.firstChild
                // A list inside a drawer (Logseq's `* State "DONE" from "TODO"` lines) is note, not sub-items.
                let drawer = item.firstChild.flatMap { $0.type == CMARK_NODE_PARAGRAPH ? Self.drawer(in: $0, column: column, source: source) : nil }
                while let block = next, block.type != CMARK_NODE_LIST || drawer?.contains(block.startLine) == true { next = block.next }
                if let sublist = next {
                    if handedItems[item] == nil {
                        let note = itemNote(item, through: sublist, column: column)
                        handedItems[item] = Handed(ordinal: ordinal, note: note, done: item.isChecked)
                        add(itemHead(item, column: column), note: note, done: item.isChecked, depth: depth)
                    }
                    stack.append(.item(item, depth: depth, column: column, after: sublist))
                    stack.append(.list(sublist, depth: depth + 1, column: column))
                    continue
                }
                // Every sub-list walked. An open item is the last of the open blocks: nothing after it is closed.
                if item.isOpen { return }
                let note = itemNote(item, through: nil, column: column)
                var last: Handed
                if let handed = handedItems.removeValue(forKey: item) {
                    if case .use = late {
                    } else {
                        settle(handed, note: note, done: item.isChecked, depth: depth)
                    }
                    last = Handed(ordinal: handed.ordinal, note: note, done: item.isChecked)
                } else {
                    last = Handed(ordinal: ordinal, note: note, done: item.isChecked)
                    add(itemHead(item, column: column), note: note, done: item.isChecked, depth: depth)
                }
                if depth == 0 && section == nil {
                    // A second pass was handed the whole note, blocks after the list included.
                    if case .use(let notes) = late, let whole = notes[last.ordinal] { (last.note, last.done) = whole }
                    lastTop = last
                }
                cmark_node_free(item)
            }
        }
    }

    /// An item's title and what its first block says beyond it (see `LogseqBlock`): its first paragraph, or
    /// its first heading (Logseq's `- ## Usage`), if it starts with one.
    private func itemHead(_ item: Node, column: Int) -> (title: String, extras: OutlineNode.Extras?, isDone: Bool) {
        guard builder != nil, let first = item.firstChild else { return ("", nil, false) }
        switch first.type {
        case CMARK_NODE_PARAGRAPH:
            let all = first.rawLines.map(Self.trimmed)
            let cut = Self.drawer(in: first, column: column, source: source).map { $0.lowerBound - first.startLine } ?? all.count
            let (lines, extras) = LogseqBlock.split(Array(all.prefix(cut)))
            return Self.head(lines, extras)
        case CMARK_NODE_HEADING:
            return LogseqBlock.read(title: Self.title(of: first), extras: Self.properties(after: first)?.extras)
        default:
            return ("", nil, false)
        }
    }

    /// A block's title lines read as Logseq reads a block: marker, priority and tags from the first line,
    /// the lines after it (a block's text over several lines) joined to its title.
    static func head(_ lines: [ArraySlice<UInt8>], _ extras: OutlineNode.Extras?) -> (title: String, extras: OutlineNode.Extras?, isDone: Bool) {
        guard lines.count > 1 else { return LogseqBlock.read(title: title(ofLines: lines), extras: extras) }
        // A hard line break's `\` is no part of the title, as when the lines are joined.
        var first = lines[0]
        if first.reversed().prefix(while: { $0 == MarkdownEscaping.backslash }).count % 2 == 1 { first = first.dropLast() }
        // A title Burrow writes is one line: the lines of one written elsewhere lose no `\\` at their ends
        // (LaTeX's `\\\\` ends many), nor at the start of the lines after the first.
        var head = LogseqBlock.read(title: title(ofLines: [first]), extras: extras)
        let rest = title(ofLines: Array(lines.dropFirst()), leadingEscape: false)
        if !rest.isEmpty { head.title += head.title.isEmpty ? rest : " " + rest }
        return head
    }

    /// The paragraph right after an item's heading when all its lines are planning or properties (Logseq
    /// writes a heading block's properties under it): the block and what it says.
    private static func properties(after heading: Node) -> (block: Node, extras: OutlineNode.Extras?)? {
        guard let next = heading.next, next.type == CMARK_NODE_PARAGRAPH else { return nil }
        // Every line taken (the first is always title, so split a blank line before them).
        let (title, extras) = LogseqBlock.split([[]] + next.rawLines.map(trimmed))
        return title.count == 1 ? (next, extras) : nil
    }

    /// An item's note: its blocks after the title paragraph, its sub-lists left out, up to `sublist` (the
    /// note so far, when the item is handed on there) or the item's end.
    private func itemNote(_ item: Node, through sublist: Node?, column: Int) -> String? {
        var blocks: [Node] = []
        var next = item.firstChild
        while let block = next, block != sublist {
            blocks.append(block)
            next = block.next
        }
        var from = item.startLine
        var inDrawer: ClosedRange<Int>?
        if let first = blocks.first, first.type == CMARK_NODE_PARAGRAPH || first.type == CMARK_NODE_HEADING {
            from = first.endLine + 1
            // A drawer from the title's paragraph on (Logseq's `:LOGBOOK:`) begins the note, lists in it too.
            if first.type == CMARK_NODE_PARAGRAPH, let drawer = Self.drawer(in: first, column: column, source: source) {
                from = drawer.lowerBound
                inDrawer = drawer
            }
            blocks.removeFirst()
            if first.type == CMARK_NODE_HEADING, let (block, _) = Self.properties(after: first), blocks.first == block {
                from = block.endLine + 1
                blocks.removeFirst()
            }
        }
        let spans = blocks.map { Span($0, isNote: $0.type != CMARK_NODE_LIST || inDrawer?.contains($0.startLine) == true) }
        let through = sublist.map { $0.startLine - 1 } ?? item.endLine
        return note(spans, from: from, through: through, column: column, markerLine: item.startLine)
    }

    /// Hands an item on as the next in document order (the first pass's note for it, if it has one).
    private mutating func add(
        _ head: (title: String, extras: OutlineNode.Extras?, isDone: Bool), note: String?, done: Bool = false, depth: Int
    ) {
        var note = note
        var done = done
        if case .use(let notes) = late, let whole = notes[ordinal] { (note, done) = whole }
        ordinal += 1
        builder?.add(OutlineNode(head.title, note: note, isDone: done || head.isDone, extras: head.extras), depth: depth)
    }

    /// The whole note of an item handed on with less: set on it, or recorded for the second pass.
    private mutating func settle(_ handed: Handed, note: String?, done: Bool, depth: Int) {
        guard note != handed.note || done != handed.done else { return }
        switch late {
        case .amend:
            builder?.update(ofOpenItemAt: depth) {
                $0.note = note
                // A done marker (`DONE`) stays done; a task box a later line ticks makes it done.
                $0.isDone = done || ($0.state.map(LogseqBlock.isDone) ?? false)
            }
        case .record: recorded[handed.ordinal] = (note, done)
        case .use: break
        }
    }

    private func checkDepth(_ depth: Int, of node: Node) throws(InterchangeError) {
        guard depth < OutlineBuilder.maximumLevels else {
            throw InterchangeError(
                format: "Markdown", line: node.startLine, column: node.startColumn,
                message: "item is at level \(depth + 1); Markdown holds at most \(OutlineBuilder.maximumLevels) levels (use OPML or JSON)")
        }
    }

    /// A paragraph's or heading's text as a title: its source lines joined by spaces (a hard line break's
    /// `\` dropped), the writer's escapes taken off.
    static func title(of block: Node) -> String { title(ofLines: block.rawLines) }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var line = line.drop { $0 == MarkdownEscaping.space || $0 == MarkdownEscaping.tab }
        while let last = line.last, last == MarkdownEscaping.space || last == MarkdownEscaping.tab { line = line.dropLast() }
        return line
    }

    /// The title of a block's source lines (see `title(of:)`); without the writer's `\\` taken off the
    /// start or the end when it cannot be the writer's.
    static func title(ofLines lines: [ArraySlice<UInt8>], leadingEscape: Bool = true) -> String {
        var joined: [UInt8] = []
        for (n, raw) in lines.enumerated() {
            // Each line's leading blanks are no part of it (cmark leaves a lazy line's in).
            var line = raw.drop { $0 == MarkdownEscaping.space || $0 == MarkdownEscaping.tab }
            while let last = line.last, last == MarkdownEscaping.space || last == MarkdownEscaping.tab { line = line.dropLast() }
            if n < lines.count - 1 && line.reversed().prefix(while: { $0 == MarkdownEscaping.backslash }).count % 2 == 1 {
                line = line.dropLast()
            }
            if n > 0 { joined.append(MarkdownEscaping.space) }
            joined += line
        }
        return String(decoding: MarkdownEscaping.title(fromSource: joined, leading: leadingEscape), as: UTF8.self)
    }

    /// The note of the lines `from` through `through`: without the container's indentation (and, on the
    /// item's marker line, its marker), leaving out the lines of the spans that are no note (sub-lists),
    /// where one blank line stands; the writer's escapes taken off the lines of paragraphs and headings (at
    /// any depth: a line the writer escaped can end up a lazy line of a quote's paragraph); leading and
    /// trailing blank lines dropped. Nil when nothing is left. Lines that no block holds are kept (link
    /// reference definitions). A block ends before the next one starts (cmark's end of a setext heading can
    /// be one line late).
    private func note(_ spans: [Span], from: Int, through: Int, column: Int, markerLine: Int? = nil) -> String? {
        guard from <= through else { return nil }
        var skipped: [ClosedRange<Int>] = []
        var escaped: [ClosedRange<Int>] = []
        for (i, span) in spans.enumerated() {
            if span.isNote {
                escaped += span.textLines
            } else {
                let limit = i + 1 < spans.count ? spans[i + 1].start - 1 : through
                skipped.append(span.start...max(span.start, min(span.end, limit)))
            }
        }
        // Both in line order, walked along with the lines: a note of many blocks costs no more than its lines.
        escaped.sort { $0.lowerBound < $1.lowerBound }
        var nextSkipped = 0
        var nextEscaped = 0
        var lines: [ArraySlice<UInt8>] = []
        var n = from
        while n <= through {
            while nextSkipped < skipped.count && skipped[nextSkipped].upperBound < n { nextSkipped += 1 }
            if nextSkipped < skipped.count && skipped[nextSkipped].contains(n) {
                lines.append([])
                n = skipped[nextSkipped].upperBound + 1
                continue
            }
            while nextEscaped < escaped.count && escaped[nextEscaped].upperBound < n { nextEscaped += 1 }
            let line = source.line(n, droppingColumns: column, throughMarker: n == markerLine)
            let isEscaped = nextEscaped < escaped.count && escaped[nextEscaped].contains(n)
            lines.append(isEscaped ? MarkdownEscaping.unescapedNoteLine(line) : line)
            n += 1
        }
        let isBlank = { (line: ArraySlice<UInt8>) in line.allSatisfy { $0 == MarkdownEscaping.space || $0 == MarkdownEscaping.tab } }
        guard let first = lines.firstIndex(where: { !isBlank($0) }), let final = lines.lastIndex(where: { !isBlank($0) }) else { return nil }
        var text: [UInt8] = []
        for (n, line) in lines[first...final].enumerated() {
            if n > 0 { text.append(0x0A) }
            text += line
        }
        return String(decoding: text, as: UTF8.self)
    }
}
