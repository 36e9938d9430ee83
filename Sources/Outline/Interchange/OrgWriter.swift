/// Writes Org an item at a time (see `OutlineWriter`): a headline per item, its note's lines below it. The
/// keyword lines of every note written must be known before the first item (`OrgKeywords`): they decide the
/// done marker and which titles are escaped.
struct OrgWriter: OutlineWriter {
    let keywords: OrgKeywords
    private let marker: [UInt8]
    /// No item has been written yet: the first may be the text before the first headline.
    private var first = true
    /// The title on one line, reused from item to item.
    private var title: [UInt8] = []

    /// The outline's own text above the first headline (its settings), written first.
    let preamble: String?

    init(keywords: OrgKeywords, preamble: String? = nil) {
        self.keywords = keywords
        self.preamble = preamble
        marker = keywords.marker
    }

    func begin(into out: inout [UInt8]) {
        if let line = keywords.keywordLine {
            out += line
            out.append(0x0A)
        }
        if let preamble, !preamble.isEmpty { OrgOutline.appendNote(preamble, to: &out) }
    }

    mutating func enter(_ node: OutlineNode, depth: Int, hasChildren: Bool, into out: inout [UInt8]) {
        defer { first = false }
        // After the outline's own text above the first headline, a first item is a headline whatever it
        // looks like: written as text too, it would merge with that text when read.
        if first, preamble?.isEmpty ?? true, OrgOutline.isPreamble(node, hasChildren: hasChildren) {
            OrgOutline.appendNote(node.note!, to: &out)
            return
        }
        out.append(contentsOf: repeatElement(UInt8(ascii: "*"), count: depth + 1))
        out.append(UInt8(ascii: " "))
        OrgOutline.singleLine(node.title, into: &title)
        let head = OrgHead(node, keywords: keywords, title: title)
        var lines = head.lines(depth: depth, keywords: keywords)
        // The file's own text of the head, while it still says what the item says.
        if let raw = node.extras?.orgHead {
            let rawLines = raw.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
            let (read, taken) = OrgHead.read(
                rawLines[0], section: { k in k + 1 < rawLines.count ? rawLines[k + 1] : nil }, keywords: keywords)
            if taken == rawLines.count - 1 && read == head { lines = rawLines }
        }
        for line in lines {
            out += line
            out.append(0x0A)
        }
        guard let note = node.note else { return }
        // A note whose first line would be read as the head's (a planning line, a property drawer), or that
        // starts with the escape mark, starts with the mark: the reader takes it away again.
        let first = note.utf8.prefix { $0 != 0x0A }
        var rest = note.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).lazy.map { Array($0) }.makeIterator()
        var noteLines: [[UInt8]] = []
        let (_, taken) = OrgHead.read(
            lines[0],
            section: { k in
                if k + 1 < lines.count { return lines[k + 1] }
                // The note's lines, read only as far as the reader looks.
                while noteLines.count <= k - (lines.count - 1), let next = rest.next() { noteLines.append(next) }
                let n = k - (lines.count - 1)
                return n < noteLines.count ? noteLines[n] : nil
            }, keywords: keywords)
        if taken > lines.count - 1 || first.starts(with: OrgOutline.zeroWidthSpace) { out += OrgOutline.zeroWidthSpace }
        OrgOutline.appendNote(note, to: &out)
    }

    func leave(depth: Int, into out: inout [UInt8]) {}

    func end(into out: inout [UInt8]) {}
}
