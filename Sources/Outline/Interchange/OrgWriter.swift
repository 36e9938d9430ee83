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

    init(keywords: OrgKeywords) {
        self.keywords = keywords
        marker = keywords.marker
    }

    func begin(into out: inout [UInt8]) {}

    mutating func enter(_ node: OutlineNode, depth: Int, hasChildren: Bool, into out: inout [UInt8]) {
        defer { first = false }
        if first, OrgOutline.isPreamble(node, hasChildren: hasChildren) {
            OrgOutline.appendNote(node.note!, to: &out)
            return
        }
        out.append(contentsOf: repeatElement(UInt8(ascii: "*"), count: depth + 1))
        out.append(UInt8(ascii: " "))
        OrgOutline.singleLine(node.title, into: &title)
        if node.isDone {
            out += marker
            // A space even before an empty title: `* DONE` alone is a headline titled "DONE".
            out.append(UInt8(ascii: " "))
        } else if OrgOutline.needsEscape(title, keywords) {
            out += OrgOutline.zeroWidthSpace
        }
        out += title
        out.append(0x0A)
        if let note = node.note { OrgOutline.appendNote(note, to: &out) }
    }

    func leave(depth: Int, into out: inout [UInt8]) {}

    func end(into out: inout [UInt8]) {}
}
