extension Keymap {
    /// The keymap as a Markdown document: `docs/KEYMAP.md` is this text (a test fails when it is stale).
    public var markdown: String {
        var out = """
            # Keys

            Generated from `Keymap.default` (`Sources/BurrowSettings/Keymap/Keymap+Default.swift`) by
            `docs/regenerate.sh`; the help overlay (`?`) shows the same table. Every change is saved at once, so
            quitting never asks anything.

            Each editor and panel has its own keys, listed after the list's below; a key an editor does not bind
            types itself, and the text keys work in every editor. Each table can be rebound in the config file
            (`[keys]` for the list, `[keys.search-line]` and so on for the others; see CONFIG.md). Pasting several
            lines into the capture line adds one item per line; when they are indented or a list (`- [ ] …`), the
            items keep that nesting and their boxes. In the move picker (`M`) letters filter the items.

            """
        for section in sections { out += Self.table(section) }
        out += "\nAny other key closes the help overlay.\n"
        return out
    }

    private static func table(_ section: Section) -> String {
        let table = "Rebound in `[\(section.context.table)]`."
        var out = "\n## \(section.title)\n\n\(table)\n\n| Keys | Command |\n| --- | --- |\n"
        for b in section.bindings {
            let keys = b.labels.map { "`\($0.replacingOccurrences(of: "|", with: "\\|"))`" }.joined(separator: " ")
            out += "| \(keys) | \(b.help) |\n"
        }
        return out
    }
}
