import Foundation
import TestSupport
import Testing

/// The real `burrow` in a real terminal (tmux): the seed story, relaunch, live updates from another process,
/// resize, and SIGTERM.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct OutlinerTests {
    /// Starts `burrow` on a fresh database in `$TEST_DIR`, printing its exit status when it ends.
    private func start(width: Int = 60, height: Int = 12) throws -> (Tmux, String) {
        let tmux = try Tmux(
            width: width, height: height,
            shellCommand: """
                export BURROW_DB="$TEST_DIR/outline.sqlite" BURROW_LOG="$TEST_DIR/burrow.log"
                echo $$ > "$TEST_DIR/pid"
                ulimit -c 0
                while :; do \(Binaries.path("burrow")); echo "exit=$?"; stty -a > "$TEST_DIR/stty.txt"; read line; done
                """)
        return (tmux, tmux.directory.appendingPathComponent("outline.sqlite").path)
    }

    /// Runs `burrow` as another process on the same database.
    private func burrow(_ db: String, _ arguments: String...) throws -> (Int32, String) {
        let (status, out, err) = try Binaries.run("burrow", arguments + ["--db", db])
        return (status, out + err)
    }

    /// Keys typed while the outliner starts are kept: the terminal is asked how it draws some characters
    /// with the first frame and its answers are read among the keys (the question asked before the first
    /// frame read the terminal for up to 300 ms and dropped every key it found there).
    @Test func keysTypedWhileItStartsAreKept() throws {
        let (tmux, _) = try start()
        try tmux.send("a")
        try tmux.type("Typed early")
        try tmux.send("Enter")
        #expect(tmux.waitFor { Self.shows($0, " [ ] Typed early") } != nil, "\(tmux.screen())")
    }

    /// Keys arriving together are taken in the order they were typed: one burst of ASCII, UTF-8, ← (as CSI),
    /// more of each, and ⌫.
    @Test func aBurstOfMixedKeysIsTakenInOrder() throws {
        let (tmux, _) = try start()
        try #require(tmux.waitFor(text: "a: add an item · ?: help") != nil)
        try tmux.send("a")
        try tmux.type("Zür\u{1B}[DXich é日本!\u{7F}?")
        try tmux.send("Enter")
        #expect(tmux.waitFor { Self.shows($0, " [ ] ZüXich é日本?r") } != nil, "\(tmux.screen())")
    }

    /// A mouse report (tmux's terminfo names `ESC [ M` as the mouse key) is decoded by ncurses: a wheel turn
    /// down moves three rows, and its bytes (`a` among them, the add key) are never taken as typed keys.
    @Test func aMouseWheelReportIsNotTyped() throws {
        let (tmux, db) = try start()
        try #require(tmux.waitFor(text: "a: add an item · ?: help") != nil)
        #expect(try Binaries.run("burrow", ["add"] + (1...30).map { "Item \($0)" } + ["--db", db]).0 == 0)
        try #require(tmux.waitFor(text: "1/30 · ?: help") != nil, "\(tmux.screen())")
        // Wheel down (32 + 65 = `a`) at column 11 (`+`), row 6 (`&`).
        try tmux.type("\u{1B}[Ma+&")
        #expect(tmux.waitFor(text: "4/30 · ?: help") != nil, "\(tmux.screen())")
        #expect(!tmux.screen().contains { $0.contains("+&") }, "\(tmux.screen())")
    }

    /// A flag in the first frame is drawn whole once the terminal has said it draws flags in two cells
    /// (tmux does): drawn as a stand-in first, then again when the answer arrives after that frame.
    @Test func aFlagInTheFirstFrameIsDrawnWholeOnceTheTerminalAnswers() throws {
        let dir = TemporaryDirectory("flag")
        let db = dir.url.appendingPathComponent("outline.sqlite").path
        #expect(try Binaries.run("burrow", ["add", "Paris \u{1F1EB}\u{1F1F7} trip", "--db", db]).0 == 0)
        let tmux = try Tmux(
            width: 60, height: 12,
            shellCommand: """
                export BURROW_LOG="$TEST_DIR/burrow.log"
                \(Binaries.path("burrow")) --db \(Tmux.quote(db)); echo "exit=$?"; exec sleep infinity
                """)
        #expect(tmux.waitFor(text: "Paris \u{1F1EB}\u{1F1F7} trip") != nil, "\(tmux.screen())")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
    }

    /// After `q`, the database file alone is the whole outline: the write-ahead log was checkpointed, so a
    /// copy of just the `.sqlite` file (a backup, a sync tool) loses nothing.
    @Test func quittingLeavesTheFileAloneComplete() throws {
        let (tmux, db) = try start()
        try #require(tmux.waitFor(text: "a: add an item · ?: help") != nil)
        try tmux.send("a")
        try tmux.type("Keep me")
        try tmux.send("Enter", "Escape")
        // The placeholder alone is on the first screen too: with the item, it shows the Esc was taken (a key
        // sent before that would read as Alt and the key).
        try #require(tmux.waitFor { Self.shows($0, "+ Add to Burrow…", " [ ] Keep me") } != nil)
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
        let copy = tmux.directory.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        #expect(try burrow(copy, "ls").1 == "[ ] Keep me\n")
    }

    /// Ctrl-Z gives the terminal back to the shell as every terminal program does (it undid a change before),
    /// and `fg` brings the outliner back, redrawn, with the capture line's text still there.
    @Test func ctrlZSuspendsToTheShellAndFgRedraws() throws {
        let tmux = try Tmux(
            width: 60, height: 12,
            shellCommand: "export BURROW_DB=\"$TEST_DIR/outline.sqlite\" PS1='shell$ '; exec bash --norc --noprofile -i")
        try #require(tmux.waitFor(text: "shell$") != nil, "\(tmux.screen())")
        try tmux.type(Binaries.path("burrow"))
        try tmux.send("Enter")
        try #require(tmux.waitFor(text: "a: add an item · ?: help") != nil, "\(tmux.screen())")
        try tmux.send("a")
        try tmux.type("Bread")
        try #require(tmux.waitFor(text: "› Bread") != nil, "\(tmux.screen())")
        try tmux.send("C-z")
        let stopped = tmux.waitFor { s in s.contains { $0.contains("Stopped") } && !s.contains { $0.contains("› Bread") } }
        try #require(stopped != nil, "\(tmux.screen())")
        try tmux.type("fg")
        try tmux.send("Enter")
        #expect(tmux.waitFor { Self.shows($0, "Burrow", "› Bread") } != nil, "\(tmux.screen())")
        try tmux.send("Enter")
        #expect(tmux.waitFor(text: " [ ] Bread") != nil, "\(tmux.screen())")
        try tmux.send("C-c")
        #expect(tmux.waitFor(text: "shell$") != nil, "\(tmux.screen())")
    }

    @Test func theStorySurvivesARelaunch() throws {
        let (tmux, db) = try start()
        try #require(tmux.waitFor(text: "a: add an item · ?: help") != nil)
        // Esc followed at once by another key reads as Alt and that key, as in every terminal program: wait
        // for each Esc to be taken before the next key.
        try tmux.send("a")
        try tmux.type("Groceries")
        try tmux.send("Enter", "Escape")
        try #require(tmux.waitFor { Self.shows($0, "+ Add to Burrow…", " [ ] Groceries") } != nil)
        try tmux.send("Enter")
        try #require(tmux.waitFor(text: "+ Add to Groceries…") != nil)
        try tmux.send("a")
        try tmux.type("Milk")
        try tmux.send("Enter")
        try tmux.type("Eggs")
        try tmux.send("Enter", "Escape")
        let inside = tmux.waitFor { $0.prefix(4) == ["Burrow › Groceries", "+ Add to Groceries…", " [ ] Milk", " [ ] Eggs"] }
        try #require(inside != nil, "\(tmux.screen())")
        try tmux.send("h")
        #expect(tmux.waitFor { $0.count > 2 && $0[2].hasSuffix("2 ›") } != nil)
        try tmux.send("d", "d")
        #expect(tmux.waitFor(text: "Deleted “Groceries” and 2 sub-items") != nil)
        try tmux.send("u")
        #expect(tmux.waitFor(text: "Undid: Delete “Groceries” and 2 sub-items") != nil)
        try tmux.send("C-r")
        #expect(tmux.waitFor(text: "Redid: Delete “Groceries” and 2 sub-items") != nil)
        try tmux.send("u", "q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
        #expect(try tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        // Relaunch: the same outline.
        try tmux.send("Enter")
        let again = try #require(tmux.waitFor { $0.count > 2 && $0[2].contains("Groceries") })
        #expect(again[2] == " [ ] Groceries" + String(repeating: " ", count: 42) + "2 ›")
        try tmux.send("Enter")
        #expect(tmux.waitFor { $0.prefix(4) == ["Burrow › Groceries", "+ Add to Groceries…", " [ ] Milk", " [ ] Eggs"] } != nil)
        #expect(try burrow(db, "ls", "Groceries").1 == "[ ] Milk\n[ ] Eggs\n")
        try tmux.send("q")
    }

    /// What another process adds appears with no key pressed. How soon is the benchmark's (`BurrowBenchmarks
    /// live`, p50 and p99 from the other process's save to the screen): a bound here would be a clock read
    /// on a machine busy with other tests.
    @Test func anotherProcessesChangeAppearsWithoutAKeyPress() throws {
        let (tmux, db) = try start()
        try #require(tmux.waitFor(text: "a: add an item") != nil)
        #expect(try burrow(db, "add", "Groceries").0 == 0)
        try #require(tmux.waitFor(text: "[ ] Groceries") != nil)
        try tmux.send("Enter")
        try #require(tmux.waitFor(text: "Add to Groceries…") != nil)
        // The outliner is open on Groceries; a script adds under it.
        #expect(try burrow(db, "add", "Milk", "--under", "Groceries").0 == 0)
        #expect(tmux.waitFor(text: "[ ] Milk") != nil)
        // The selection stays on its item when another process inserts above it.
        #expect(try burrow(db, "add", "Butter", "--under", "Groceries").0 == 0)
        try #require(tmux.waitFor(text: "[ ] Butter") != nil)
        try tmux.send("j")
        #expect(try burrow(db, "add", "Bread", "--under", "Groceries", "--top").0 == 0)
        let screen = try #require(tmux.waitFor(text: "[ ] Bread"))
        #expect(Array(screen[2...4]) == [" [ ] Bread", " [ ] Milk", " [ ] Butter"])
        try tmux.send("x")
        #expect(tmux.waitFor(text: "Deleted “Butter”") != nil)
        try tmux.send("q")
    }

    /// A key's frame goes to the terminal in one write. ncurses flushed its output after every cursor move until
    /// its screen had been given back and taken again once, so a frame arrived in five writes (the terminal drew
    /// it a piece at a time; over ssh, five packets). Counted from outside: the process's write calls
    /// (`/proc/PID/io`), while the selection goes down and up ten times.
    @Test func aKeysFrameGoesToTheTerminalInOneWrite() throws {
        // Three rows of a level of five: the status line says where the selection is.
        let (tmux, db) = try start(width: 60, height: 6)
        try #require(tmux.waitFor(text: "a: add an item") != nil)
        for title in ["One", "Two", "Three", "Four", "Five"] { #expect(try burrow(db, "add", title).0 == 0) }
        try #require(tmux.waitFor(text: "1/5") != nil, "\(tmux.screen())")
        let pid = try outlinerPID(tmux)
        try tmux.send("j")
        try #require(tmux.waitFor(text: "2/5") != nil, "\(tmux.screen())")
        let before = try Self.writeCalls(pid)
        for _ in 0..<5 {
            try tmux.send("j")
            try #require(tmux.waitFor(text: "3/5") != nil, "\(tmux.screen())")
            try tmux.send("k")
            try #require(tmux.waitFor(text: "2/5") != nil, "\(tmux.screen())")
        }
        let writes = try Self.writeCalls(pid) - before
        #expect(writes >= 10 && writes <= 12, "\(writes) write calls for 10 frames")
        try tmux.send("q")
    }

    /// How many write calls the process `pid` has made (`syscw` in `/proc/PID/io`).
    private static func writeCalls(_ pid: pid_t) throws -> Int {
        let io = try String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)
        let line = try #require(io.split(separator: "\n").first { $0.hasPrefix("syscw:") })
        return try #require(Int(line.dropFirst("syscw:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// The item is added while the outliner starts (both may be creating the database): neither may fail.
    @Test func resizingRedrawsAtOnce() throws {
        let (tmux, db) = try start(width: 60, height: 12)
        #expect(try burrow(db, "add", "A title long enough to be cut when the window gets narrow").0 == 0)
        try #require(tmux.waitFor(text: " [ ] A title long enough to be cut when the window gets nar…") != nil, "\(tmux.screen())")
        try tmux.resize(width: 30, height: 6)
        let small = try #require(tmux.waitFor { $0.count > 2 && $0[2] == " [ ] A title long enough to b…" })
        #expect(small.count == 6)
        try tmux.resize(width: 16, height: 4)
        #expect(tmux.waitFor(text: "Terminal too") != nil)
        try tmux.resize(width: 40, height: 8)
        #expect(tmux.waitFor { $0.count > 2 && $0[2] == " [ ] A title long enough to be cut when…" } != nil)
        try tmux.send("q")
    }

    @Test func sigtermRestoresTheTerminalAndLosesNothing() throws {
        try expectSignalRestoresTheTerminalAndLosesNothing(SIGTERM)
    }

    /// Every signal that ends a program by default ends the outliner the same way, the terminal restored first:
    /// USR1 and USR2 as a request to quit (the shell sees death by that signal); QUIT and ABRT at once, from
    /// the handler, dumping core as they would have.
    @Test(arguments: [SIGUSR1, SIGUSR2, SIGQUIT, SIGABRT])
    func aSignalRestoresTheTerminalAndLosesNothing(signal: Int32) throws {
        try expectSignalRestoresTheTerminalAndLosesNothing(signal)
    }

    /// SIGPIPE never ends the outliner (writes that fail say so instead): it goes on taking keys and saving.
    @Test func sigpipeNeitherEndsTheOutlinerNorLosesAnything() throws {
        let (tmux, db) = try start()
        try #require(tmux.waitFor(text: "a: add an item") != nil)
        kill(try outlinerPID(tmux), SIGPIPE)
        try tmux.send("a")
        try tmux.type("After the pipe")
        try tmux.send("Enter")
        #expect(tmux.waitFor(text: "Added “After the pipe”") != nil, "\(tmux.screen())")
        try tmux.send("Escape")
        try #require(tmux.waitFor(text: "+ Add to Burrow…") != nil)
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil, "\(tmux.screen())")
        #expect(try burrow(db, "ls").1 == "[ ] After the pipe\n")
    }

    /// Whether the screen has rows that begin with each of `rows` (a row ends with spaces and counts).
    private static func shows(_ screen: [String], _ rows: String...) -> Bool {
        rows.allSatisfy { row in screen.contains { $0.hasPrefix(row) } }
    }

    private func outlinerPID(_ tmux: Tmux) throws -> pid_t {
        let shell = try String(contentsOfFile: tmux.directory.appendingPathComponent("pid").path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (_, children, _) = try Binaries.runTool("/usr/bin/pgrep", ["-P", shell])
        return try #require(pid_t(children.split(separator: "\n").first ?? ""))
    }

    private func expectSignalRestoresTheTerminalAndLosesNothing(_ signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (tmux, db) = try start()
        try #require(tmux.waitFor(text: "a: add an item") != nil)
        try tmux.send("a")
        try tmux.type("Saved at once")
        try tmux.send("Enter")
        try #require(tmux.waitFor(text: "Added “Saved at once”") != nil)
        kill(try outlinerPID(tmux), signal)
        #expect(tmux.waitFor(text: "exit=\(128 + signal)") != nil, "\(tmux.screen())", sourceLocation: sourceLocation)
        #expect(
            try tmux.display("#{alternate_on} #{cursor_flag} #{keypad_flag} #{mouse_any_flag}") == "0 1 0 0",
            sourceLocation: sourceLocation)
        // The shell writes the modes after it prints the exit status.
        let sttyPath = tmux.directory.appendingPathComponent("stty.txt").path
        let modes =
            Poll.value(timeout: .seconds(5)) {
                (try? String(contentsOfFile: sttyPath, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
            } ?? ""
        let words = Set(modes.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        let missing = ["icanon", "echo", "ixon", "isig", "icrnl", "opost"].filter { !words.contains($0) }
        #expect(missing.isEmpty, "terminal modes not restored: \(missing)", sourceLocation: sourceLocation)
        #expect(try burrow(db, "ls").1 == "[ ] Saved at once\n", sourceLocation: sourceLocation)
        // The shell reads a line as usual: the terminal is cooked again.
        try tmux.type("typed")
        #expect(tmux.waitFor { $0.contains { $0.hasSuffix("typed") } } != nil, "no echo: \(tmux.screen())", sourceLocation: sourceLocation)
    }

    @Test func refusesATerminalThatCannotMoveTheCursor() throws {
        let tmux = try Tmux(
            width: 60, height: 12,
            shellCommand: """
                TERM=dumb BURROW_DB="$TEST_DIR/outline.sqlite" \(Binaries.path("burrow")); echo "exit=$?"; exec sleep infinity
                """)
        let screen = try #require(tmux.waitFor(text: "exit="))
        #expect(screen.joined().contains("burrow: terminal type “dumb” cannot move the cursor"), "\(screen)")
        #expect(screen.contains("exit=1"))
    }

    @Test func refusesWithoutATerminalAndOnABadDatabase() throws {
        let dir = TemporaryDirectory("burrow-e2e")
        defer { withExtendedLifetime(dir) {} }
        let db = dir.path()
        let (status, out, err) = try Binaries.run("burrow", ["--db", db])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err.contains("must be a terminal"))
        let junk = dir.path("junk.sqlite")
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: junk))
        let (status2, _, err2) = try Binaries.run("burrow", ["--db", junk])
        #expect(status2 == 1)
        #expect(err2.hasPrefix("burrow: "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: junk)) == Data("not a database at all".utf8))
    }
}
