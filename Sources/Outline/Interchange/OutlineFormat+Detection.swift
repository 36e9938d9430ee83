extension OutlineFormat {
    /// The formats as `--format` names them, for messages: "opml|markdown|org|text|json".
    public static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// The format a file name's extension names, if any.
    public static func guess(fileName: String) -> OutlineFormat? {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".opml") || lower.hasSuffix(".xml") { return .opml }
        if lower.hasSuffix(".md") || lower.hasSuffix(".markdown") { return .markdown }
        if lower.hasSuffix(".org") { return .org }
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".txt") { return .text }
        return nil
    }

    /// The format the text's first line that is not blank shows (in its first 64 KiB), or nil when it shows
    /// none. Indented text is never the answer: any text reads as it, so a guess would hide a mistake.
    ///
    /// - `<?xml` or `<opml`: OPML; `{` or `[`: JSON;
    /// - `#+` (an Org keyword line) or a headline (`* `, `** `…): Org, unless it is `* [ ]`/`* [x]`, or the
    ///   file has indented `* ` items and no `** ` headline: a Markdown list;
    /// - a list item (`- `, `+ `, an indented `* `, `1.`, `1)`) or a heading (`#` to `######`): Markdown.
    public static func sniff(_ text: String) -> OutlineFormat? {
        var text = text
        return text.withUTF8 { sniff(bytes: $0) }
    }

    /// ``sniff(_:)`` on bytes, which need not be UTF-8 (only ASCII decides).
    public static func sniff(bytes: UnsafeBufferPointer<UInt8>) -> OutlineFormat? {
        let window = UnsafeBufferPointer(rebasing: bytes.prefix(65_536))
        let lines = OrgReader.lines(of: window, from: window.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0, crlf: true)
        func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        guard let first = lines.first(where: { window[$0].contains { !isBlank($0) } }) else { return nil }
        let line = window[first]
        let trimmed = line.drop(while: isBlank)
        func starts(_ s: some Collection<UInt8>, _ prefix: String) -> Bool { s.starts(with: prefix.utf8) }
        if starts(trimmed, "<?xml") || starts(trimmed, "<opml") { return .opml }
        if starts(trimmed, "{") || starts(trimmed, "[") { return .json }
        if starts(trimmed, "#+") { return .org }
        if line.first == UInt8(ascii: "*"), OrgOutline.isHeadline(line, afterCommas: 0) {
            if starts(line, "* [ ]") || starts(line, "* [x]") || starts(line, "* [X]") { return .markdown }
            let indentedStarItem = lines.contains { r in
                let l = window[r]
                let rest = l.drop(while: isBlank)
                return rest.count < l.count && starts(rest, "* ")
            }
            let deeperHeadline = lines.contains { starts(window[$0], "**") && OrgOutline.isHeadline(window[$0], afterCommas: 0) }
            return indentedStarItem && !deeperHeadline ? .markdown : .org
        }
        if isMarkdownItem(trimmed) { return .markdown }
        let hashes = trimmed.prefix { $0 == UInt8(ascii: "#") }.count
        if (1...6).contains(hashes), hashes == trimmed.count || isBlank(trimmed[trimmed.startIndex + hashes]) { return .markdown }
        return nil
    }

    /// `- `, `+ `, `* ` (or the marker alone), `1.` or `1)` then a blank or nothing.
    private static func isMarkdownItem(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = s.first else { return false }
        func endsItem(_ i: Int) -> Bool { i == s.endIndex || s[i] == UInt8(ascii: " ") || s[i] == UInt8(ascii: "\t") }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") { return endsItem(s.startIndex + 1) }
        let digits = s.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        guard (1...9).contains(digits), s.startIndex + digits < s.endIndex else { return false }
        let marker = s[s.startIndex + digits]
        return (marker == UInt8(ascii: ".") || marker == UInt8(ascii: ")")) && endsItem(s.startIndex + digits + 1)
    }
}
