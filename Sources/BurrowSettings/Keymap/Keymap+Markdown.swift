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

            **One rule in every editor** (quick capture, rename, insert, the note editor): typed text is never
            dropped without a word. Enter does what the editor is for; **Esc keeps what you typed and leaves**
            (adds it, renames, inserts, saves the note), as leaving insert mode does in vim; **Ctrl-G leaves
            without it** and the status line names what was dropped. Quitting (Ctrl-C, a signal) with an editor
            open keeps its text too. The search line, the move picker and the `:` line hold no data: Esc and
            Ctrl-G both leave them as they were. Ctrl-Z suspends Burrow in every mode (`fg` brings it back) and
            Ctrl-L redraws. `dd` deletes one item, as in vim; `x` and Delete delete at once; after `d` any other
            key cancels it. `:` is a small vim command line: `:q`, `:wq`, `:x` quit, and anything else is
            named as not a command (never added as an item). `/` opens empty; ↑ brings back earlier searches.

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
