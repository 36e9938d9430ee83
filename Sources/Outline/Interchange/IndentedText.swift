/// Indented plain text: one item per line, a tab (or a consistent number of spaces) per level. It holds
/// titles and structure only: no notes, no done flags, no line breaks or leading blanks in titles.
public enum IndentedText {
    /// The outline as lines indented with a tab a level (titles only).
    public static func write(_ nodes: [OutlineNode]) -> String {
        var writer = IndentedTextWriter()
        return writer.write(nodes)
    }

    public static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var builder = OutlineBuilder()
        try read(text, into: &builder)
        return builder.finish()
    }

    static func read(_ text: String, into builder: inout OutlineBuilder) throws(InterchangeError) {
        var unit: Int?
        var usesTabs: Bool?
        // Line by line without an array of every line (a million-line file held one as big as the text).
        var rest = text[...]
        var n = -1
        while !rest.isEmpty {
            n += 1
            var raw: Substring
            if let lf = rest.utf8.firstIndex(of: 0x0A) {
                raw = rest[..<lf]
                rest = rest[rest.utf8.index(after: lf)...]
                if raw.unicodeScalars.last == "\r" { raw = raw.dropLast() }  // CRLF ends the line, as LF does
            } else {
                raw = rest
                rest = rest[rest.endIndex...]
            }
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let tabs = line.prefix { $0 == "\t" }.count
            let spaces = line.dropFirst(tabs).prefix { $0 == " " }.count
            let title = line.dropFirst(tabs + spaces)
            if title.first == "\t" || (tabs > 0 && spaces > 0) {
                throw InterchangeError(format: "text", line: n + 1, column: tabs + spaces + 1, message: "indentation mixes tabs and spaces")
            }
            var depth = 0
            if tabs > 0 {
                if usesTabs == false { throw InterchangeError(format: "text", line: n + 1, column: 1, message: "tabs after indenting with spaces") }
                usesTabs = true
                depth = tabs
            } else if spaces > 0 {
                if usesTabs == true { throw InterchangeError(format: "text", line: n + 1, column: 1, message: "spaces after indenting with tabs") }
                usesTabs = false
                if unit == nil { unit = spaces }
                guard spaces % unit! == 0 else {
                    throw InterchangeError(
                        format: "text", line: n + 1, column: spaces + 1,
                        message: "indentation of \(spaces) spaces is not a multiple of \(unit!)")
                }
                depth = spaces / unit!
            }
            guard depth <= builder.depth + 1 else {
                throw InterchangeError(
                    format: "text", line: n + 1, column: tabs + spaces + 1,
                    message: "line is indented \(depth - builder.depth) levels deeper than the one above")
            }
            guard depth < OutlineBuilder.maximumLevels else {
                throw InterchangeError(
                    format: "text", line: n + 1, column: tabs + spaces + 1,
                    message: "line is at level \(depth + 1); indented text holds at most \(OutlineBuilder.maximumLevels) levels (use OPML or JSON)")
            }
            builder.add(OutlineNode(String(title)), depth: depth)
        }
    }
}
