extension Keymap {
    /// The keymap as a Markdown document: `docs/KEYMAP.md` is this text (a test fails when it is stale).
    public var markdown: String {
        var out = """
            # Keys

            Generated from `Keymap.default` (`Sources/BurrowApp/Keymap/Keymap+Default.swift`) by
            `docs/regenerate.sh`; the help overlay (`?`) shows the same table. Every change is saved at once, so
            quitting never asks anything.

            In the quick-capture line and while renaming or inserting, keys edit the text: ←/→, Home/End,
            Ctrl-A/Ctrl-E, Backspace/Delete, Ctrl-W (word), Ctrl-U (to the start), Ctrl-K (to the end); Enter
            confirms and Esc leaves. Pasting several lines into the capture line adds one item per line; when
            they are indented or a list (`- [ ] …`), the items keep that nesting and their boxes. In the move picker
            (`M`), letters filter the items, ↑/↓ (or Ctrl-P/Ctrl-N, PgUp/PgDn) choose, Enter moves and Esc cancels.

            In the note editor (`A`) the same keys edit the text, and ↑/↓ move by rows on screen, Home/End go to
            a row's ends, PgUp/PgDn by a screenful, Ctrl-Home/Ctrl-End to the note's ends; Enter starts a new
            line, Esc saves the note (one undoable action) and Ctrl-G leaves it as it was.

            """
        for section in sections { out += Self.table(section) }
        out += Self.table(help)
        out += "\nAny other key closes the help overlay.\n"
        return out
    }

    private static func table(_ section: Section) -> String {
        var out = "\n## \(section.title)\n\n| Keys | Command |\n| --- | --- |\n"
        for b in section.bindings {
            let keys = b.labels.map { "`\($0.replacingOccurrences(of: "|", with: "\\|"))`" }.joined(separator: " ")
            out += "| \(keys) | \(b.help) |\n"
        }
        return out
    }
}
