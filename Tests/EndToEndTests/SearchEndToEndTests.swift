import Foundation
import TestSupport
import Testing

/// Search (issue 16) in the real `burrow` in tmux: `/` typed one key at a time updates the hits and the
/// count; Enter shows a hit in its level, Esc goes back to where one was, `n`/`N` step; hostile, CJK and emoji
/// titles at narrow and tiny sizes; `burrow find` from another process agrees with the open panel, which
/// follows other processes' commits.
@Suite(.onAThreadOfItsOwn("end-to-end"))
struct SearchEndToEndTests {
    /// The outliner on `items`, imported first (see `Tmux.outliner(importing:)`).
    private func start(_ items: [[String: Any]], width: Int = 60, height: Int = 12) throws -> (Tmux, String) {
        try Tmux.outliner(importing: items, width: width, height: height)
    }

    /// `burrow ARGUMENTS --db DB` as another process: (status, stdout + stderr).
    @discardableResult
    private func burrow(_ db: String, _ arguments: String...) throws -> (Int32, String) {
        let (status, out, err) = try Binaries.run("burrow", arguments + ["--db", db])
        return (status, out + err)
    }

    private static func item(_ title: String, note: String? = nil, _ children: [[String: Any]] = []) -> [String: Any] {
        var item: [String: Any] = ["title": title, "children": children]
        if let note { item["note"] = note }
        return item
    }

    /// Gödel deep in a subtree, in a note, and at the second level; "Go shopping" found by the first letters only.
    private static var library: [[String: Any]] {
        [
            item("Reading", [item("Books", [item("Philosophy", [item("Gödel, Escher, Bach")])])]),
            item("Notes", note: "first line\nabout Gödel's theorem"),
            item("Work", [item("Go shopping"), item("Incompleteness (GÖDEL)")])
        ]
    }

