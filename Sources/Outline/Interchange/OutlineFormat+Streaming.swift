import Foundation

extension OutlineFormat {
    /// Reads `text` in this format, handing each item to `each` with its depth (0 at the top), in document
    /// order. Indented text, Org, Markdown and JSON hand items on as they are read and build no tree; OPML
    /// given as text is read whole first (`burrow import` streams it from its bytes:
    /// `OPML.read(bytes:mappedFromFile:each:)`). Throws
    /// `each`'s errors, and ``InterchangeError`` for a bad file (found after `each` saw what comes before).
    ///
    /// ```swift
    /// try OutlineFormat.org.read(text) { node, depth in try loader.add(node, depth: depth) }
    /// ```
    ///
    /// `preamble`: where an Org file's text before its first headline goes (its `#+TITLE:`, `#+TODO:` and
    /// introduction: the outline's own, not an item), and a Markdown file's code, quotes or HTML before its
    /// first item; without it, that text is a first item with an empty title, as ``read(_:)`` gives it.
    public func read(_ text: String, preamble: ((String) -> Void)? = nil, each: (OutlineNode, Int) throws -> Void) throws {
        switch self {
        case .text, .org, .markdown, .json:
            var failure: (any Error)?
            try withoutActuallyEscaping(each) { each in
                var builder = OutlineBuilder { node, depth in
                    guard failure == nil else { return }
                    do { try each(node, depth) } catch { failure = error }
                }
                if self == .text {
                    try IndentedText.read(text, into: &builder)
                } else if self == .markdown {
                    try MarkdownOutline.read(text, into: &builder, preamble: preamble)
                } else if self == .json {
                    try JSONOutline.read(text, into: &builder)
                } else {
                    var text = text
                    try text.withUTF8 { bytes in
                        try Result { () throws(InterchangeError) in try OrgReader(bytes, preamble: preamble).read(into: &builder) }.get()
                    }
                }
            }
            if let failure { throw failure }
        case .opml:
            try forEachInOrder(try read(text), each)
        }
    }
}
