import Foundation
import Outline
import TestSupport
import Testing

@testable import BurrowCommands
@testable import ObjectGraph

/// Runs `burrow` in-process against a temporary database, capturing its output.
final class Shell: @unchecked Sendable {
    let dir = TemporaryDirectory("burrow-cli")
    var db: String { dir.path("outline.sqlite") }
    private let lock = NSLock()
    private var outText = "", errText = ""
    /// Whether the commands are told their standard output and error are terminals.
    var outIsTerminal = false, errIsTerminal = false
    /// The commands' clock (when a progress bar may be drawn).
    var now: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }

    /// Exit status, stdout and stderr of `burrow ARGS --db <temp>`.
    @discardableResult
    func run(_ args: String..., stdin: String = "") -> (Int32, String, String) {
        run(args, stdin: stdin)
    }

    @discardableResult
    func run(_ args: [String], stdin: String = "") -> (Int32, String, String) {
        lock.lock()
        outText = ""
        errText = ""
        lock.unlock()
        let console = Console(
            out: { s in
                self.lock.lock(); self.outText += s; self.lock.unlock()
            },
            err: { s in
                self.lock.lock(); self.errText += s; self.lock.unlock()
            },
            input: { Data(stdin.utf8) }, outIsTerminal: outIsTerminal, errIsTerminal: errIsTerminal, now: now)
        // The temporary database goes before any `--`, after which it would be text (and the real default
        // database would be used).
        var full = args
        if args.first.map({ ["--help", "--version"].contains($0) }) != true {
            full.insert(contentsOf: ["--db", db], at: args.firstIndex(of: "--") ?? args.endIndex)
        }
        let code = Console.$current.withValue(console) { BurrowMain.run(full) }
        lock.lock()
        defer { lock.unlock() }
        return (code, outText, errText)
    }

    func file(_ name: String) -> String { dir.path(name) }
}

@Suite struct CommandTests {
    /// The environment commands read, taken from `environ` by bytes, is what ProcessInfo reads; and from a
    /// made-up array: a name given twice keeps its first value (as `getenv`), bytes that are not UTF-8 are
    /// repaired, a value may hold `=`, an entry without one is passed over.
    @Test func theEnvironmentIsReadAsProcessInfoAndGetenvRead() {
        #expect(Console.processEnvironment() == ProcessInfo.processInfo.environment)
        let entries: [[UInt8]] = [
            Array("A=one".utf8), Array("B=x=y é🦫".utf8), Array("A=two".utf8), [0x43, 0x3D, 0xFF, 0x41], Array("NOEQUALS".utf8),
            Array("=empty name".utf8)
        ]
        let pointers = entries.map { bytes in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
            p[bytes.count] = 0
            return Optional(p)
        }
        defer { for p in pointers { p?.deallocate() } }
        let read = (pointers + [nil]).withUnsafeBufferPointer { Console.environment(from: $0.baseAddress!) }
        #expect(read == ["A": "one", "B": "x=y é🦫", "C": "\u{FFFD}A", "": "empty name"])
    }

