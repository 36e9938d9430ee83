/// Markdown nested lists. Reads `-`, `*`, `+` and numbered items indented by 2 or 4 spaces or tabs,
/// `[ ]` / `[x]` boxes as done, and other lines under an item as its note. Writes `- [ ] title` / `- [x]
/// title` with 2 spaces a level and note lines under their item (a note line that would read as an item
/// starts with `\`). Titles cannot hold line breaks in Markdown: they are written as spaces.
public enum MarkdownOutline {
    public static func write(_ nodes: [OutlineNode]) -> String {
        var out = ""
        forEachInOrder(nodes) { node, depth in
            let pad = String(repeating: "  ", count: depth)
            let title = node.title.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\r", with: " ")
            out += pad + (node.done ? "- [x] " : "- [ ] ") + title + "\n"
            if let note = node.note {
                for line in note.split(separator: "\n", omittingEmptySubsequences: false) {
                    out += pad + "  " + (needsEscape(line) ? "\\" : "") + line + "\n"
                }
            }
        }
        return out
    }

    public static func read(_ text: String) throws(InterchangeError) -> [OutlineNode] {
        var builder = OutlineBuilder()
        var unit: Int?  // spaces per level, learnt from the first indented item
        var contentColumn: [Int] = []  // where each open item's text starts, by depth
        var blankRun = 0
        for (n, raw) in lines(text).enumerated() {
            let lineNumber = n + 1
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                blankRun += 1
                continue
            }
            let (width, tabs, spaces) = leading(line)
            let rest = line.dropFirst(tabs + spaces)
            if let (marker, content) = listItem(rest) {
                let depth: Int
                if tabs > 0 && spaces == 0 {
                    depth = tabs
                } else if tabs == 0 {
                    if spaces > 0 && unit == nil { unit = spaces == 4 ? 4 : (spaces % 2 == 0 ? 2 : spaces) }
                    guard spaces % (unit ?? 2) == 0 || spaces == 0 else {
                        throw InterchangeError(
                            format: "Markdown", line: lineNumber, column: spaces + 1,
                            message: "indentation of \(spaces) spaces is not a multiple of \(unit ?? 2)")
                    }
                    depth = spaces / (unit ?? 2)
                } else {
                    throw InterchangeError(format: "Markdown", line: lineNumber, column: 1, message: "indentation mixes tabs and spaces")
                }
                guard depth <= builder.depth + 1 else {
                    throw InterchangeError(
                        format: "Markdown", line: lineNumber, column: width + 1,
                        message: "item is indented \(depth - builder.depth) levels deeper than the one above")
                }
                guard depth < OutlineBuilder.maximumLevels else {
                    throw InterchangeError(
                        format: "Markdown", line: lineNumber, column: width + 1,
                        message: "item is at level \(depth + 1); Markdown holds at most \(OutlineBuilder.maximumLevels) levels (use OPML or JSON)")
                }
                var title = Substring(content)
                var done = false
                if title.hasPrefix("[ ] ") || title == "[ ]" {
                    title = title.dropFirst(min(4, title.count))
                } else if title.hasPrefix("[x] ") || title.hasPrefix("[X] ") || title == "[x]" || title == "[X]" {
                    title = title.dropFirst(min(4, title.count))
                    done = true
                }
                builder.add(OutlineNode(String(title), done: done), depth: depth)
                contentColumn = Array(contentColumn.prefix(depth)) + [width + marker]
                blankRun = 0
            } else {
                guard builder.hasItem else { continue }  // a heading or text before the list
                let column = contentColumn.last ?? 0
                for _ in 0..<blankRun { builder.appendNoteLine("") }
                blankRun = 0
                var body = Substring(line)
                var skipped = 0
                while skipped < column, let c = body.first, c == " " || c == "\t" {
                    body = body.dropFirst()
                    skipped += c == "\t" ? 2 : 1
                }
                if body.hasPrefix("\\"), needsEscape(body.dropFirst()) { body = body.dropFirst() }
                builder.appendNoteLine(String(body))
            }
        }
        return builder.finish()
    }

    /// The marker's width (with its space) and the text after it, when the line is a list item.
    private static func listItem(_ s: Substring) -> (Int, Substring)? {
        guard let first = s.first else { return nil }
        if first == "-" || first == "*" || first == "+" {
            let after = s.dropFirst()
            if after.isEmpty { return (1, "") }
            if after.first == " " || after.first == "\t" { return (2, after.dropFirst()) }
            return nil
        }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        let after = s.dropFirst(digits.count)
        guard let d = after.first, d == "." || d == ")" else { return nil }
        let rest = after.dropFirst()
        if rest.isEmpty { return (digits.count + 1, "") }
        guard rest.first == " " || rest.first == "\t" else { return nil }
        return (digits.count + 2, rest.dropFirst())
    }

    static func needsEscape(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.isEmpty || listItem(trimmed) != nil || trimmed.first == "\\"
    }

    /// Width (tabs count 2), tabs and spaces of the leading whitespace.
    private static func leading(_ line: String) -> (Int, Int, Int) {
        var tabs = 0, spaces = 0
        for c in line {
            if c == "\t" { tabs += 1 } else if c == " " { spaces += 1 } else { break }
        }
        return (tabs * 2 + spaces, tabs, spaces)
    }
}

/// Lines of a text, split at LF or CRLF (`"\r\n"` is one Character, so splitting on `"\n"` alone would
/// miss it); the empty line after a final newline is not a line.
func lines(_ text: String) -> [Substring] {
    var out = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    if out.last == "" { out.removeLast() }
    return out
}
