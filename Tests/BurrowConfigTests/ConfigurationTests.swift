import BurrowSettings
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowConfig

/// Reading config files: what a good one sets, and every kind of problem with its exact line and column.
@Suite struct ConfigurationTests {
    static let home = ["HOME": "/home/ann"]

    static func parse(_ text: String, _ environment: [String: String] = home) -> Configuration {
        Configuration.parse(text, environment: environment)
    }

    /// The problems as `LINE:COLUMN: message`.
    static func problems(_ text: String, _ environment: [String: String] = home) -> [String] {
        parse(text, environment).problems.map(\.description)
    }

    static func key(_ notation: String) -> TerminalKit.Key { try! TerminalKit.Key.parse(notation) }

    /// The keymap as comparable values: each binding's section, command, keys and help.
    static func bindings(_ keymap: Keymap) -> [String] {
        keymap.sections.flatMap { s in s.bindings.map { "\(s.context) \(s.title) \($0.command) \($0.keys) \($0.help)" } }
    }

    @Test func aGoodFileSetsEverything() {
        let config = Self.parse(
            """
            database = "~/notes/outline.sqlite"
            hide-done = true
            osc52 = false

            [history]
            actions = 500
            size = "2 MiB"

            [keys]
            moveDown = ["<C-n>", "<Down>"]   # j is free now
            delete = "j"
            redo = ["<C-r>"]
            toggleFold = ["za", "<C-t>o"]   # a sequence may start with a key bound to nothing alone
            [colors]
            done = "bright-black"
            selection = { fg = "black", bg = 6 }
            status = 33
            """)
        #expect(config.problems == [])
        #expect(config.database == "/home/ann/notes/outline.sqlite")
        #expect(config.hideDone && !config.osc52)
        #expect(
            config.settings
                == AppSettings(hideDoneByDefault: true, allowsClipboard: false, historyLimits: HistoryLimits(actions: 500, bytes: 2 << 20)))
        let keymap = config.keymap
        #expect(keymap.command(for: Self.key("<C-n>")) == .moveDown)
        #expect(keymap.command(for: Self.key("j")) == .delete)
        #expect(keymap.command(for: Self.key("x")) == nil, "delete's default keys are replaced")
        #expect(keymap.command(for: Self.key("<C-y>")) == nil)
        #expect(keymap.command(for: Self.key("<C-r>")) == .redo)
        #expect(keymap.command(for: Self.key("u")) == .undo, "commands not named keep their keys")
        #expect(keymap.command(for: [Self.key("<C-t>"), Self.key("o")]) == .toggleFold && keymap.isPrefix([Self.key("<C-t>")]))
        // The binding keeps its section, place and help text.
        let delete = keymap.sections.first { $0.title == "Editing" }?.bindings.first { $0.command == .delete }
        #expect(delete?.keys == [Self.key("j")] && delete?.help == "Delete the item and its sub-items")
        #expect(keymap.sections.map(\.title) == Keymap.default.sections.map(\.title))
        // The help overlay's own keys stay.
        #expect(keymap.command(for: Self.key("j"), in: .help) == .moveDown)

