import BurrowSettings
import TerminalKit

extension Configuration {
    /// A complete config file that changes nothing: every setting at its default, and every command's keys and
    /// every colour role written out but commented, so a user uncomments what they change
    /// (`burrow config default`). Made from `Keymap.default` and `Theme.Role`, so new commands appear in it.
    public static var defaultFile: String {
        var out = """
            # Burrow's config file: `burrow config path` says where it goes, `burrow config check` checks it.
            # As printed by `burrow config default`, it changes nothing. Lines starting with # are comments.

            # The outline database when neither --db nor $BURROW_DB names one (~/ is your home folder).
            # database = "~/notes/outline.sqlite"

            # Start with done items hidden.
            hide-done = false

            # Copying also puts items on the system clipboard, through the terminal (OSC 52).
            osc52 = true

            # A shared outline's server with its password, instead of PGPASSWORD or ~/.pgpass; used only while
            # this file is readable by you alone (chmod 600).
            # sync-url = "postgres://you:password@db.example.org/outlines"

            # Undo history, kept in the outline and shared by every burrow that opens it: past either limit the
            # oldest actions go (the newest is always kept). size takes B, KiB, MiB or GiB.
            [history]
            actions = 10000
            size = "64 MiB"

            # Keys: command = "key", or a list ["key", "key"]. A line replaces that command's keys (an empty list
            # unbinds it) and keeps its help text. A key can run one command only. Keys are written as in
            # docs/KEYMAP.md: j, J, <C-r> (Ctrl-R), <A-x> (Alt-X), <S-Up>, <Enter>, <Esc>, <Tab>, <BS>, <Del>,
            # <Space>, <F2>, <lt> for <. Ctrl-C always quits. [keys] is the list's; each editor and panel has its
            # own table after it, where a key can be bound again (an editor's keys are one key each).
            [keys]

            """
        // The list's sections come first (they are `[keys]` itself), then each other context's, together.
        var context = KeyContext.browse
        for section in Keymap.default.sections {
            if section.context != context {
                context = section.context
                out += "\n[\(context.table)]\n"
            }
            out += "# \(section.title)\n"
            for b in section.bindings {
                let keys = b.sequences.map { tomlString($0.map(\.description).joined()) }
                let value = keys.count == 1 ? keys[0] : "[" + keys.joined(separator: ", ") + "]"
                out += commented("\(b.command.rawValue) = \(value)", note: b.help)
            }
        }
        out += """

            # Colours: role = "colour" for the text, or role = { fg = "colour", bg = "colour" }. A colour is black,
            # red, green, yellow, blue, magenta, cyan, white, one of those as bright-red (and so on), default, or
            # a number from 0 to 255. NO_COLOR (set to anything) turns them all off. The status line and the
            # selection are in reverse video: a lone colour there colours the bar; with bg, both are as given.
            [colors]

            """
        for role in Theme.Role.allCases {
            out += commented("\(role.rawValue) = \(Color.default.configValue)", note: role.summary)
        }
        return out
    }

    /// `# moveDown = "j"   # Move down`, the notes lined up.
    private static func commented(_ line: String, note: String) -> String {
        let text = "# " + line
        return text + String(repeating: " ", count: max(1, 46 - text.count)) + "# " + note + "\n"
    }

    /// `s` as a TOML basic string.
    static func tomlString(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where c.properties.generalCategory == .control:
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}
