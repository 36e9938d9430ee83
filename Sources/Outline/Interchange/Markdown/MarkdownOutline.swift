/// Markdown as CommonMark with GitHub's task lists, read by cmark-gfm (docs/FORMATS.md, Markdown).
///
/// Read: list items and headings are items (a heading's lists are its children); an item's first paragraph
/// is its title (its Markdown source, lines joined), its other blocks its note (their Markdown source),
/// its nested lists its children, `[ ]`/`[x]`/`[X]` its done flag. Written: `- title` or `- [x] title`,
/// two spaces a level, notes under their item; cmark-gfm reads it back to the same outline.
public enum MarkdownOutline {
    /// The outline as CommonMark that reads back the same (titles' line breaks become spaces).
    public static func write(_ nodes: [OutlineNode]) -> String {
        var writer = MarkdownWriter()
        return writer.write(nodes)
    }

    /// The outline of a Markdown text; an error names the line and column of an item nested too deeply.
    public static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let document = MarkdownDocument(bytes)
        var reader = MarkdownReader(bytes)
        return try reader.read(document)
    }
}

/// Lines of a text, split at LF or CRLF (`"\r\n"` is one Character, so splitting on `"\n"` alone would
/// miss it); the empty line after a final newline is not a line.
func lines(_ text: String) -> [Substring] {
    var out = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    if out.last == "" { out.removeLast() }
    return out
}