    @Test func addListAndPaths() {
        let sh = Shell()
        #expect(sh.run("add", "Groceries", "Work").0 == 0)
        let (code, out, _) = sh.run("add", "Milk", "Eggs", "--under", "Groceries")
        #expect(code == 0)
        #expect(out.contains("Added “Milk”") && out.contains("under “Groceries”"))
        sh.run("add", "Cheese", "--under", "Groceries", "--top")
        sh.run("add", "a/b slash", "--under", "Work")
        sh.run("add", "deep", "--under", "Work/a\\/b slash")
        #expect(sh.run("ls").1 == "[ ] Groceries (3)\n[ ] Work (1)\n")
        #expect(sh.run("ls", "Groceries").1 == "[ ] Cheese\n[ ] Milk\n[ ] Eggs\n")
        #expect(
            sh.run("ls", "--tree").1 == """
                [ ] Groceries (3)
                  [ ] Cheese
                  [ ] Milk
                  [ ] Eggs
                [ ] Work (1)
                  [ ] a/b slash (1)
                    [ ] deep

                """)
        #expect(sh.run("ls", "--tree", "--depth", "2").1.contains("    [ ] deep") == false)
        let ids = sh.run("ls", "--ids").1
        let id = ids.split(separator: " ").first.map(String.init)!
        #expect(id.hasPrefix("#"))
        #expect(sh.run("ls", id).1 == "[ ] Cheese\n[ ] Milk\n[ ] Eggs\n")
        #expect(sh.run("ls", "--json", "Work").1.contains("\"title\": \"a/b slash\""))
    }

    /// A path segment that matches no title exactly names the one item whose title matches it ignoring case
    /// and accents; two such items are an error that lists them.
    @Test func pathsForgiveCaseAndAccentsWhenOneItemMatches() {
        let sh = Shell()
        sh.run("add", "Groceries", "Café", "work", "Work")
        sh.run("add", "Milk", "--under", "groceries")
        #expect(sh.run("ls", "GROCERIES").1 == "[ ] Milk\n")
        #expect(sh.run("add", "Latte", "--under", "cafe").0 == 0)
        #expect(sh.run("ls", "CAFE").1 == "[ ] Latte\n")
        // An exact title wins over loose ones.
        #expect(sh.run("add", "Exact", "--under", "work").0 == 0)
        #expect(sh.run("ls", "work").1 == "[ ] Exact\n")
        let both = sh.run("ls", "WORK")
        #expect(both.0 == 1)
        #expect(both.2.hasPrefix("burrow: “WORK” is ambiguous in the top level: 2 items have that title (#"), "\(both.2)")
    }

    /// A database named by --db (or $BURROW_DB) that does not exist is an error naming it, not an empty
    /// outline, for every command that reads; nothing is created.
    @Test func aMistypedDatabaseIsAnErrorNotAnEmptyOutline() {
        let sh = Shell()
        let commands: [[String]] = [
            ["ls"], ["find", "x"], ["export", "--format", "text"], ["ls", "--tree", "--json"], ["history"], ["note", "A"],
            ["rm", "A"], ["done", "A"], ["rename", "A", "B"], ["mv", "A", "--to", "/"], ["note", "A", "text"]
        ]
        for args in commands {
            #expect(sh.run(args) == (1, "", "burrow: there is no outline at \(sh.db) (burrow add makes one)\n"), "\(args)")
        }
        #expect(!FileManager.default.fileExists(atPath: sh.db), "nothing was created")
        #expect(sh.run("add", "A").0 == 0, "add starts one")
        #expect(sh.run("ls") == (0, "[ ] A\n", ""))
    }

    /// The sync's commands run async (they talk to a server) and write to the console of whoever runs them,
    /// as every other command does. On a thread of its own: the synchronous entry blocks its thread until the
    /// command's task ends, and that task needs the concurrency pool (in a full run it waited there 30 s and
    /// more behind other tests while the thread it blocked was one of the pool's two).
    @Test(.onAThreadOfItsOwn("sync commands")) func theSyncCommandsWriteWhereTheOthersDo() {
        let sh = Shell()
        #expect(sh.run("add", "A").0 == 0)
        #expect(sh.run("sync", "status") == (0, "not shared\n", ""))
        let (code, out, err) = sh.run("sync", "now")
        #expect(code == 1 && out.isEmpty)
        #expect(err == "burrow: this outline is not shared (burrow sync attach URL first)\n")
        #expect(sh.run("sync", "attach", "mysql://nowhere").2.hasPrefix("burrow: "))
    }

    @Test func editsAndTheirMessages() {
        let sh = Shell()
        sh.run("add", "Groceries", "Errands")
        sh.run("add", "Milk", "Eggs", "Bread", "--under", "Groceries")
        #expect(sh.run("done", "Groceries/Milk").1 == "Done: “Milk”\n")
        #expect(sh.run("done", "Groceries/Milk", "--undo").1 == "Not done: “Milk”\n")
        sh.run("done", "Groceries/Eggs")
        #expect(sh.run("rename", "Groceries/Bread", "Sourdough").1 == "Renamed “Bread” to “Sourdough”\n")
        #expect(sh.run("mv", "Groceries/Sourdough", "--to", "Errands", "--position", "1").1 == "Moved “Sourdough” under “Errands” at position 1\n")
        #expect(sh.run("mv", "Groceries/Eggs", "--to", "Groceries", "--position", "1").0 == 0)
        #expect(sh.run("ls", "--tree").1 == "[ ] Groceries (2)\n  [x] Eggs\n  [ ] Milk\n[ ] Errands (1)\n  [ ] Sourdough\n")
        #expect(sh.run("rm", "Groceries").1 == "Deleted “Groceries” and 2 sub-items\n")
        #expect(sh.run("ls").1 == "[ ] Errands (1)\n")
    }

    @Test func exitCodesAndErrors() {
        let sh = Shell()
        sh.run("add", "Groceries", "Work", "Work")
        let missing = sh.run("ls", "Grocerie")
        #expect(missing.0 == 1)
        #expect(missing.2 == "burrow: no item “Grocerie” in the top level; it has “Groceries”, “Work”, “Work”\n")
        let ambiguous = sh.run("rm", "Work")
        #expect(ambiguous.0 == 1)
        #expect(ambiguous.2.hasPrefix("burrow: “Work” is ambiguous in the top level: 2 items have that title (#"))
        #expect(sh.run("ls", "#999999").2 == "burrow: no item has the ID #999999\n")
        #expect(sh.run("ls", "--no-such-option").0 == 2)
        #expect(sh.run("mv", "Work").0 == 2)  // --to is required
        #expect(sh.run("ls", "--depth", "0").0 == 2)
        #expect(sh.run("--version").1 == "0.1.0\n")
        let help = sh.run("--help")
        #expect(help.0 == 0 && help.1.contains("SUBCOMMANDS") && help.1.contains("import"))
        #expect(sh.run("add", "--help").1.contains("--under"))
        let text = sh.file("not-a-db.sqlite")
        try? Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let bad = Console.$current.withValue(Console(out: { _ in }, err: { _ in }, input: { Data() }, errIsTerminal: false)) {
            BurrowMain.run(["ls", "--db", text])
        }
        #expect(bad == 1)
        #expect(try! String(contentsOfFile: text, encoding: .utf8) == "hello")
    }

    /// Before `--`, an argument that starts with - is read as an option, and `add -shopping` was `-s -h -o …`:
    /// help, status 0, nothing added. Any such argument that is not one of the command's options is refused
    /// with status 2 and a message that shows the command with `--` (or `=` for an option's value); `DB` stands
    /// for the `--db` option the shell adds.
    @Test(arguments: [
        (["add", "-shopping"], "burrow add DB -- -shopping"),
        (["add", "-milk", "Eggs"], "burrow add DB -- -milk Eggs"),
        (["add", "--milk"], "burrow add DB -- --milk"),
        (["add", "-m"], "burrow add DB -- -m"),
        (["add", "Eggs", "-ho", "--top"], "burrow add --top DB -- Eggs -ho"),
        (["add", "-5 minutes", "--under", "Foo"], "burrow add --under Foo DB -- '-5 minutes'"),
        (["add", "x", "--under", "-shopping"], "--under=-shopping"),
        (["rename", "Foo", "-hello"], "burrow rename DB -- Foo -hello"),
        (["rename", "-shx", "y"], "burrow rename DB -- -shx y"),
        (["rm", "-hFoo"], "burrow rm DB -- -hFoo"),
        (["done", "-h-"], "burrow done DB -- -h-"),
        (["mv", "Foo", "--to", "-hx"], "--to=-hx"),
        (["ls", "-tree"], "burrow ls DB -- -tree"),
        (["import", "-shopping.md"], "burrow import DB -- -shopping.md"),
        (["export", "-ofile.md"], "burrow export DB -- -ofile.md"),
        (["-shopping"], "goes after --")
    ])
    func anArgumentThatLooksLikeAnOptionIsRefusedNamingTheSeparator(args: [String], suggestion: String) throws {
        let sh = Shell()
        sh.run("add", "Foo")
        let before = sh.run("ls", "--json").1
        let (code, out, err) = sh.run(args)
        #expect(code == 2, "\(out)\(err)")
        #expect(out.isEmpty)
        #expect(err.contains(suggestion.replacingOccurrences(of: "DB", with: "--db \(sh.db)")), "\(err)")
        let culprit = try #require(args.first { $0.hasPrefix("-") && !["--top", "--under", "--to"].contains($0) })
        #expect(err.hasPrefix("Error: Unknown option '\(culprit)'"), "\(err)")
        #expect(sh.run("ls", "--json").1 == before, "something changed")
    }

    @Test func afterTheSeparatorATitleMayStartWithADash() {
        let sh = Shell()
        #expect(sh.run("add", "--under", "", "--", "-shopping", "--top", "-h").0 == 0)
        #expect(sh.run("rename", "--", "-shopping", "-groceries").1 == "Renamed “-shopping” to “-groceries”\n")
        #expect(sh.run("add", "x", "--under=-groceries").0 == 0)
        #expect(sh.run("ls", "--tree").1 == "[ ] -groceries (1)\n  [ ] x\n[ ] --top\n[ ] -h\n")
        // Asking for help is still help.
        for help in [["add", "-h"], ["add", "--help"], ["help", "add"], ["add", "x", "-h"]] {
            let (code, out, _) = sh.run(help)
            #expect(code == 0 && out.contains("USAGE: burrow add"), "\(help)")
        }
        #expect(sh.run("ls").1 == "[ ] -groceries (1)\n[ ] --top\n[ ] -h\n")
    }

    /// As the outliner's editors refuse an empty title, so does `rename`: nothing is saved.
    @Test(arguments: ["", " ", "  \t ", "\n"])
    func renameRefusesAnEmptyTitle(title: String) {
        let sh = Shell()
        sh.run("add", "Groceries")
        let (code, out, err) = sh.run("rename", "Groceries", title)
        #expect(code == 2)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("Error: the new title is empty: give at least one character other than a space"), "\(err)")
        #expect(sh.run("ls").1 == "[ ] Groceries\n")
    }

    /// An empty or blank title is refused on add as on rename (it was added); blank lines of standard input
    /// are skipped like empty ones.
    @Test func addRefusesAnEmptyTitle() {
        let sh = Shell()
        for title in ["", "   "] {
            let (code, out, err) = sh.run("add", "ok", title)
            #expect(code == 2)
            #expect(out.isEmpty)
            #expect(err.hasPrefix("Error: a title is empty: give at least one character other than a space"), "\(err)")
        }
        #expect(sh.run("add", "-", stdin: "one\n   \n\ttwo\n").0 == 0)
        #expect(sh.run("ls").1 == "[ ] one\n[ ] \ttwo\n".replacingOccurrences(of: "\t", with: "^I"))
    }

    @Test func addFromStandardInputAndHostileTitles() {
        let sh = Shell()
        #expect(sh.run("add", "-", stdin: "one\ntwo\r\n\nthree\n").0 == 0)
        #expect(sh.run("ls").1 == "[ ] one\n[ ] two\n[ ] three\n")
        sh.run("add", "evil \u{1B}]0;pwned\u{07} \u{1B}[2J title")
        #expect(sh.run("ls").1.contains("evil ^[]0;pwned^G ^[[2J title"))
        #expect(!sh.run("ls").1.contains("\u{1B}"))
    }

    /// A title holding escape sequences is shown, not obeyed, when a command writes it to a terminal (as `ls`
    /// does); to a file or a pipe the data is exact, so `export > file` round-trips.
    @Test(arguments: [
        (
            "markdown", "- evil \u{1B}]0;pwned\u{07} \u{1B}[2J title\n  - child\tx\n",
            "- evil ^[]0;pwned^G ^[[2J title\n  - child\tx\n"
        ),
        (
            "text", "evil \u{1B}]0;pwned\u{07} \u{1B}[2J title\n\tchild\tx\n",
            "evil ^[]0;pwned^G ^[[2J title\n\tchild\tx\n"
        )
    ])
    func exportShowsControlCharactersOnATerminalAndWritesThemExactlyElsewhere(format: String, exact: String, shown: String) {
        let sh = Shell()
        sh.run("add", "evil \u{1B}]0;pwned\u{07} \u{1B}[2J title")
        sh.run("add", "child\tx", "--under", "#2")
        #expect(sh.run("export", "--format", format).1 == exact)
        sh.outIsTerminal = true
        #expect(sh.run("export", "--format", format).1 == shown)
    }

    @Test func noCommandWritesControlCharactersToATerminal() {
        let sh = Shell()
        sh.outIsTerminal = true
        sh.errIsTerminal = true
        let evil = "evil \u{1B}]0;pwned\u{07}\u{9B}2J"
        let file = sh.file("out\u{1B}[2J.md")
        var printed = ""
        for args in [
            ["add", evil], ["add", evil + " child", "--under", evil], ["ls", "--tree"], ["ls", "--json"],
            ["export"], ["export", "--format", "json"], ["export", "--format", "markdown"], ["export", "--format", "text"],
            ["export", "-o", file], ["import", file, "--under", evil], ["done", evil],
            ["mv", evil + "/" + evil + " child", "--to", evil + "/" + evil], ["rename", evil, evil + " again"],
            ["rm", evil + " again"], ["ls", evil], ["import", sh.file("missing\u{1B}[2J.md")],
            ["add", "x", "--under", evil], ["rename", evil, "x", evil], ["ls", "--depth", evil]
        ] {
            let (_, out, err) = sh.run(args)
            printed += out + err
        }
        // The progress bar's own carriage returns and line erases are the only control characters.
        let text = printed.replacingOccurrences(of: "\r\u{1B}[K", with: "").replacingOccurrences(of: "\r", with: "")
        #expect(
            !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) },
            "\(printed)")
        #expect(text.contains("Renamed “evil ^[]0;pwned^G<U+009B>2J” to “evil ^[]0;pwned^G<U+009B>2J again”"))
        #expect(text.contains("Exported 2 items to \(sh.file("out^[[2J.md")) (markdown)"))
        #expect(text.contains("Error: Unexpected argument 'evil ^[]0;pwned^G<U+009B>2J'"))
    }

    @Test(arguments: ["opml", "markdown", "org", "text", "json"])
    func exportImportRoundTrip(format: String) throws {
        let sh = Shell()
        sh.run("add", "Groceries 🛒", "Work")
        sh.run("add", "Milk", "Eggs & <bacon>", "--under", "Groceries 🛒")
        sh.run("add", "Deep", "--under", "Groceries 🛒/Milk")
        let file = sh.file("out.\(format == "markdown" ? "md" : format == "text" ? "txt" : format)")
        #expect(sh.run("export", "-o", file).0 == 0)
        let other = Shell()
        let (code, out, err) = other.run("import", file)
        #expect(code == 0, "\(err)")
        #expect(out.hasPrefix("Imported 5 items from \(file) (\(format))"))
        #expect(other.run("ls", "--tree").1 == sh.run("ls", "--tree").1)
        // Exporting to stdout gives the same text.
        #expect(sh.run("export", "--format", format).1 == (try String(contentsOfFile: file, encoding: .utf8)))
    }

    @Test func badFilesImportNothing() throws {
        let sh = Shell()
        sh.run("add", "Keep me")
        let before = sh.run("ls", "--tree").1
        let broken = sh.file("broken.opml")
        try Data("<?xml version=\"1.0\"?>\n<opml><body>\n<outline text=\"a\">\n</body></opml>\n".utf8).write(to: URL(fileURLWithPath: broken))
        let r1 = sh.run("import", broken)
        #expect(r1.0 == 1)
        #expect(r1.2.hasPrefix("burrow: \(broken): OPML line 4"))
        let latin1 = sh.file("latin1.txt")
        try Data([0x61, 0x0A, 0x09, 0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: latin1))
        let r2 = sh.run("import", latin1)
        #expect(r2.0 == 1)
        #expect(r2.2 == "burrow: \(latin1) line 2, column 5: not UTF-8 (byte 0xE9); convert the file to UTF-8\n")
        let tooDeep = sh.run("import", "-", "--format", "markdown", stdin: "- a\n" + String(repeating: "- ", count: 1001) + "b\n")
        #expect(tooDeep.0 == 1)
        #expect(tooDeep.2.contains("Markdown line 2, column 2001"))
        #expect(sh.run("ls", "--tree").1 == before)
    }
}