    /// The list rows drawn in reverse video (the selection), as text.
    private static func selectedRows(_ tmux: Tmux) -> [String] {
        guard let text = try? tmux.run(["capture-pane", "-p", "-e", "-t", "t"]) else { return [] }
        var rows: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(tmux.height - 1) {
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

    /// Waits until the pane shows `rows` from the top, then blank rows, then a status line starting `status`.
    @discardableResult
    private static func waitForScreen(_ tmux: Tmux, _ rows: [String], status: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String]?
    {
        let screen = tmux.waitFor { s in
            s.count == tmux.height && Array(s.prefix(rows.count)) == rows && s.dropFirst(rows.count).dropLast().allSatisfy(\.isEmpty)
                && s.last?.hasPrefix(status) == true
        }
        #expect(screen != nil, "wanted \(rows) and “\(status)…”, saw \(tmux.screen())", sourceLocation: sourceLocation)
        return screen
    }

    @Test func typingEnterEscAndSteppingThroughTheHits() throws {
        let (tmux, _) = try start(Self.library)
        // Where one was: inside Work, on its second item.
        try tmux.send("j", "j", "l", "j")
        // The whole level, drawn (a capture can catch a frame half written), then the selection on a later capture.
        let level = ["Burrow › Work", "+ Add to Work…", " [ ] Go shopping", " [ ] Incompleteness (GÖDEL)"]
        let before = try #require(
            tmux.waitFor { s in
                s.count == tmux.height && Array(s.prefix(level.count)) == level
                    && s.dropFirst(level.count).dropLast().allSatisfy(\.isEmpty) && s.last?.hasSuffix("?: help") == true
            })
        #expect(Poll.until { Self.selectedRows(tmux) == [" [ ] Incompleteness (GÖDEL)"] }, "\(Self.selectedRows(tmux))")
        try tmux.send("/")
        var typed = ""
        let escher = " Gödel, Escher, Bach  Reading › Books › Philosophy"
        let notes = " Notes  ¶ about Gödel's theorem"
        let work = " Incompleteness (GÖDEL)  Work"
        let steps = [
            ("G", [" Reading", escher, notes, " Go shopping  Work", work]),
            ("O", [escher, notes, " Go shopping  Work", work]),
            ("D", [escher, notes, work]),
            ("E", [escher, notes, work])
        ]
        for (key, hits) in steps {
            typed += key
            try tmux.send(key)
            Self.waitForScreen(tmux, ["Burrow › Work", "/ \(typed)"] + hits, status: "\(hits.count) matches")
        }
        try tmux.send("L")
        Self.waitForScreen(
            tmux,
            [
                "Burrow › Work",
                "/ GODEL",
                " Gödel, Escher, Bach  Reading › Books › Philosophy",
                " Notes  ¶ about Gödel's theorem",
                " Incompleteness (GÖDEL)  Work"
            ], status: "3 matches")
        #expect(Self.selectedRows(tmux) == [" Gödel, Escher, Bach  Reading › Books › Philosophy"])
        // Esc: back where one was, exactly.
        try tmux.send("Escape")
        #expect(tmux.waitFor { $0 == before } != nil, "\(tmux.screen())")
        #expect(Self.selectedRows(tmux) == [" [ ] Incompleteness (GÖDEL)"])

        // Enter on the first hit: its level, deep down, with it selected.
        try tmux.send("/")
        try tmux.type("GODEL")
        #expect(tmux.waitFor { $0.last?.hasPrefix("3 matches") == true } != nil, "\(tmux.screen())")
        try tmux.send("Enter")
        Self.waitForScreen(
            tmux,
            ["Burrow › Reading › Books › Philosophy", "+ Add to Philosophy…", " [ ] Gödel, Escher, Bach"],
            status: "“GODEL”: match 1 of 3 · n/N: next/previous")
        #expect(Self.selectedRows(tmux) == [" [ ] Gödel, Escher, Bach"])
        // n: the note's item at the top; n: the one in Work; n wraps to the first; N back to the last.
        try tmux.send("n")
        #expect(tmux.waitFor { $0[0] == "Burrow" && $0.last?.hasPrefix("“GODEL”: match 2 of 3") == true } != nil, "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux).first?.hasPrefix(" [ ] Notes") == true }, "\(Self.selectedRows(tmux))")
        try tmux.send("n")
        #expect(tmux.waitFor { $0[0] == "Burrow › Work" && $0.last?.hasPrefix("“GODEL”: match 3 of 3") == true } != nil, "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [" [ ] Incompleteness (GÖDEL)"] }, "\(Self.selectedRows(tmux))")
        try tmux.send("n")
        #expect(tmux.waitFor { $0[0].hasSuffix("Philosophy") && $0.last?.hasPrefix("“GODEL”: match 1 of 3") == true } != nil, "\(tmux.screen())")
        try tmux.send("N")
        #expect(tmux.waitFor { $0[0] == "Burrow › Work" && $0.last?.hasPrefix("“GODEL”: match 3 of 3") == true } != nil, "\(tmux.screen())")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil, "\(tmux.screen())")
    }

    /// A word in every item: the first screen comes before the count ("N+ matches…"), and the run loop makes
    /// the exact count once no key is waiting (without it the status line would keep saying "counting").
    @Test func aCommonWordsCountFollowsItsFirstScreen() throws {
        let groups = (0..<30).map { g in Self.item("group \(g)", (0..<100).map { Self.item("hit \(g).\($0)") }) }
        let (tmux, _) = try start(groups)
        try tmux.send("/")
        try tmux.type("hit")
        let counted = tmux.waitFor { s in s.contains("/ hit") && s.last?.hasPrefix("3000 matches") == true }
        #expect(counted != nil, "\(tmux.screen())")
        #expect(tmux.screen().contains(" hit 0.0  group 0"))
        try tmux.send("BSpace")
        #expect(tmux.waitFor { s in s.contains("/ hi") && s.last?.hasPrefix("3000 matches") == true } != nil, "\(tmux.screen())")
    }

    @Test func hostileWideAndTinyNeverBreakTheScreen() throws {
        let hostile = "\u{1B}]2;pwned\u{07}godel\u{1B}[2J\u{1B}[31m"
        let (tmux, db) = try start(
            [Self.item("日本語のGödel本"), Self.item(hostile), Self.item("🎉 godel party 🎉 with a long tail"), Self.item("Other")],
            width: 30, height: 10)
        try tmux.send("/")
        try tmux.type("godel")
        // The escapes are shown as visible stand-ins; wide characters stay whole and rows stay in their 30 cells.
        let screen = Self.waitForScreen(
            tmux,
            [
                "Burrow",
                "/ godel",
                " 日本語のGödel本",
                " ^[]2;pwned^Ggodel^[[2J^[[31m",
                " 🎉 godel party 🎉 with a long"
            ], status: "3 match… Enter: go")
        #expect(try tmux.display("#{pane_title}") != "pwned")
        #expect(screen?.allSatisfy { $0.count <= 30 } == true)
        // Tiny while the panel is open, keys pressed there, then back: still running, the panel as it was.
        for (w, h) in [(20, 5), (12, 3), (1, 1), (20, 5)] {
            try tmux.resize(width: w, height: h)
            #expect(tmux.waitFor { $0.count == h } != nil, "\(w)x\(h): \(tmux.screen())")
            try tmux.send("Down")
            try tmux.type("x")
        }
        try tmux.resize(width: 30, height: 10)
        Self.waitForScreen(
            tmux,
            [
                "Burrow",
                "/ godel",
                " 日本語のGödel本",
                " ^[]2;pwned^Ggodel^[[2J^[[31m",
                " 🎉 godel party 🎉 with a long"
            ], status: "Keys di… Enter: go")
        #expect(!tmux.screen().contains { $0.hasPrefix("exit=") })
        #expect(try tmux.display("#{pane_title}") != "pwned")
        // Enter on the hostile hit selects it in its level, drawn the same way.
        try tmux.send("Down", "Enter")
        #expect(tmux.waitFor { $0.last?.hasPrefix("“godel”: match 2 of 3") == true } != nil, "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [" [ ] ^[]2;pwned^Ggodel^[[2J^[…"] }, "\(Self.selectedRows(tmux))")
        #expect(try burrow(db, "find", "GODEL").1.split(separator: "\n").count == 3)
    }

    /// `burrow find` in another process lists what the open panel shows; `burrow add`, `rename` and `rm` in
    /// other processes change the open list at once, the chosen hit kept (or its nearest), the count following.
    @Test func findAgreesAndTheOpenPanelFollowsOtherProcesses() throws {
        let (tmux, db) = try start(Self.library)
        try tmux.send("/")
        try tmux.type("godel")
        Self.waitForScreen(
            tmux,
            [
                "Burrow",
                "/ godel",
                " Gödel, Escher, Bach  Reading › Books › Philosophy",
                " Notes  ¶ about Gödel's theorem",
                " Incompleteness (GÖDEL)  Work"
            ], status: "3 matches")
        let found = try burrow(db, "find", "godel")
        #expect(found.0 == 0)
        let lines = found.1.split(separator: "\n").map { $0.split(separator: "  ", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(
            lines == ["Reading › Books › Philosophy › Gödel, Escher, Bach", "Notes  (in the note)", "Work › Incompleteness (GÖDEL)"], "\(found.1)")
        try tmux.send("Down")
        #expect(Poll.until { Self.selectedRows(tmux) == [" Notes  ¶ about Gödel's theorem"] }, "\(Self.selectedRows(tmux))")

        // Added above the chosen hit: it appears, the choice stays on Notes.
        #expect(try burrow(db, "add", "--top", "Kurt Gödel").0 == 0)
        Self.waitForScreen(
            tmux,
            [
                "Burrow",
                "/ godel",
                " Kurt Gödel",
                " Gödel, Escher, Bach  Reading › Books › Philosophy",
                " Notes  ¶ about Gödel's theorem",
                " Incompleteness (GÖDEL)  Work"
            ], status: "4 matches")
        #expect(Self.selectedRows(tmux) == [" Notes  ¶ about Gödel's theorem"])
        // Its note removed, so it no longer matches: the next hit is chosen.
        #expect(try burrow(db, "note", "Notes", "").0 == 0)
        Self.waitForScreen(
            tmux,
            [
                "Burrow",
                "/ godel",
                " Kurt Gödel",
                " Gödel, Escher, Bach  Reading › Books › Philosophy",
                " Incompleteness (GÖDEL)  Work"
            ], status: "3 matches")
        #expect(Self.selectedRows(tmux) == [" Incompleteness (GÖDEL)  Work"])
        // A hit's ancestor renamed: its path follows. The chosen one deleted: the one before it.
        #expect(try burrow(db, "rename", "Reading/Books", "Library").0 == 0)
        #expect(tmux.waitFor(text: " Gödel, Escher, Bach  Reading › Library › Philosophy") != nil, "\(tmux.screen())")
        #expect(try burrow(db, "rm", "Work/Incompleteness (GÖDEL)").0 == 0)
        Self.waitForScreen(
            tmux,
            ["Burrow", "/ godel", " Kurt Gödel", " Gödel, Escher, Bach  Reading › Library › Philosophy"], status: "2 matches")
        #expect(Self.selectedRows(tmux) == [" Gödel, Escher, Bach  Reading › Library › Philosophy"])
        #expect(try burrow(db, "find", "GÖDEL").1.split(separator: "\n").count == 2)
        // Enter goes to it.
        try tmux.send("Enter")
        #expect(tmux.waitFor { $0.last?.hasPrefix("“godel”: match 2 of 2") == true } != nil, "\(tmux.screen())")
        #expect(Poll.until { Self.selectedRows(tmux) == [" [ ] Gödel, Escher, Bach"] }, "\(Self.selectedRows(tmux))")
    }
}
