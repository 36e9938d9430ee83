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
        var builder = OutlineBuilder()
        try read(text, into: &builder)
        return builder.finish()
    }

    /// Reads `text` into `builder`, feeding cmark `feedSize` bytes at a time (tests cut blocks everywhere with
    /// small ones). An emitting builder gets items as they are read, after a first pass that hands nothing on
    /// and finds the notes that go on after an item's sub-items (``MarkdownReader/LateNotes``); a bad file is
    /// refused by that pass, before any item is handed on.
    ///
    /// `preamble`: where code, quotes or HTML at the top of the file, before any item, go (an Obsidian note's
    /// callout, a README's badges: the outline's own text); without it they are a first item with an empty title.
    static func read(
        _ text: String, into builder: inout OutlineBuilder, feedSize: Int = 1 << 16, preamble: ((String) -> Void)? = nil
    ) throws(InterchangeError) {
        var text = text
        let result = text.withUTF8 { utf8 in
            Result { () throws(InterchangeError) in
                var bytes = utf8
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst(3)) }
                var late = MarkdownReader.LateNotes.amend
                if builder.emits {
                    var first = MarkdownReader(bytes, into: nil, late: .record, preamble: preamble)
                    try first.read(feedSize: feedSize)
                    late = .use(first.recorded)
                }
                var reader = MarkdownReader(bytes, into: builder, late: late, preamble: preamble)
                try reader.read(feedSize: feedSize)
                if let built = reader.builder { builder = built }
            }
        }
        try result.get()
    }
}