/// `burrow check` says "intact" and exits 0, or prints one line per problem and exits 1; `--repair` says
/// what it did and leaves an intact outline.
@Suite struct CheckCommandTests {
    @Test func checkAndRepair() throws {
        let sh = Shell()
        sh.run("add", "Groceries", "Work")
        sh.run("add", "Milk", "--under", "Groceries")
        #expect(sh.run("check") == (0, "The outline is intact.\n", ""))
        // An older program's stale count, and an orphan, written behind the outline's back.
        let store = try Store(path: sh.db, model: OutlineModel.model)
        try store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE Item SET childCount = 5 WHERE title = 'Groceries'")
            try db.execute(sql: "UPDATE Item SET parent = NULL WHERE title = 'Work'")
        }
        let (code, out, _) = sh.run("check")
        #expect(code == 1)
        #expect(
            out == """
                #1 “Burrow” stores 2 sub-items but has 1
                #2 “Groceries” stores 5 sub-items but has 1
                #3 “Work” cannot be reached from the top: it has no parent

                """)
        let repaired = sh.run("check", "--repair")
        #expect(repaired.0 == 0)
        #expect(
            repaired.1 == """
                Repaired: counted again 2 stored counts that were wrong
                Repaired: moved 1 item not reachable from the top under “Recovered”
                The outline is intact now.

                """)
        #expect(sh.run("ls", "--tree").1 == "[ ] Groceries (1)\n  [ ] Milk\n[ ] Recovered (1)\n  [ ] Work\n")
        #expect(sh.run("check").0 == 0)
    }
}

