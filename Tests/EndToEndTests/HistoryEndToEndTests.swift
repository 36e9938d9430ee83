import Foundation
import TestSupport
import Testing

/// The shared, persistent undo history (issue 16) in the real `burrow` in tmux: actions survive `q` and
/// SIGKILL and are undone by the next outliner; a command's action is undone in an open outliner, which
/// goes to its level and says who made it; hostile names and damaged history rows never reach the terminal
/// raw or crash it.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct HistoryEndToEndTests {
    /// A pane of 60×12 running a shell that waits for a line, then runs the outliner on `db` (default
    /// `$TEST_DIR/outline.sqlite`), prints its exit status when it ends and runs it again after the next line.
    private func start(db: String? = nil, width: Int = 60) throws -> (Tmux, String) {
        let tmux = try Tmux(
            width: width, height: 12,
            shellCommand: """
                export BURROW_DB="${DB:-$TEST_DIR/outline.sqlite}" BURROW_LOG="$TEST_DIR/burrow.log"
                echo $$ > "$TEST_DIR/pid"
                ulimit -c 0
                read go
                while :; do \(Binaries.path("burrow")); echo "exit=$?"; stty sane; read line; done
                """,
            environment: db.map { ["DB": $0] } ?? [:])
        return (tmux, db ?? tmux.directory.appendingPathComponent("outline.sqlite").path)
    }

    /// Starts the outliner and waits until it has drawn its first screen (keys sent before it reads the
    /// terminal would be lost).
    private func launch(_ tmux: Tmux, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let exits = tmux.screen().filter { $0.hasPrefix("exit=") }.count
        try tmux.send("Enter")
        let drawn = tmux.waitFor { s in
            s.count > 2 && s[0].hasPrefix("Burrow") && s[1].hasPrefix("+ Add to ") && s.last?.hasSuffix("?: help") == true
                && s.filter { $0.hasPrefix("exit=") }.count <= exits
        }
        try #require(drawn != nil, "\(tmux.screen())", sourceLocation: sourceLocation)
    }

    /// Quits with `q` and waits for the `n`th clean exit line.
    private func quit(_ tmux: Tmux, exits n: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.send("q")
        let exited = tmux.waitFor { $0.filter { $0 == "exit=0" }.count == n }
        #expect(exited != nil, "\(tmux.screen())", sourceLocation: sourceLocation)
    }

    /// `burrow ARGUMENTS --db DB` as another process: (status, stdout + stderr).
    @discardableResult
    private func burrow(_ db: String, _ arguments: String...) throws -> (Int32, String) {
        let (status, out, err) = try Binaries.run("burrow", arguments + ["--db", db])
        return (status, out + err)
    }

    /// A row of a pane `width` cells wide: the indented box and title, then the count at the right edge.
    private static func row(_ title: String, depth: Int = 0, count: String = "", width: Int = 60) -> String {
        let left = String(repeating: " ", count: depth * 2) + " [ ] " + title
        guard !count.isEmpty else { return left }
        return left + String(repeating: " ", count: width - 1 - left.count - count.count) + count
    }

    /// Waits until the rows after the breadcrumbs and capture line are `rows` (then blank ones).
    private static func waitForRows(_ tmux: Tmux, _ rows: [String], timeout: Duration = .seconds(15)) -> Bool {
        tmux.waitFor(timeout: timeout) { s in
            s.count >= rows.count + 2 && Array(s[2..<(rows.count + 2)]) == rows
                && s.dropFirst(rows.count + 2).dropLast().allSatisfy { $0.isEmpty }
        } != nil
    }

    /// Waits until the status line (the last row) begins with `prefix`; returns it.
    @discardableResult
    private static func waitForStatus(_ tmux: Tmux, _ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let screen = tmux.waitFor { $0.last?.hasPrefix(prefix) == true }
        #expect(screen != nil, "status “\(prefix)…” never came: \(tmux.screen())", sourceLocation: sourceLocation)
        return screen?.last
    }

    private func outlinerPID(_ tmux: Tmux) throws -> pid_t {
        let shell = try String(contentsOfFile: tmux.directory.appendingPathComponent("pid").path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = Poll.value(timeout: .seconds(10)) { () -> pid_t? in
            guard let (_, children, _) = try? Binaries.runTool("/usr/bin/pgrep", ["-P", shell]) else { return nil }
            return pid_t(children.split(separator: "\n").first ?? "")
        }
        return try #require(pid)
    }

    /// Each line of `burrow history`'s output by its second column (the action's name, "undone: " before it when
    /// undone). A function: the same chain inline in `#expect` took over a second and a half to type-check.
    private static func actionNames(_ output: String) -> [String] {
        output.split(separator: "\n").map { (line: Substring) -> String in
            line.split(separator: "  ").dropFirst().first.map(String.init) ?? ""
        }
    }

    /// The list rows drawn in reverse video (the selection), as text.
    private static func selectedRows(_ tmux: Tmux) -> [String] {
        guard let text = try? tmux.run(["capture-pane", "-p", "-e", "-t", "t"]) else { return [] }
        var rows: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(tmux.height - 1) {
            // Reverse video is SGR 7; the plain text is what is left without the escape sequences.
            guard line.contains("\u{1B}[7m") || line.contains(";7m") || line.contains("[7;") else { continue }
            var plain = ""
            var scalars = line.unicodeScalars.makeIterator()
            while let s = scalars.next() {
                guard s == "\u{1B}" else {
                    plain.unicodeScalars.append(s)
                    continue
                }
                while let p = scalars.next(), !(p.value >= 0x40 && p.value <= 0x7E && p != "[") {}
            }
            while plain.last == " " { plain.removeLast() }
            rows.append(plain)
        }
        return rows
    }

    /// Adds `titles` through quick capture (`a`, then each title and Enter, then Esc).
    private func capture(_ tmux: Tmux, _ titles: String...) throws {
        try tmux.send("a")
        for t in titles {
            try tmux.type(t)
            try tmux.send("Enter")
            #expect(tmux.waitFor(text: " [ ] \(t)") != nil, "\(tmux.screen())")
        }
        try tmux.send("Escape")
        // Keys sent before the Escape is read alone would make it Alt-something.
        let closed = tmux.waitFor { $0.count > 2 && $0[1].hasPrefix("+ Add to ") && $0.last?.hasSuffix("?: help") == true }
        #expect(closed != nil, "\(tmux.screen())")
    }

    // MARK: Across a relaunch

    @Test func undoAfterQuittingAndRelaunchingUndoesTheDelete() throws {
        let (tmux, db) = try start()
        try launch(tmux)
        try capture(tmux, "Alpha", "Beta")
        try #require(Self.waitForRows(tmux, [Self.row("Alpha"), Self.row("Beta")]), "\(tmux.screen())")
        try tmux.send("G", "d", "d")
        try #require(Self.waitForRows(tmux, [Self.row("Alpha")]), "\(tmux.screen())")
        try quit(tmux)
        #expect(try burrow(db, "ls").1 == "[ ] Alpha\n")

        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("Alpha")]), "\(tmux.screen())")
        try tmux.send("u")
        #expect(Self.waitForRows(tmux, [Self.row("Alpha"), Self.row("Beta")]), "\(tmux.screen())")
        Self.waitForStatus(tmux, "Undid: Delete “Beta”")
        #expect(Poll.until { Self.selectedRows(tmux) == [Self.row("Beta")] }, "\(Self.selectedRows(tmux))")
        try tmux.send("u")
        #expect(Self.waitForRows(tmux, [Self.row("Alpha")]), "\(tmux.screen())")
        Self.waitForStatus(tmux, "Undid: Add “Beta”")
        // Redo comes back in order, and the history every process shares says so.
        try tmux.send("C-r")
        Self.waitForStatus(tmux, "Redid: Add “Beta”")
        #expect(Self.waitForRows(tmux, [Self.row("Alpha"), Self.row("Beta")]), "\(tmux.screen())")
        let history = try burrow(db, "history")
        #expect(history.0 == 0)
        #expect(
            Self.actionNames(history.1) == [
                "undone: Delete “Beta”", "Add “Beta”", "Add “Alpha”"
            ], "\(history.1)")
        try quit(tmux, exits: 2)
    }

    @Test func anActionSurvivesSIGKILLAndIsUndoneByTheNextOutliner() throws {
        let (tmux, db) = try start()
        try launch(tmux)
        try capture(tmux, "Gamma")
        try #require(Self.waitForRows(tmux, [Self.row("Gamma")]), "\(tmux.screen())")
        try tmux.send("e")
        try tmux.send("C-u")
        try tmux.type("Delta")
        try tmux.send("Enter")
        try #require(Self.waitForRows(tmux, [Self.row("Delta")]), "\(tmux.screen())")
        kill(try outlinerPID(tmux), SIGKILL)
        try #require(tmux.waitFor(text: "exit=137") != nil, "\(tmux.screen())")
        #expect(try burrow(db, "check").0 == 0)

        try launch(tmux)
        try #require(
            tmux.waitFor { $0.count > 3 && $0[2] == Self.row("Delta") && !$0.joined().contains("exit=137") } != nil, "\(tmux.screen())")
        try tmux.send("u")
        #expect(Self.waitForRows(tmux, [Self.row("Gamma")]), "\(tmux.screen())")
        Self.waitForStatus(tmux, "Undid: Rename")
        try tmux.send("u")
        Self.waitForStatus(tmux, "Undid: Add “Gamma”")
        #expect(!tmux.screen().joined().contains("[ ]"), "\(tmux.screen())")
        #expect(try burrow(db, "ls").1 == "(no items under the top level)\n")
        try quit(tmux)
    }

    /// `[history] actions = 2` in the config file bounds what the outliner keeps too.
    @Test func theOutlinerKeepsToTheConfiguredLimit() throws {
        let (tmux, db) = try start()
        let config = tmux.directory.appendingPathComponent("config/burrow")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[history]\nactions = 2\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        try launch(tmux)
        try capture(tmux, "One", "Two", "Three", "Four")
        let history = try burrow(db, "history")
        #expect(
            Self.actionNames(history.1) == [
                "Add “Four”", "Add “Three”"
            ], "\(history.1)")
        try tmux.send("u", "u", "u")
        Self.waitForStatus(tmux, "Nothing to undo")
        #expect(Self.waitForRows(tmux, [Self.row("One"), Self.row("Two")]), "\(tmux.screen())")
        try quit(tmux)
    }

    // MARK: Another process's action

    @Test func aCommandsDeleteIsUndoneInTheOutlinerAtItsPlace() throws {
        let (tmux, db) = try start(width: 80)
        #expect(try burrow(db, "add", "Groceries", "Work").0 == 0)
        #expect(try burrow(db, "add", "Milk", "Eggs", "Bread", "--under", "Groceries").0 == 0)
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("Groceries", count: "3 ›", width: 80), Self.row("Work")]), "\(tmux.screen())")
        try tmux.send("G")
        try #require(Poll.until { Self.selectedRows(tmux) == [Self.row("Work")] }, "\(Self.selectedRows(tmux))")

        #expect(try burrow(db, "rm", "Groceries/Eggs").0 == 0)
        #expect(Self.waitForRows(tmux, [Self.row("Groceries", count: "2 ›", width: 80), Self.row("Work")]), "\(tmux.screen())")
        try tmux.send("u")
        // The outliner goes into Groceries, with Eggs back and selected.
        #expect(Self.waitForRows(tmux, [Self.row("Milk"), Self.row("Eggs"), Self.row("Bread")]), "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [Self.row("Eggs")] }, "\(Self.selectedRows(tmux))")
        Self.waitForStatus(tmux, "Undid: Delete “Eggs” (command line, just now, in Burrow › Groceries)")
        #expect(tmux.screen().first == "Burrow › Groceries")
        #expect(try burrow(db, "ls", "Groceries").1 == "[ ] Milk\n[ ] Eggs\n[ ] Bread\n")

        // And the command line redoes what the outliner undid.
        let redo = try burrow(db, "redo")
        #expect(redo.0 == 0)
        #expect(redo.1.hasPrefix("Redid: Delete “Eggs” (command line, just now, in "), "\(redo.1)")
        #expect(Self.waitForRows(tmux, [Self.row("Milk"), Self.row("Bread")]), "\(tmux.screen())")
        try quit(tmux)
    }

    /// `burrow mv` from another process, undone in the outliner: the item is back in its old level, which
    /// the outliner shows with the item selected.
    @Test func undoingACommandsMoveShowsTheItemWhereItIsBack() throws {
        let (tmux, db) = try start(width: 80)
        #expect(try burrow(db, "add", "Groceries", "Work").0 == 0)
        #expect(try burrow(db, "add", "Milk", "Eggs", "Bread", "--under", "Groceries").0 == 0)
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("Groceries", count: "3 ›", width: 80), Self.row("Work")]), "\(tmux.screen())")
        #expect(try burrow(db, "mv", "Groceries/Eggs", "--to", "Work").0 == 0)
        let moved = [Self.row("Groceries", count: "2 ›", width: 80), Self.row("Work", count: "1 ›", width: 80)]
        try #require(Self.waitForRows(tmux, moved), "\(tmux.screen())")
        try tmux.send("u")
        Self.waitForStatus(tmux, "Undid: Move “Eggs” (command line, just now, in Burrow › ")
        #expect(try burrow(db, "ls", "Groceries").1 == "[ ] Milk\n[ ] Eggs\n[ ] Bread\n")
        #expect(tmux.screen().first == "Burrow › Groceries", "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [Self.row("Eggs")] }, "\(Self.selectedRows(tmux))")
        try quit(tmux)
    }

    // MARK: Hostile bytes

    /// An action whose name and origin carry escape sequences (a title, and a row written by another
    /// program): the outliner's status line and `burrow history` and `burrow undo` to a terminal show them
    /// as visible stand-ins, and the pane's title never changes.
    @Test func hostileNamesAndOriginsNeverReachTheTerminalRaw() throws {
        let (tmux, db) = try start(width: 80)
        let hostile = "\u{1B}]2;pwned\u{07}\u{1B}[2JX"
        #expect(try burrow(db, "add", "Safe").0 == 0)
        #expect(try burrow(db, "add", hostile).0 == 0)
        let sql = "UPDATE og_history SET origin = char(27) || ']2;owned' || char(7) || 'tool' WHERE seq = (SELECT max(seq) FROM og_history)"
        let (status, _, err) = try Binaries.runTool("/usr/bin/sqlite3", [db, sql])
        try #require(status == 0, "\(err)")
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("Safe"), Self.row("^[]2;pwned^G^[[2JX")]), "\(tmux.screen())")
        try tmux.send("u")
        #expect(Self.waitForRows(tmux, [Self.row("Safe")]), "\(tmux.screen())")
        let line = Self.waitForStatus(tmux, "Undid: Add “^[]2;pwned^G^[[2JX” (^[]2;owned^Gtool, just now")
        #expect(line != nil, "\(tmux.screen())")
        #expect(try tmux.display("#{pane_title}") != "pwned")
        #expect(try tmux.display("#{pane_title}") != "owned")
        try quit(tmux)

        // The same from commands printing to the terminal: a pane of their own is the terminal.
        let burrow = Binaries.path("burrow")
        let commands = try Tmux(
            width: 100, height: 12,
            shellCommand: "\(burrow) history --db \(Tmux.quote(db)); \(burrow) redo --db \(Tmux.quote(db)); exec sleep infinity")
        #expect(commands.waitFor(text: "Redid: Add") != nil, "\(commands.screen())")
        let shown = commands.screen().joined(separator: "\n")
        #expect(shown.contains("undone: Add “^[]2;pwned^G^[[2JX”  (^[]2;owned^Gtool, just now, in Burrow)"), "\(shown)")
        #expect(shown.contains("Redid: Add “^[]2;pwned^G^[[2JX” (^[]2;owned^Gtool, just now, in Burrow)"), "\(shown)")
        #expect(try commands.display("#{pane_title}") != "pwned")
        #expect(try commands.display("#{pane_title}") != "owned")
    }

    /// A damaged step under an open outliner: `u` reports and skips it (the outliner keeps running) and
    /// the next `u` undoes the action before it.
    @Test func aDamagedStepIsSkippedByTheOutliner() throws {
        let (tmux, db) = try start()
        #expect(try burrow(db, "add", "A").0 == 0)
        #expect(try burrow(db, "add", "B").0 == 0)
        let sql = "UPDATE og_history SET step = substr(step, 1, 5) WHERE seq = (SELECT max(seq) FROM og_history)"
        let (status, _, err) = try Binaries.runTool("/usr/bin/sqlite3", [db, sql])
        try #require(status == 0, "\(err)")
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("A"), Self.row("B")]), "\(tmux.screen())")
        try tmux.send("u")
        Self.waitForStatus(tmux, "Skipped: cannot undo “Add “B””")
        #expect(Self.waitForRows(tmux, [Self.row("A"), Self.row("B")]), "\(tmux.screen())")
        try tmux.send("u")
        Self.waitForStatus(tmux, "Undid: Add “A”")
        #expect(Self.waitForRows(tmux, [Self.row("B")]), "\(tmux.screen())")
        try quit(tmux)
    }
}