        var theme = Theme.standard
        theme.done = Style(foreground: .palette(8), attributes: .dim)
        theme.selection = Style(foreground: .black, background: .cyan)
        theme.status = Style(foreground: .palette(33), attributes: .reverse)
        #expect(config.theme == theme)
    }

    @Test func anEmptyFileOrOneOfCommentsChangesNothing() {
        for text in ["", "\n\n", "# nothing here\n", "[keys]\n[colors]\n"] {
            let config = Self.parse(text)
            #expect(config.problems == [])
            #expect(Self.bindings(config.keymap) == Self.bindings(.default))
            #expect(config.theme == .standard && !config.hideDone && config.osc52 && config.database == nil)
        }
    }

    /// Every kind of problem, each at the line and column of what is wrong: the value, or the key for a name.
    @Test(arguments: [
        ("hide-done = \n", "1:13: Error while parsing key-value pair: expected value, saw '\\n'; nothing in the file was used"),
        (
            "[keys]\nmoveDown = \"j\"\nmoveDown = \"k\"\n",
            "3:12: Error while parsing key-value pair: cannot redefine existing string 'moveDown'; nothing in the file was used"
        ),
        ("hide-done = \"yes\"\n", "1:13: hide-done must be true or false, not a string"),
        ("osc52 = 1\n", "1:9: osc52 must be true or false, not a number"),
        ("\n  colour = 3\n", "2:3: unknown setting “colour” (the settings are database, hide-done, osc52, sync-url, history, keys, colors)"),
        ("history = 5\n", "1:11: history must be a table: a [history] line, then actions = 10000 and size = \"64 MiB\""),
        ("[history]\nactions = 0\n", "2:11: history.actions must be a whole number from 1 to 10000000"),
        ("[history]\nactions = \"many\"\n", "2:11: history.actions must be a whole number from 1 to 10000000"),
        ("[history]\nsize = \"1 KiB\"\n", "2:8: history.size must be a size of at least 64 KiB, such as \"64 MiB\""),
        ("[history]\nsize = \"64 parsecs\"\n", "2:8: history.size must be a size of at least 64 KiB, such as \"64 MiB\""),
        ("[history]\nsize = \"99999999999 GiB\"\n", "2:8: history.size must be a size of at least 64 KiB, such as \"64 MiB\""),
        ("[history]\ndepth = 3\n", "2:1: unknown history setting “depth” (they are actions and size)"),
        ("database = 5\n", "1:12: database must be a path in quotes, not a number"),
        ("database = \"notes.sqlite\"\n", "1:12: database must be an absolute path or start with ~/, not “notes.sqlite”"),
        ("database = \"\"\n", "1:12: database is empty: give a path, or leave the line out for the default"),
        ("keys = \"j\"\n", "1:8: keys must be a table: a [keys] line, then command = \"key\" lines"),
        ("[keys]\n mveDown = \"j\"\n", "2:2: unknown command “mveDown” (burrow config default lists them)"),
        ("[keys]\nmoveDown = 3\n", "2:12: moveDown must be a key in quotes or a list of them, not a number"),
        ("[keys]\nmoveDown = [\"j\",\n    true]\n", "3:5: a key must be in quotes, such as \"j\" or \"<C-r>\", not true or false"),
        ("[keys]\nundo = \"<Foo>\"\n", "2:8: unknown key “<Foo>” (keys are written as j, J, <C-r>, <S-Up>, <F2>, <Space>…)"),
        (
            "[keys]\nundo = [\"u\", \"z o\"]\n",
            "2:14: “z o” has a space: write a sequence as one word (\"zo\"), several keys as a list, and Space as <Space>"
        ),
        // A sequence is fine, but not one starting with a key that runs a command alone (a: capture).
        (
            "[keys]\nundo = \"abc\"\n",
            "2:8: “abc” clashes with a key that starts it or that it starts: already to capture by default (rebind capture too to free it); undo keeps its default keys"
        ),
        (
            "[keys]\nhelp = \"z\"\n",
            "2:8: “zM” clashes with a key that starts it or that it starts: already to closeAllFolds by default (rebind closeAllFolds too to free it); help keeps its default keys"
        ),
        ("[keys]\nundo = \" \"\n", "2:8: an empty key: write one such as \"j\" or \"<C-r>\""),
        ("[keys]\nundo = \"\\u0001\"\n", "2:8: “^A” is a control character; write Ctrl keys as <C-x>"),
        ("[keys]\nquit = \"q\"\nundo = \"<C-c>\"\n", "3:8: <C-c> always quits; it cannot run undo"),
        (
            "[keys]\ndelete = \"j\"\n",
            "2:10: “j” is bound twice: already to moveDown by default (rebind moveDown too to free it); delete keeps its default keys"
        ),
        ("colors = []\n", "1:10: colors must be a table: a [colors] line, then role = \"colour\" lines"),
        (
            "[colors]\nfrob = \"red\"\n",
            "2:1: unknown colour role “frob” (the roles are breadcrumbs, placeholder, prompt, hint, done, count, status, error, helpTitle, helpKeys, selection, state, overdue)"
        ),
        (
            "[colors]\ndone = \"bleu\"\n",
            "2:8: unknown colour “bleu” (black, red, green, yellow, blue, magenta, cyan, white, bright-black, bright-red, bright-green, bright-yellow, bright-blue, bright-magenta, bright-cyan, bright-white, default, or 0 to 255)"
        ),
        ("[colors]\ndone = 256\n", "2:8: colour 256 is out of range: numbers are 0 to 255"),
        ("[colors]\ndone = -1\n", "2:8: colour -1 is out of range: numbers are 0 to 255"),
        ("[colors]\ndone = 1.5\n", "2:8: done must be a colour or { fg = …, bg = … }, not a number"),
        ("[colors]\ndone = { fg = \"red\", bold = true }\n", "2:22: unknown colour part “bold” (fg or bg)"),
        ("[colors]\ndone = { bg = true }\n", "2:15: a colour is a name in quotes or a number from 0 to 255, not true or false"),
        (
            "[colors.selection]\nbg = \"purple\"\n",
            "2:6: unknown colour “purple” (black, red, green, yellow, blue, magenta, cyan, white, bright-black, bright-red, bright-green, bright-yellow, bright-blue, bright-magenta, bright-cyan, bright-white, default, or 0 to 255)"
        ),
        (
            "keys.delete = \"j\"\n",
            "1:15: “j” is bound twice: already to moveDown by default (rebind moveDown too to free it); delete keeps its default keys"
        ),
        ("[keys]\n\"mve\\u0044own\" = \"j\"\n", "2:1: unknown command “mveDown” (burrow config default lists them)"),
        ("keys = { quit = \"Q\", undo = 'Q' }\n", "1:29: “Q” is bound twice: already to quit on line 1; undo keeps its default keys"),
        ("a = 1\0b = 2\n", "1:6: the file holds a NUL character; nothing in it was used"),
        ("[keys]\n\"a\\u0000b\" = \"j\"\n", "2:1: a string holds U+0000, which no setting can use; nothing in the file was used")
    ])
    func aProblemSaysWhereItIs(text: String, expected: String) {
        let config = Self.parse(text)
        #expect(config.problems.map(\.description) == [expected])
    }

    /// Columns count characters (Unicode scalars), as toml++ counts them for syntax errors.
    @Test func columnsCountCharactersNotBytes() {
        #expect(Self.problems("# é€😀\n[keys]\n\"ü\" = \"j\"\n") == ["3:1: unknown command “ü” (burrow config default lists them)"])
        #expect(Self.problems("[keys] # ü€\nundo = \"€\"\nredo = \"€\"\n").first?.hasPrefix("3:8: “€” is bound twice") == true)
        let syntax = Self.problems("x = \"ü€\" y\n")
        #expect(syntax.first?.hasPrefix("1:10: ") == true, "\(syntax)")
    }

    /// A key in two `[keys]` lines is a problem at the later one; its command keeps its default keys, which may
    /// then clash with the earlier line in turn: each clash is named, and what is left binds no key twice.
    @Test func aKeyBoundTwiceIsReportedAtTheLaterBinding() {
        let config = Self.parse(
            """
            [keys]
            moveDown = "x"
            delete = "x"
            """)
        #expect(
            config.problems.map(\.description) == [
                "2:12: “x” is bound twice: already to delete by default (rebind delete too to free it); moveDown keeps its default keys",
                "3:10: “x” is bound twice: already to moveDown on line 2; delete keeps its default keys"
            ])
        #expect(Self.bindings(config.keymap) == Self.bindings(.default))

        // Two lines that swap keys are fine: defaults of rebound commands do not count.
        let swapped = Self.parse("[keys]\nmoveDown = \"k\"\nmoveUp = \"j\"\n")
        #expect(swapped.problems == [])
        #expect(swapped.keymap.command(for: Self.key("k")) == .moveDown && swapped.keymap.command(for: Self.key("j")) == .moveUp)

        // The same key twice for one command is one key.
        let twice = Self.parse("[keys]\nundo = [\"u\", \"u\", \"<C-x>\"]\n")
        #expect(twice.problems == [])
        #expect(twice.keymap.bindings.first { $0.command == .undo }?.keys == [Self.key("u"), Self.key("<C-x>")])
        // Ctrl-Z suspends: undo on it again is one line more, freeing it.
        let emacsish = Self.parse("[keys]\nundo = [\"u\", \"<C-z>\"]\nsuspend = []\n")
        #expect(emacsish.problems == [])
        #expect(emacsish.keymap.command(for: Self.key("<C-z>")) == .undo)
    }

    /// Each editor's table rebinds its keys; a command in the wrong table, a key bound twice where it is read
    /// (an editor's keys and the text keys), and a sequence in an editor say so at their lines.
    @Test func theEditorsTablesRebindTheirKeys() {
        let config = Self.parse(
            """
            [keys]
            delete = "x"
            [keys.search-line]
            confirm = "<Tab>"
            moveDown = ["<Down>", "<C-j>"]
            [keys.text]
            cursorLeft = "<C-o>"
            [keys.note-editor]
            saveNote = "<C-s>"
            """)
        #expect(config.problems == [])
        #expect(config.keymap.command(for: Self.key("<Tab>"), in: .search) == .confirm)
        #expect(config.keymap.command(for: Self.key("<Enter>"), in: .search) == nil)
        #expect(config.keymap.command(for: Self.key("<C-j>"), in: .search) == .moveDown)
        #expect(config.keymap.command(for: Self.key("<C-o>"), in: .editor) == .cursorLeft)
        #expect(config.keymap.command(for: Self.key("<C-o>"), in: .note) == .cursorLeft)
        #expect(config.keymap.command(for: Self.key("<Left>"), in: .picker) == nil)
        #expect(config.keymap.command(for: Self.key("<C-s>"), in: .note) == .saveNote)
        #expect(config.keymap.command(for: Self.key("<Tab>")) == .indent, "the list keeps its keys")

        let wrong = Self.parse(
            """
            [keys]
            confirm = "<C-j>"
            [keys.editors]
            moveDown = "<C-f>"
            cancel = "zz"
            [keys.help-overlay]
            quit = "Q"
            [keys.note-editor]
            bogus = "x"
            """)
        #expect(
            wrong.problems.map(\.description) == [
                "2:1: confirm has no key in [keys]: it goes in [keys.editors] or [keys.search-line] or [keys.move-picker]",
                "4:12: “<C-f>” is bound twice: already to keys.text.cursorRight by default (rebind keys.text.cursorRight too to free it); keys.editors.moveDown keeps its default keys",
                "5:10: “zz” is several keys: in [keys.editors] each binding is one key",
                "7:1: quit has no key in [keys.help-overlay]: it goes in [keys]",
                "9:1: unknown command “bogus” in [keys.note-editor] (burrow config default lists them)"
            ])
        #expect(Self.bindings(wrong.keymap) == Self.bindings(.default))
        // An editor's table that is not a table, and Ctrl-C (which always quits) given to an editor.
        let odd = Self.parse("keys = { text = \"x\", editors = { cancel = \"<C-c>\" } }\n")
        #expect(
            odd.problems.map(\.description) == [
                "1:17: keys.text must be a table: a [keys.text] line, then command = \"key\" lines",
                "1:43: <C-c> always quits; it cannot run cancel"
            ])
        #expect(odd.keymap.command(for: Self.key("<C-g>"), in: .editor) == .cancel)
        // The same key in two editors is fine: one is read at a time.
        let apart = Self.parse("[keys.search-line]\nconfirm = \"<C-j>\"\n[keys.move-picker]\nconfirm = \"<C-j>\"\n")
        #expect(apart.problems == [])
        #expect(apart.keymap.command(for: Self.key("<C-j>"), in: .picker) == .confirm)
    }

    /// Only what is wrong keeps its default: the good lines of a file with problems still count.
    @Test func aBadPartKeepsItsDefaultAndTheRestApplies() {
        let config = Self.parse(
            """
            hide-done = "no"
            osc52 = false
            [keys]
            undo = "<Nope>"
            redo = "U"
            [colors]
            done = "bleu"
            hint = "red"
            """)
        #expect(config.problems.map { $0.position?.line } == [1, 4, 7])
        #expect(!config.hideDone && !config.osc52)
        #expect(config.keymap.command(for: Self.key("u")) == .undo)
        #expect(config.keymap.command(for: Self.key("U")) == .redo)
        #expect(config.theme.done == Theme.standard.done)
        #expect(config.theme.hint == Style(foreground: .red, attributes: .dim))
    }

    @Test func anEmptyListUnbindsACommand() {
        let config = Self.parse("[keys]\nquit = []\n")
        #expect(config.problems == [])
        #expect(config.keymap.command(for: Self.key("q")) == nil)
        #expect(config.keymap.label(for: .quit) == nil)
    }

    @Test func noColorDropsColoursAndKeepsAttributes() {
        let text = "[colors]\ndone = \"red\"\nselection = { fg = \"white\", bg = \"blue\" }\nstatus = 4\n"
        let colored = Self.parse(text)
        #expect(colored.theme.selection == Style(foreground: .white, background: .blue))
        for value in ["1", "yes"] {
            let plain = Self.parse(text, ["NO_COLOR": value])
            #expect(plain.problems == [])
            #expect(plain.theme == .standard, "NO_COLOR=\(value)")
        }
        // An empty NO_COLOR is as if it were not set (no-color.org).
        #expect(Self.parse(text, ["NO_COLOR": ""]).theme == colored.theme)
    }

    @Test func aReversedRoleKeepsReverseForAForegroundAlone() {
        let theme = Self.parse("[colors]\nselection = \"green\"\nerror = { bg = \"red\" }\n").theme
        #expect(theme.selection == Style(foreground: .green, attributes: .reverse))
        #expect(theme.error == Style(background: .red, attributes: .bold))
    }

    @Test func databaseExpandsHomeAndKeepsAbsolutePaths() {
        #expect(Self.parse("database = \"/srv/o.sqlite\"").database == "/srv/o.sqlite")
        #expect(Self.parse("database = \"~/o.sqlite\"").database == "/home/ann/o.sqlite")
        #expect(Self.parse("database = \"~/o.sqlite\"", [:]).problems.count == 1, "no HOME to expand")
        #expect(Self.parse("database = \"~bob/o.sqlite\"").problems.count == 1)
    }

    /// `burrow config default` prints a file that changes nothing; uncommenting every key and colour line of
    /// it changes nothing either, so it writes out the defaults as they are.
    @Test func theDefaultFileIsTheDefaults() {
        let file = Configuration.defaultFile
        let config = Self.parse(file)
        #expect(config.problems == [])
        #expect(Self.bindings(config.keymap) == Self.bindings(.default))
        #expect(config.theme == .standard && !config.hideDone && config.osc52 && config.database == nil)

        var inTables = false
        var uncommented: [String] = []
        for line in file.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "[keys]" { inTables = true }
            if inTables, line.hasPrefix("# "), line.dropFirst(2).prefix(while: { $0 != " " }).allSatisfy(\.isLetter),
                line.dropFirst(2).drop(while: { $0 != " " }).hasPrefix(" = ")
            {
                uncommented.append(String(line.dropFirst(2)))
            } else {
                uncommented.append(String(line))
            }
        }
        let written = Self.parse(uncommented.joined(separator: "\n"))
        #expect(written.problems == [])
        #expect(Self.bindings(written.keymap) == Self.bindings(.default))
        #expect(written.theme == .standard)
        // Every command and every role is written out.
        for command in Command.allCases { #expect(uncommented.contains { $0.hasPrefix("\(command.rawValue) = ") }, "\(command)") }
        for role in Theme.Role.allCases { #expect(uncommented.contains { $0.hasPrefix("\(role.rawValue) = ") }, "\(role)") }
    }

    @Test func thePathFollowsXDG() {
        #expect(Configuration.path(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]) == "/x/cfg/burrow/config.toml")
        #expect(Configuration.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/burrow/config.toml")
        #expect(Configuration.path(environment: ["HOME": "/h"]) == "/h/.config/burrow/config.toml")
    }

    /// Random bytes and random edits of a good file never crash the reader, and every problem has a position
    /// inside the text or none.
    @Test func hostileTextNeverCrashes() {
        var random = SeededRandom(seed: TestSeed.seed(0xC0FF_1C))
        let base = Configuration.defaultFile.replacingOccurrences(of: "\n# ", with: "\n")
        let alphabet = Array("[]{}=\"'#.,\\\n ujk<>-C0123456789é\u{0}\u{1}\u{202E}")
        for _ in 0..<300 {
            var chars = Array(base)
            for _ in 0..<(1 + random.below(6)) {
                let i = random.below(chars.count)
                if random.below(2) == 0 { chars.remove(at: i) } else { chars.insert(alphabet[random.below(alphabet.count)], at: i) }
            }
            let text = String(chars)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            for problem in Self.parse(text).problems {
                if let p = problem.position { #expect(p.line >= 1 && p.line <= lines + 1 && p.column >= 1, "\(problem) \(random.note)") }
                #expect(!problem.message.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(problem)")
            }
        }
    }
}