extension CommandTests {
    /// `lines` lines of a 100,000-level outline, one item a level ("level 1" holds "level 2", …); for OPML
    /// and JSON the whole file.
    static func deepFile(_ format: OutlineFormat, depth: Int, lines: Int) -> String {
        var out = ""
        switch format {
        case .opml:
            out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>deep</title></head><body>\n"
            for d in 1...depth { out += "<outline text=\"level \(d)\">" }
            out += String(repeating: "</outline>", count: depth) + "\n</body></opml>\n"
        case .json:
            for d in 1..<depth { out += "{\"title\": \"level \(d)\", \"children\": [" }
            out = "[" + out + "{\"title\": \"level \(depth)\"}" + String(repeating: "]}", count: depth - 1) + "]\n"
        case .markdown:
            for d in 1...lines { out += String(repeating: "  ", count: d - 1) + "- level \(d)\n" }
        case .text:
            for d in 1...lines { out += String(repeating: "\t", count: d - 1) + "level \(d)\n" }
        case .org:
            for d in 1...lines { out += String(repeating: "*", count: d) + " level \(d)\n" }
        }
        return out
    }

    /// 100,000 levels through `burrow import`: OPML and JSON are imported whole and export back the same;
    /// Markdown and text hold fewer levels, so such a file is refused and nothing is imported (the file is cut
    /// after the line that passes the limit: the reader stops there, and the whole would be gigabytes).
    ///
    /// Why it takes about 10 s (its five cases together): depth is what is tested, so the files cannot be
    /// shallower; OPML and JSON import, export and compare 100,000 levels each, and the other three read up
    /// to their limit and write an outline one level deeper to be refused.
    @Test(arguments: OutlineFormat.allCases)
    func deepFilesImportWholeOrNothing(format: OutlineFormat) throws {
        let depth = 100_000
        let sh = Shell()
        sh.run("add", "Keep me")
        let before = sh.run("ls", "--tree").1
        let ext = ["opml": "opml", "markdown": "md", "org": "org", "text": "txt", "json": "json"][format.rawValue]!
        let file = sh.file("deep.\(ext)")
        let text = Self.deepFile(format, depth: depth, lines: (format.maximumLevels ?? depth) + 1)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let (code, out, err) = sh.run("import", file)
        if let limit = format.maximumLevels {
            #expect(code == 1)
            let name = ["markdown": "Markdown", "org": "Org", "text": "text"][format.rawValue]!
            #expect(err.hasPrefix("burrow: \(file): \(name) line \(limit + 1), column "), "\(err)")
            #expect(err.contains("at most \(limit) levels"), "\(err)")
            #expect(sh.run("ls", "--tree").1 == before)
            // Nor is an outline deeper than the limit written in this format, which import would refuse.
            let deeper = Self.deepFile(.json, depth: limit + 1, lines: 0)
            #expect(sh.run("import", "-", "--format", "json", stdin: deeper).0 == 0)
            let refused = sh.run("export", "--format", format.rawValue)
            #expect(refused.0 == 1)
            #expect(
                refused.2 == "burrow: the outline is more than \(limit) levels deep and \(format.rawValue) holds at most \(limit): "
                    + "export it as OPML or JSON\n")
            #expect(refused.1 == "")
            // To a file: refused as well, and no file is left, nor a temporary one.
            let target = sh.file("refused.\(ext)")
            let toFile = sh.run("export", "-o", target)
            #expect(toFile.0 == 1)
            #expect(toFile.2 == refused.2)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: sh.dir.url.path).filter { !$0.hasPrefix("outline.sqlite") } == ["deep.\(ext)"])
            return
        }
        #expect(code == 0, "\(err)")
        #expect(out.hasPrefix("Imported \(depth) items from \(file) (\(format.rawValue))"), "\(out)")
        // The whole tree is there: exported in the same format, it reads as the one item before and the file.
        let back = sh.file("back.\(ext)")
        #expect(sh.run("export", "-o", back).0 == 0)
        var chain = OutlineNode("level \(depth)")
        for d in stride(from: depth - 1, through: 1, by: -1) { chain = OutlineNode("level \(d)", children: [chain]) }
        let whole = try format.read(String(contentsOfFile: back, encoding: .utf8)) == [OutlineNode("Keep me"), chain]
        #expect(whole)
    }
}

