import CCMarkGFM

/// A Markdown text parsed by cmark-gfm as CommonMark with GitHub's task lists; the tree is freed with it.
///
/// Nodes are borrowed pointers into the tree: use them only while the document is alive.
final class MarkdownDocument {
    typealias Node = UnsafeMutablePointer<cmark_node>

    let root: Node

    /// Parses UTF-8 bytes (the caller has checked them; cmark replaces what is not UTF-8 and U+0000).
    init(_ bytes: [UInt8]) {
        let parser = MarkdownParser()
        bytes.withUnsafeBufferPointer { parser.feed($0) }
        root = parser.finish()
    }

    deinit { cmark_node_free(root) }
}

extension MarkdownDocument {
    /// The lines of every paragraph and heading in `blocks`, at any depth: where a line that starts with a
    /// `\` before a list marker is the writer's escape.
    static func textLines(in blocks: [Node]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        var pending = blocks
        while let node = pending.popLast() {
            let type = node.type
            if type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING {
                out.append(node.startLine...max(node.startLine, node.endLine))
            } else {
                pending += node.children.filter { $0.type.rawValue & 0xC000 == 0x8000 }  // blocks, not inlines
            }
        }
        return out
    }
}

extension MarkdownDocument.Node {
    var type: cmark_node_type { cmark_node_get_type(self) }
    var firstChild: Self? { cmark_node_first_child(self) }
    var next: Self? { cmark_node_next(self) }
    var startLine: Int { Int(cmark_node_get_start_line(self)) }
    var startColumn: Int { Int(cmark_node_get_start_column(self)) }
    var endLine: Int { Int(cmark_node_get_end_line(self)) }
    /// Lines to come may add to the block (a closed one is final).
    var isOpen: Bool { ccmark_node_is_open(self) }
    var headingLevel: Int { Int(cmark_node_get_heading_level(self)) }
    /// A task list item's box is ticked (false for an item without a box).
    var isChecked: Bool { cmark_gfm_extensions_get_tasklist_item_checked(self) }
    /// Columns from the parent's content to this item's content.
    var contentOffset: Int { Int(ccmark_item_content_offset(self)) }

    /// The children, in order.
    var children: [Self] {
        var out: [Self] = []
        var child = firstChild
        while let c = child {
            out.append(c)
            child = c.next
        }
        return out
    }

    /// A paragraph's or heading's raw inline source: one entry per line, without line endings.
    var rawLines: [ArraySlice<UInt8>] {
        var size: Int32 = 0
        guard let pointer = ccmark_raw_content(self, &size), size > 0 else { return [] }
        let bytes = Array(UnsafeBufferPointer(start: pointer, count: Int(size)))
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    }
}

extension MarkdownDocument {
    /// cmark-gfm's own HTML of the document (task boxes included): what tests hold the reader against.
    var html: String {
        let mem = cmark_get_default_mem_allocator()
        let extensions = MarkdownParser.tasklist.extension.map { cmark_llist_append(mem, nil, UnsafeMutableRawPointer($0)) } ?? nil
        defer { cmark_llist_free(mem, extensions) }
        guard let rendered = cmark_render_html(root, CMARK_OPT_DEFAULT, extensions) else { return "" }
        defer { mem?.pointee.free(rendered) }
        return String(cString: rendered)
    }
}
