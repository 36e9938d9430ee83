import Foundation
import TestSupport
import Testing

/// Folds, hide-done and the visual range in the real `burrow` in tmux, while other `burrow` processes change
/// the outline under it: what they do arrives on screen, the selection stays on its item, folds persist and
/// travel between outliners, a big outline opens and closes whole, and SIGKILL loses nothing.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct FoldEndToEndTests {
    /// Starts a shell in tmux that waits for a line (so the test can write the database first; `launch`
    /// sends it) and then runs the outliner on `db` (default `$TEST_DIR/outline.sqlite`), printing its exit
    /// status when it ends and running it again after the next line. The pane is 60×12, as `row` and
    /// `status` draw.
    private func start(db: String? = nil) throws -> (Tmux, String) {
        let tmux = try Tmux(
            width: 60, height: 12,
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

    /// Starts the outliner in a pane `start` made.
    private func launch(_ tmux: Tmux) throws {
        try tmux.send("Enter")
    }

    /// Quits with `q` and waits for the `n`th clean exit the pane has shown (after a relaunch the earlier
    /// exit lines are still on the normal screen).
    private func quit(_ tmux: Tmux, exits n: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.send("q")
        let exited = tmux.waitFor { $0.filter { $0 == "exit=0" }.count == n }
        #expect(exited != nil, "\(tmux.screen())", sourceLocation: sourceLocation)
    }

    /// Runs `burrow ARGUMENTS --db DB` as another process: (status, stdout + stderr).
    @discardableResult
    private func burrow(_ db: String, _ arguments: String...) throws -> (Int32, String) {
        let (status, out, err) = try Binaries.run("burrow", arguments + ["--db", db])
        return (status, out + err)
    }

    /// Groceries (Milk, Eggs), Work (Plan), written by other processes.
    private func seedGroceries(_ db: String) throws {
        #expect(try burrow(db, "add", "Groceries", "Work").0 == 0)
        #expect(try burrow(db, "add", "Milk", "Eggs", "--under", "Groceries").0 == 0)
        #expect(try burrow(db, "add", "Plan", "--under", "Work").0 == 0)
    }

    /// A row of a 60-cell pane: the indented box and title, then the count and its mark at the right edge.
    private static func row(_ title: String, depth: Int = 0, done: Bool = false, count: String = "") -> String {
        let left = String(repeating: " ", count: depth * 2) + (done ? " [x] " : " [ ] ") + title
        guard !count.isEmpty else { return left }
        return left + String(repeating: " ", count: 59 - left.count - count.count) + count
    }

    /// The status line of a 60-cell pane: `left` at the start, `right` at the end.
    private static func status(_ left: String, _ right: String = "?: help") -> String {
        left + String(repeating: " ", count: 60 - left.count - right.count) + right
    }

    /// Waits until the pane's rows after the breadcrumbs and capture line begin with `rows`.
    private static func waitForRows(_ tmux: Tmux, _ rows: [String], timeout: Duration = .seconds(15)) -> Bool {
        tmux.waitFor(timeout: timeout) { $0.count >= rows.count + 2 && Array($0[2..<(rows.count + 2)]) == rows } != nil
    }

    // MARK: Folds live from other processes

    @Test func anOpenListTakesOtherProcessesChangesAndKeepsTheSelection() throws {
        let (tmux, db) = try start()
        try seedGroceries(db)
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("Groceries", count: "2 ›"), Self.row("Work", count: "1 ›")]), "\(tmux.screen())")
        try tmux.send("z", "o")
        let open = [Self.row("Groceries", count: "2 ▾"), Self.row("Milk", depth: 1), Self.row("Eggs", depth: 1), Self.row("Work", count: "1 ›")]
        try #require(Self.waitForRows(tmux, open), "\(tmux.screen())")
        try tmux.send("j", "j")
        try #require(Poll.until { Self.selectedRows(tmux) == [Self.row("Eggs", depth: 1)] }, "\(Self.selectedRows(tmux))")

        // Added above the selection: the row appears in the open list and the selection stays on Eggs.
        #expect(try burrow(db, "add", "Bread", "--under", "Groceries", "--top").0 == 0)
        let added = [
            Self.row("Groceries", count: "3 ▾"), Self.row("Bread", depth: 1), Self.row("Milk", depth: 1), Self.row("Eggs", depth: 1),
            Self.row("Work", count: "1 ›")
        ]
        #expect(Self.waitForRows(tmux, added), "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [Self.row("Eggs", depth: 1)])

        #expect(try burrow(db, "rm", "Groceries/Milk").0 == 0)
        let removed = [Self.row("Groceries", count: "2 ▾"), Self.row("Bread", depth: 1), Self.row("Eggs", depth: 1), Self.row("Work", count: "1 ›")]
        #expect(Self.waitForRows(tmux, removed), "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [Self.row("Eggs", depth: 1)])

        #expect(try burrow(db, "done", "Groceries/Eggs").0 == 0)
        let done = [
            Self.row("Groceries", count: "2 ▾"), Self.row("Bread", depth: 1), Self.row("Eggs", depth: 1, done: true), Self.row("Work", count: "1 ›")
        ]
        #expect(Self.waitForRows(tmux, done), "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [Self.row("Eggs", depth: 1, done: true)])

        // A title made to take over the terminal arrives as visible text: the rows stay in their places and
        // the pane's title is not set.
        #expect(try burrow(db, "add", "\u{1B}[2J\u{1B}]2;pwned\u{07}Soap", "--under", "Groceries").0 == 0)
        let hostile = [
            Self.row("Groceries", count: "3 ▾"), Self.row("Bread", depth: 1), Self.row("Eggs", depth: 1, done: true),
            Self.row("^[[2J^[]2;pwned^GSoap", depth: 1), Self.row("Work", count: "1 ›")
        ]
        #expect(Self.waitForRows(tmux, hostile), "\(tmux.screen())")
        #expect(try tmux.display("#{pane_title}") != "pwned")

        // The selected item is deleted elsewhere: the selection goes to the row that took its place.
        #expect(try burrow(db, "rm", "Groceries/Eggs").0 == 0)
        let gone = [
            Self.row("Groceries", count: "2 ▾"), Self.row("Bread", depth: 1), Self.row("^[[2J^[]2;pwned^GSoap", depth: 1),
            Self.row("Work", count: "1 ›")
        ]
        #expect(Self.waitForRows(tmux, gone), "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [Self.row("^[[2J^[]2;pwned^GSoap", depth: 1)] }, "\(Self.selectedRows(tmux))")

        // The open item itself is deleted elsewhere: its rows go with it.
        #expect(try burrow(db, "rm", "Groceries").0 == 0)
        #expect(Self.waitForRows(tmux, [Self.row("Work", count: "1 ›"), ""]), "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [Self.row("Work", count: "1 ›")] }, "\(Self.selectedRows(tmux))")
        try quit(tmux)
    }

    // MARK: Folds persist and travel

    @Test func foldsPersistAcrossARelaunchAndReachAnotherOutliner() throws {
        let (first, db) = try start()
        try seedGroceries(db)
        try launch(first)
        try #require(Self.waitForRows(first, [Self.row("Groceries", count: "2 ›")]), "\(first.screen())")
        try first.send("z", "o")
        let open = [Self.row("Groceries", count: "2 ▾"), Self.row("Milk", depth: 1), Self.row("Eggs", depth: 1), Self.row("Work", count: "1 ›")]
        try #require(Self.waitForRows(first, open), "\(first.screen())")
        try quit(first)
        try launch(first)
        #expect(Self.waitForRows(first, open), "after a relaunch: \(first.screen())")

        // A second outliner on the same database starts with Groceries open, and each sees the other's folds.
        let (second, _) = try start(db: db)
        try launch(second)
        #expect(Self.waitForRows(second, open), "\(second.screen())")
        try first.send("G")
        try #require(Poll.until { Self.selectedRows(first) == [Self.row("Work", count: "1 ›")] }, "\(Self.selectedRows(first))")
        try first.send("z", "o")
        let both = open.dropLast() + [Self.row("Work", count: "1 ▾"), Self.row("Plan", depth: 1)]
        #expect(Self.waitForRows(second, Array(both)), "the fold arrives live: \(second.screen())")
        try second.send("z", "c")
        let closed = [Self.row("Groceries", count: "2 ›"), Self.row("Work", count: "1 ▾"), Self.row("Plan", depth: 1), ""]
        #expect(Self.waitForRows(first, closed), "and back: \(first.screen())")
        #expect(Poll.until { Self.selectedRows(first) == [Self.row("Work", count: "1 ▾")] }, "\(Self.selectedRows(first))")
        try quit(first, exits: 2)
        try quit(second)
    }

    // MARK: A big outline

    /// 60 items, each with 10 sub-items, each with 5: 3,660 items, 660 of them with sub-items.
    private static let big: (text: String, tree: String) = {
        var text = ""
        var tree = ""
        for i in 1...60 {
            text += "t\(i)\n"
            tree += "[ ] t\(i) (10)\n"
            for j in 1...10 {
                text += "\tt\(i).\(j)\n"
                tree += "  [ ] t\(i).\(j) (5)\n"
                for k in 1...5 {
                    text += "\t\tt\(i).\(j).\(k)\n"
                    tree += "    [ ] t\(i).\(j).\(k)\n"
                }
            }
        }
        return (text, tree)
    }()

    /// Imports `big` with `burrow import` as another process.
    private func importBig(_ db: String, into folder: URL) throws {
        let file = folder.appendingPathComponent("big.txt")
        try Self.big.text.write(to: file, atomically: true, encoding: .utf8)
        let (status, output) = try burrow(db, "import", file.path)
        try #require(status == 0, "\(output)")
        try #require(output.contains("Imported 3660 items"), "\(output)")
    }

    @Test func zROpensABigOutlineWholeAndZMClosesIt() throws {
        let (tmux, db) = try start()
        try importBig(db, into: tmux.directory)
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("t1", count: "10 ›"), Self.row("t2", count: "10 ›")]), "\(tmux.screen())")
        try tmux.send("z", "R")
        try #require(tmux.waitFor { $0.last?.hasPrefix("Opened 660 items") == true } != nil, "\(tmux.screen())")
        try tmux.send("G")
        let end = [
            "Burrow",
            "+ Add to Burrow…",
            Self.row("t60.9.3", depth: 2), Self.row("t60.9.4", depth: 2), Self.row("t60.9.5", depth: 2),
            Self.row("t60.10", depth: 1, count: "5 ▾"),
            Self.row("t60.10.1", depth: 2), Self.row("t60.10.2", depth: 2), Self.row("t60.10.3", depth: 2), Self.row("t60.10.4", depth: 2),
            Self.row("t60.10.5", depth: 2),
            Self.status("", "3660/3660 · ?: help")
        ]
        #expect(tmux.waitFor { $0 == end } != nil, "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [Self.row("t60.10.5", depth: 2)])

        // A list far above grows elsewhere, then the last row is deleted elsewhere: the end follows.
        #expect(try burrow(db, "add", "new", "--under", "t1/t1.1").0 == 0)
        #expect(try burrow(db, "rm", "t60/t60.10/t60.10.5").0 == 0)
        let after = [
            Self.row("t60.9.2", depth: 2), Self.row("t60.9.3", depth: 2), Self.row("t60.9.4", depth: 2), Self.row("t60.9.5", depth: 2),
            Self.row("t60.10", depth: 1, count: "4 ▾"),
            Self.row("t60.10.1", depth: 2), Self.row("t60.10.2", depth: 2), Self.row("t60.10.3", depth: 2), Self.row("t60.10.4", depth: 2)
        ]
        let shifted = try #require(tmux.waitFor { Array($0.dropFirst(2).prefix(9)) == after }, "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [Self.row("t60.10.4", depth: 2)])
        // The open list far above, off screen, grew: the count takes it in at once, and the status line says an
        // item arrived above the rows shown (until `g` below scrolls up to it).
        _ = shifted
        #expect(tmux.waitFor { $0.last == Self.status("", "1 new above · 3660/3660 · ?: help") } != nil, "\(tmux.screen())")

        // A terminal too small, and back: still the same place.
        try tmux.resize(width: 20, height: 4)
        #expect(tmux.waitFor(text: "Terminal too") != nil, "\(tmux.screen())")
        try tmux.resize(width: 60, height: 12)
        #expect(tmux.waitFor { Array($0.dropFirst(2).prefix(9)) == after } != nil, "\(tmux.screen())")

        // Back at the top the grown list is read again; from then on the count is right.
        try tmux.send("g")
        let top =
            ["Burrow", "+ Add to Burrow…", Self.row("t1", count: "10 ▾"), Self.row("t1.1", depth: 1, count: "6 ▾")]
            + (1...5).map { Self.row("t1.1.\($0)", depth: 2) }
            + [Self.row("new", depth: 2), Self.row("t1.2", depth: 1, count: "5 ▾"), Self.status("", "1/3660 · ?: help")]
        #expect(tmux.waitFor { $0 == top } != nil, "\(tmux.screen())")
        try tmux.send("G")
        let bottom = ["Burrow", "+ Add to Burrow…"] + after + [Self.status("", "3660/3660 · ?: help")]
        #expect(tmux.waitFor { $0 == bottom } != nil, "\(tmux.screen())")

        try tmux.send("z", "M")
        let closed =
            [
                "Burrow",
                "+ Add to Burrow…"
            ] + (52...60).map { Self.row("t\($0)", count: "10 ›") } + [Self.status("Closed 660 items", "60/60 · ?: help")]
        #expect(tmux.waitFor { $0 == closed } != nil, "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [Self.row("t60", count: "10 ›")])
        try quit(tmux)
    }

    // MARK: Hiding done items

    @Test func hiddenDoneItemsLeaveLiveAndComeBack() throws {
        let (tmux, db) = try start()
        try seedGroceries(db)
        #expect(try burrow(db, "done", "Groceries/Milk").0 == 0)
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("Groceries", count: "2 ›")]), "\(tmux.screen())")
        try tmux.send("z", "o")
        let all = [
            Self.row("Groceries", count: "2 ▾"), Self.row("Milk", depth: 1, done: true), Self.row("Eggs", depth: 1), Self.row("Work", count: "1 ›")
        ]
        try #require(Self.waitForRows(tmux, all), "\(tmux.screen())")
        try tmux.send("j", "j")
        try #require(Poll.until { Self.selectedRows(tmux) == [Self.row("Eggs", depth: 1)] }, "\(Self.selectedRows(tmux))")
        try tmux.send("H")
        let hidden = [Self.row("Groceries", count: "2 ▾"), Self.row("Eggs", depth: 1), Self.row("Work", count: "1 ›"), ""]
        #expect(Self.waitForRows(tmux, hidden), "\(tmux.screen())")
        #expect(tmux.waitFor { $0.last == Self.status("Done items hidden · H: show them", "1 done hidden · ?: help") } != nil, "\(tmux.screen())")
        // The level is made again without the done items, with the selection still on Eggs.
        #expect(Poll.until { Self.selectedRows(tmux) == [Self.row("Eggs", depth: 1)] }, "\(Self.selectedRows(tmux))")
        // Wherever it went, the selection is put on Eggs for what follows.
        try tmux.send("g", "j")
        try #require(Poll.until { Self.selectedRows(tmux) == [Self.row("Eggs", depth: 1)] }, "\(Self.selectedRows(tmux))")

        // Eggs, selected, is marked done elsewhere: it goes at once and the selection takes the next row.
        #expect(try burrow(db, "done", "Groceries/Eggs").0 == 0)
        #expect(Self.waitForRows(tmux, [Self.row("Groceries", count: "2 ▾"), Self.row("Work", count: "1 ›"), ""]), "\(tmux.screen())")
        #expect(tmux.waitFor { $0.last?.hasSuffix("2 done hidden · ?: help") == true } != nil, "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [Self.row("Work", count: "1 ›")] }, "\(Self.selectedRows(tmux))")

        // Not done again elsewhere: it comes back.
        #expect(try burrow(db, "done", "--undo", "Groceries/Milk").0 == 0)
        let back = [Self.row("Groceries", count: "2 ▾"), Self.row("Milk", depth: 1), Self.row("Work", count: "1 ›"), ""]
        #expect(Self.waitForRows(tmux, back), "\(tmux.screen())")
        #expect(tmux.waitFor { $0.last?.hasSuffix("1 done hidden · ?: help") == true } != nil, "\(tmux.screen())")

        // The choice is stored with the outline: a relaunch still hides them, and H shows them again.
        try quit(tmux)
        try launch(tmux)
        #expect(Self.waitForRows(tmux, back), "after a relaunch: \(tmux.screen())")
        try tmux.send("H")
        let shown = [
            Self.row("Groceries", count: "2 ▾"), Self.row("Milk", depth: 1), Self.row("Eggs", depth: 1, done: true), Self.row("Work", count: "1 ›")
        ]
        #expect(Self.waitForRows(tmux, shown), "\(tmux.screen())")
        #expect(tmux.waitFor { $0.last == Self.status("Done items shown") } != nil, "\(tmux.screen())")
        try quit(tmux, exits: 2)
    }

    // MARK: The visual range

    @Test func aRangeIsDeletedAsOneActionAndUndoneAsOne() throws {
        let (tmux, db) = try start()
        #expect(try burrow(db, "add", "A", "B", "C", "D").0 == 0)
        #expect(try burrow(db, "add", "B1", "B2", "--under", "B").0 == 0)
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("A"), Self.row("B", count: "2 ›"), Self.row("C"), Self.row("D")]), "\(tmux.screen())")
        try tmux.send("j", "v", "j")
        try #require(tmux.waitFor { $0.last == Self.status("", "2 rows · Esc: leave") } != nil, "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [Self.row("B", count: "2 ›"), Self.row("C")])

        // While the range is open another process adds under B: the delete counts what is stored then.
        #expect(try burrow(db, "add", "B3", "--under", "B").0 == 0)
        #expect(Self.waitForRows(tmux, [Self.row("A"), Self.row("B", count: "3 ›"), Self.row("C"), Self.row("D")]), "\(tmux.screen())")
        try tmux.send("d")
        #expect(Self.waitForRows(tmux, [Self.row("A"), Self.row("D"), ""]), "\(tmux.screen())")
        #expect(tmux.waitFor { $0.last == Self.status("Deleted “B” and “C” (5 items) · u: undo") } != nil, "\(tmux.screen())")
        #expect(try burrow(db, "ls", "--tree").1 == "[ ] A\n[ ] D\n")

        let whole = "[ ] A\n[ ] B (3)\n  [ ] B1\n  [ ] B2\n  [ ] B3\n[ ] C\n[ ] D\n"
        try tmux.send("u")
        #expect(Self.waitForRows(tmux, [Self.row("A"), Self.row("B", count: "3 ›"), Self.row("C"), Self.row("D")]), "\(tmux.screen())")
        #expect(tmux.waitFor { $0.last?.hasPrefix("Undid: Delete “B” and “C” (5 items)") == true } != nil, "\(tmux.screen())")
        #expect(try burrow(db, "ls", "--tree").1 == whole)

        // Redo and undo again: still one step each.
        try tmux.send("C-r")
        #expect(tmux.waitFor { $0.last?.hasPrefix("Redid: Delete “B” and “C” (5 items)") == true } != nil, "\(tmux.screen())")
        #expect(try burrow(db, "ls", "--tree").1 == "[ ] A\n[ ] D\n")
        try tmux.send("u")
        #expect(tmux.waitFor { $0.last?.hasPrefix("Undid: Delete “B” and “C” (5 items)") == true } != nil, "\(tmux.screen())")
        #expect(try burrow(db, "ls", "--tree").1 == whole)
        try quit(tmux)
    }

    // MARK: SIGKILL

    @Test func sigkillRightAfterZRLosesNothing() throws {
        let (tmux, db) = try start()
        try importBig(db, into: tmux.directory)
        try launch(tmux)
        try #require(Self.waitForRows(tmux, [Self.row("t1", count: "10 ›")]), "\(tmux.screen())")
        // Killed as the keys arrive (the write may be under way), then again once the folds are written.
        try tmux.send("z", "R")
        kill(try outlinerPID(tmux), SIGKILL)
        try #require(tmux.waitFor(text: "exit=137") != nil, "\(tmux.screen())")
        try expectIntact(db)
        // The killed outliner left the alternate screen on; the next one draws over the exit line.
        try launch(tmux)
        let relaunched = try #require(
            tmux.waitFor {
                // Both rows drawn: a capture can land while the first frame is being written over the old screen.
                $0.count > 3 && $0[2].hasPrefix(" [ ] t1 ") && $0[3].contains("[ ] t")
                    && $0[2...3].allSatisfy { $0.hasSuffix("›") || $0.hasSuffix("▾") } && !$0.joined().contains("exit=137")
            }, "\(tmux.screen())")
        // The first zR was written whole or not at all.
        let opened = relaunched[2] == Self.row("t1", count: "10 ▾")
        #expect(
            Array(relaunched[2...3])
                == (opened
                    ? [Self.row("t1", count: "10 ▾"), Self.row("t1.1", depth: 1, count: "5 ▾")]
                    : [Self.row("t1", count: "10 ›"), Self.row("t2", count: "10 ›")]))
        try tmux.send("z", "R")
        let said = opened ? "Nothing to open" : "Opened 660 items"
        try #require(tmux.waitFor { $0.last?.hasPrefix(said) == true } != nil, "\(tmux.screen())")
        kill(try outlinerPID(tmux), SIGKILL)
        try #require(tmux.waitFor(text: "exit=137") != nil, "\(tmux.screen())")
        try expectIntact(db)
        // The folds were written whole: a new outliner shows everything open.
        let (again, _) = try start(db: db)
        try launch(again)
        let top = [Self.row("t1", count: "10 ▾"), Self.row("t1.1", depth: 1, count: "5 ▾"), Self.row("t1.1.1", depth: 2)]
        #expect(Self.waitForRows(again, top), "\(again.screen())")
        try again.send("G")
        let bottom = [Self.row("t60.10.4", depth: 2), Self.row("t60.10.5", depth: 2), Self.status("", "3660/3660 · ?: help")]
        #expect(again.waitFor { Array($0.suffix(3)) == bottom } != nil, "\(again.screen())")
        try quit(again)
    }

    /// `burrow check` finds nothing wrong and `burrow ls --tree` lists every item as imported.
    private func expectIntact(_ db: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (status, output) = try burrow(db, "check")
        #expect(status == 0, "\(output)", sourceLocation: sourceLocation)
        let (lsStatus, tree) = try burrow(db, "ls", "--tree")
        #expect(lsStatus == 0, sourceLocation: sourceLocation)
        #expect(tree == Self.big.tree, "\(tree.split(separator: "\n").count) lines", sourceLocation: sourceLocation)
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

    // MARK: Reading the selection

    /// The list rows drawn in reverse video (the selection; the status line, also reversed, is left out), as
    /// text without trailing spaces.
    private static func selectedRows(_ tmux: Tmux) -> [String] {
        guard let text = try? tmux.run(["capture-pane", "-p", "-e", "-t", "t"]) else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(tmux.height - 1)
        var rows: [String] = []
        for line in lines {
            let (plain, reversed) = Self.parse(line)
            if reversed { rows.append(plain) }
        }
        return rows
    }

    /// A captured line's text (trailing spaces removed) and whether any character of it is drawn in
    /// reverse video.
    private static func parse(_ line: Substring) -> (String, Bool) {
        var plain = ""
        var reverse = false
        var reversedText = false
        var scalars = line.unicodeScalars.makeIterator()
        while let s = scalars.next() {
            guard s == "\u{1B}" else {
                plain.unicodeScalars.append(s)
                if reverse && s != " " { reversedText = true }
                continue
            }
            // CSI parameters up to the final byte; only SGR (`m`) matters.
            guard scalars.next() == "[" else { continue }
            var parameters = ""
            var final: Unicode.Scalar = "m"
            while let p = scalars.next() {
                if p.value >= 0x40 && p.value <= 0x7E {
                    final = p
                    break
                }
                parameters.unicodeScalars.append(p)
            }
            guard final == "m" else { continue }
            var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
            while let code = codes.popFirst() {
                switch code {
                case 0: reverse = false
                case 7: reverse = true
                case 27: reverse = false
                case 38, 48, 58:
                    // A colour's own numbers are not attributes.
                    let kind = codes.popFirst()
                    codes = codes.dropFirst(kind == 5 ? 1 : kind == 2 ? 3 : 0)
                default: break
                }
            }
        }
        while plain.last == " " { plain.removeLast() }
        return (plain, reversedText)
    }
}