/// Every command on a 100,000-level outline: nothing recurses on depth, lines stay bounded, nothing is lost.
@Suite struct DeepOutlineCommandTests {
    @Test func listCheckAndDeleteAHundredThousandLevels() throws {
        let depth = 100_000
        let sh = Shell()
        sh.run("add", "Keep me")
        let file = sh.file("deep.json")
        try Data(CommandTests.deepFile(.json, depth: depth, lines: 0).utf8).write(to: URL(fileURLWithPath: file))
        #expect(sh.run("import", file).0 == 0)
        let tree = sh.run("ls", "--tree")
        let lines = tree.1.split(separator: "\n")
        #expect(tree.0 == 0 && lines.count == depth + 1)
        #expect(lines.last == "\(String(repeating: "  ", count: 32))(level \(depth)) [ ] level \(depth)")
        #expect(lines.map(\.utf8.count).max()! < 100)
        let json = sh.run("ls", "--tree", "--json")
        #expect(json.0 == 0)
        #expect(json.1.components(separatedBy: "\"children\": [").count - 1 == depth - 1)
        #expect(json.1.hasSuffix(String(repeating: "]}", count: depth - 1) + "]\n"))
        #expect(sh.run("ls", "level 1/level 2", "--depth", "1").1 == "[ ] level 3 (1)\n")
        #expect(sh.run("check") == (0, "The outline is intact.\n", ""))
        let rm = sh.run("rm", "level 1")
        #expect(rm.0 == 0, "\(rm.2)")
        #expect(rm.1 == "Deleted “level 1” and \(depth - 1) sub-items\n")
        #expect(sh.run("ls", "--tree").1 == "[ ] Keep me\n")
        #expect(sh.run("check").0 == 0)
    }
}

