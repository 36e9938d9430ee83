import CCMarkGFM

@testable import Outline

/// The Markdown reader as it was before it read a piece at a time: cmark-gfm's whole tree of a text turned
/// into outline nodes. The judge the streaming `MarkdownReader` is held against (`MarkdownStreamingTests`):
/// whatever the text and wherever cmark's pieces end, the two must give the same outline.
struct WholeMarkdownReader {
    /// The outline of `text` (a byte-order mark dropped), as the whole-document reader made it.
    static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let document = MarkdownDocument(bytes)
        var reader = WholeMarkdownReader(bytes)
        return try reader.read(document)
    }

    typealias Node = MarkdownDocument.Node

    private let source: SourceLines<[UInt8]>
    private var builder = OutlineBuilder()

    init(_ bytes: [UInt8]) {
        source = SourceLines(bytes)
    }

    mutating func read(_ document: MarkdownDocument) throws(InterchangeError) -> [OutlineNode] {
        let blocks = document.root.children
        // The levels of the open headings: an item under them is as deep as they are many.
        var headings: [Int] = []
        // Before the first heading, the item a top-level paragraph made, whose note the blocks after it are.
        var looseItem: (title: String, paragraph: Int?, notes: [Int], continues: Bool)?
        // Right after a top-level list (thematic breaks aside): code, a quote, HTML are its last item's note.
        var afterList = false
        var index = 0
        while index < blocks.count {
            let block = blocks[index]
            let type = block.type
            if type == CMARK_NODE_HEADING {
                addLoose(&looseItem, blocks)
                afterList = false
                let level = block.headingLevel
                while let last = headings.last, last >= level { headings.removeLast() }
                let depth = headings.count
                try checkDepth(depth, of: block)
                // The section runs to the next heading: its lists are the heading's children, the rest its note.
                var end = index + 1
                while end < blocks.count && blocks[end].type != CMARK_NODE_HEADING { end += 1 }
                let section = blocks[(index + 1)..<end].map { ($0, $0.type != CMARK_NODE_LIST) }
                let from = min(block.endLine, section.first.map { $0.0.startLine - 1 } ?? block.endLine) + 1
                let through = end < blocks.count ? blocks[end].startLine - 1 : source.count
                let note = self.note(blocks: section, from: from, through: through, column: 0)
                builder.add(OutlineNode(Self.title(of: block), note: note), depth: depth)
                headings.append(level)
                for list in blocks[(index + 1)..<end] where list.type == CMARK_NODE_LIST {
                    try readList(list, depth: depth + 1, column: 0)
                }
                index = end
                continue
            }
            if !headings.isEmpty {
                index += 1  // a block in a section was read with its heading
                continue
            }
            if type == CMARK_NODE_LIST {
                addLoose(&looseItem, blocks)
                try readList(block, depth: 0, column: 0)
                afterList = true
            } else if type == CMARK_NODE_PARAGRAPH {
                addLoose(&looseItem, blocks)
                afterList = false
                looseItem = (Self.title(of: block), index, [], false)
            } else if type != CMARK_NODE_THEMATIC_BREAK {
                // Code, a quote, HTML: the note of the paragraph item or the list's last item above, or of an
                // item of its own.
                if looseItem == nil { looseItem = ("", nil, [], afterList) }
                looseItem!.notes.append(index)
            }
            index += 1
        }
        addLoose(&looseItem, blocks)
        return builder.finish()
    }

    /// Adds the item a top-level paragraph (or other block) before the first heading made, if any.
    private mutating func addLoose(_ item: inout (title: String, paragraph: Int?, notes: [Int], continues: Bool)?, _ blocks: [Node]) {
        guard let loose = item else { return }
        var note: String?
        if let first = loose.notes.first, let last = loose.notes.last {
            // From the paragraph's end (or the first block) to the next block's start.
            let from = loose.paragraph.map { blocks[$0].endLine + 1 } ?? blocks[first].startLine
            note = self.note(blocks: loose.notes.map { (blocks[$0], true) }, from: from, through: nextStart(after: last, in: blocks), column: 0)
        }
        if loose.continues {
            builder.update(ofOpenItemAt: 0) { last in
                last.note = [last.note, note].compactMap { $0 }.joined(separator: "\n\n")
                if last.note?.isEmpty == true { last.note = nil }
            }
        } else {
            builder.add(OutlineNode(loose.title, note: note), depth: 0)
        }
        item = nil
    }

    /// The items of a list at `depth`, and their lists below them, in document order. `column` is where the
    /// content of the item holding the list starts.
    private mutating func readList(_ list: Node, depth: Int, column: Int) throws(InterchangeError) {
        var pending: [(item: Node, depth: Int, column: Int)] = list.children.reversed().map { ($0, depth, column) }
        while let (item, depth, parentColumn) = pending.popLast() {
            try checkDepth(depth, of: item)
            let column = parentColumn + item.contentOffset
            let blocks = item.children
            var head: (title: String, extras: OutlineNode.Extras?, isDone: Bool) = ("", nil, false)
            var rest = blocks[...]
            var drawer: ClosedRange<Int>?
            if let first = blocks.first, first.type == CMARK_NODE_PARAGRAPH {
                let all = first.rawLines.map(Self.trimmed)
                drawer = MarkdownReader.drawer(in: first, column: column, source: source)
                let (lines, extras) = LogseqBlock.split(Array(all.prefix(drawer.map { $0.lowerBound - first.startLine } ?? all.count)))
                head = MarkdownReader.head(lines, extras)
                rest = rest.dropFirst()
            } else if let first = blocks.first, first.type == CMARK_NODE_HEADING {
                // Logseq's `- ## Usage`, and the paragraph of its properties under it.
                var extras: OutlineNode.Extras?
                rest = rest.dropFirst()
                if let next = rest.first, next.type == CMARK_NODE_PARAGRAPH {
                    let (lines, found) = LogseqBlock.split([[]] + next.rawLines.map(Self.trimmed))
                    if lines.count == 1 {
                        extras = found
                        rest = rest.dropFirst()
                    }
                }
                head = LogseqBlock.read(title: Self.title(of: first), extras: extras)
            }
            let from = drawer?.lowerBound ?? (rest.startIndex > 0 ? blocks[rest.startIndex - 1].endLine + 1 : item.startLine)
            let note = self.note(
                blocks: rest.map { ($0, $0.type != CMARK_NODE_LIST || drawer?.contains($0.startLine) == true) }, from: from,
                through: item.endLine, column: column, markerLine: item.startLine)
            builder.add(OutlineNode(head.title, note: note, isDone: item.isChecked || head.isDone, extras: head.extras), depth: depth)
            var children: [(Node, Int, Int)] = []
            for sublist in rest where sublist.type == CMARK_NODE_LIST && drawer?.contains(sublist.startLine) != true {
                children += sublist.children.map { ($0, depth + 1, column) }
            }
            pending += children.reversed()
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

    static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var line = line.drop { $0 == MarkdownEscaping.space || $0 == MarkdownEscaping.tab }
        while let last = line.last, last == MarkdownEscaping.space || last == MarkdownEscaping.tab { line = line.dropLast() }
        return line
    }

    static func title(ofLines lines: [ArraySlice<UInt8>]) -> String {
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
        return String(decoding: MarkdownEscaping.title(fromSource: joined), as: UTF8.self)
    }

    /// The note of the lines `from` through `through`: without the container's indentation (and, on the
    /// item's marker line, its marker), leaving out the lines of the `blocks` marked false (sub-lists), where
    /// one blank line stands; the writer's escapes taken off the lines of paragraphs and headings (at any depth: a line the
    /// writer escaped can end up a lazy line of a quote's paragraph); leading and
    /// trailing blank lines dropped. Nil when nothing is left. Lines that no block holds are kept (link
    /// reference definitions). A block ends before the next one starts (cmark's end of a setext heading can
    /// be one line late).
    private func note(blocks: [(Node, Bool)], from: Int, through: Int, column: Int, markerLine: Int? = nil) -> String? {
        guard from <= through else { return nil }
        var skipped: [ClosedRange<Int>] = []
        for (i, (block, isNote)) in blocks.enumerated() {
            let limit = i + 1 < blocks.count ? blocks[i + 1].0.startLine - 1 : through
            let range = block.startLine...max(block.startLine, min(block.endLine, limit))
            if !isNote { skipped.append(range) }
        }
        let escaped = MarkdownDocument.textLines(in: blocks.filter(\.1).map(\.0))
        var lines: [ArraySlice<UInt8>] = []
        var n = from
        while n <= through {
            if let range = skipped.first(where: { $0.contains(n) }) {
                lines.append([])
                n = range.upperBound + 1
                continue
            }
            let line = source.line(n, droppingColumns: column, throughMarker: n == markerLine)
            lines.append(escaped.contains { $0.contains(n) } ? MarkdownEscaping.unescapedNoteLine(line) : line)
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

    /// The line before the block after `index` starts, or the last line.
    private func nextStart(after index: Int?, in blocks: [Node]) -> Int {
        guard let index, index + 1 < blocks.count else { return source.count }
        return blocks[index + 1].startLine - 1
    }
}