/// Standard output gathered into large writes keeps every byte and its order: written when the buffer fills,
/// when standard error is written, and when the command ends.
@Suite struct BufferedOutputTests {
    final class Writes: @unchecked Sendable {
        private let lock = NSLock()
        private var chunks: [Data] = []
        func add(_ d: Data) {
            lock.lock()
            chunks.append(d)
            lock.unlock()
        }
        var all: [Data] {
            lock.lock()
            defer { lock.unlock() }
            return chunks
        }
    }

    @Test func everyByteInOrderInFewWrites() {
        let writes = Writes()
        let out = BufferedOutput { writes.add($0) }
        var expected = ""
        for i in 0..<10_000 {
            let line = "line \(i) é🦫\n"
            out.append(line)
            expected += line
        }
        #expect(writes.all.count == expected.utf8.count / BufferedOutput.limit)
        out.flush()
        out.flush()
        #expect(String(decoding: writes.all.reduce(Data(), +), as: UTF8.self) == expected)
        #expect(writes.all.allSatisfy { !$0.isEmpty })
    }

    /// Appends from many threads at once (in-process tests run commands in parallel) lose no byte and split
    /// no piece: what makes `BufferedOutput`'s `@unchecked Sendable` true is its lock.
    @Test func appendsFromManyThreadsKeepEveryPieceWhole() {
        let writes = Writes()
        let out = BufferedOutput { writes.add($0) }
        let pieces = (0..<8).map { t in (0..<4_000).map { "thread \(t) line \($0)\n" } }
        DispatchQueue.concurrentPerform(iterations: pieces.count) { t in
            for line in pieces[t] { out.append(line) }
        }
        out.flush()
        let lines = String(decoding: writes.all.reduce(Data(), +), as: UTF8.self).split(separator: "\n").map { String($0) + "\n" }
        #expect(lines.sorted() == pieces.joined().sorted())
        for t in pieces.indices {
            #expect(lines.filter { $0.hasPrefix("thread \(t) ") } == pieces[t], "thread \(t)'s lines out of order")
        }
        // KeptToExit's lock likewise: every object kept once the process exits after the run, none before.
        let kept = KeptToExit()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in kept.keepIfExiting(Writes()) }
        #expect(kept.count == 0)
        kept.processExitsAfterRun()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { kept.keepIfExiting(Writes()) }
        }
        #expect(kept.count == 4_000)
    }

    /// To a terminal, a line at a time (as stdio); a piece bigger than the buffer goes out whole, after what
    /// was gathered before it.
    @Test func byLineToATerminalAndBigPiecesWhole() {
        let writes = Writes()
        let terminal = BufferedOutput(byLine: true) { writes.add($0) }
        terminal.append("half ")
        #expect(writes.all.isEmpty)
        terminal.append("a line\n")
        #expect(writes.all.map { String(decoding: $0, as: UTF8.self) } == ["half a line\n"])
        let big = String(repeating: "x", count: BufferedOutput.limit + 1)
        let pipe = Writes()
        let out = BufferedOutput { pipe.add($0) }
        out.append("before\n")
        out.append(big)
        out.append("after\n")
        out.flush()
        #expect(pipe.all.map { String(decoding: $0, as: UTF8.self) } == ["before\n", big, "after\n"])
    }

    /// A command's output through a pipe, well past the buffer: every line, in order.
    @Test func aCommandsOutputThroughAPipeIsWhole() throws {
        let dir = TemporaryDirectory("burrow-buffer")
        let db = dir.path()
        let titles = (0..<3_000).map { "item \($0) with a title long enough to fill the buffer sooner" }
        let add = BurrowProcess.run(["add", "-", "--db", db], input: titles.joined(separator: "\n"))
        #expect(add.status == 0, "\(add.err)")
        let ls = BurrowProcess.run(["ls", "--db", db])
        #expect(ls.out.split(separator: "\n").map { String($0.dropFirst(4)) } == titles)
        #expect(ls.out.utf8.count > 2 * BufferedOutput.limit)
    }
}
