import BurrowSettings
import ObjectGraph
import TerminalKit
import Testing

@testable import BurrowApp
@testable import Outline

/// `/` searches titles and notes as it is typed: the hits in outline order with their paths and the
/// matched text highlighted, the exact count; Enter shows the chosen hit in its level, Esc leaves
/// everything as it was, and `n`/`N` step through every hit.
struct SearchTests {
    private func outline() throws -> Outline {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let groceries = try o.append("Groceries", to: root)
        let dairy = try o.append("Dairy", to: groceries)
        try o.append(titles: ["Milk", "Eggs"], to: dairy)
        try o.append("Oat MILK", to: groceries)
        let work = try o.append("Work", to: root)
        try o.append("Ask about milk budget", to: work)
        try o.save()
        return o
    }

    private func harness(width: Int = 40, height: Int = 8) throws -> AppHarness {
        try AppHarness(width: width, height: height, outline: try outline())
    }

    @Test func resultsFollowTheTextAsItIsTyped() throws {
        let h = try harness()
        try h.press("/")
        h.expect(
            """
            Burrow
            /
             [ ] Groceries                      2 ›
             [ ] Work                           1 ›



                               Enter: go · Esc: back
            """)
        h.type("m")
        h.expect(
            """
            Burrow
            / m
             Milk  Groceries › Dairy
             Oat MILK  Groceries
             Ask about milk budget  Work


            3 matches          Enter: go · Esc: back
            """)
        h.type("ilk b")
        h.expect(
            """
            Burrow
            / milk b
             Ask about milk budget  Work




            1 match            Enter: go · Esc: back
            """)
        h.type("x")
        h.expect(
            """
            Burrow
            / milk bx
             Nothing contains “milk bx”




            Nothing contains … Enter: go · Esc: back
            """)
        try h.press("<BS> <BS> <BS>")
        try h.press("<Down> <Enter>")
        h.expect(
            """
            Burrow › Groceries
            + Add to Groceries…
             [ ] Dairy                          2 ›
             [ ] Oat MILK



            “milk”: match 2 of 3 · n/N: nex… ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "Oat MILK")
        try h.press("n")
        #expect(h.app.breadcrumbs == ["Burrow", "Work"])
        #expect(h.app.top.selectedRow?.title == "Ask about milk budget")
        #expect(h.app.statusText == "“milk”: match 3 of 3 · n/N: next/previous")
        try h.press("n")
        #expect(h.app.top.selectedRow?.title == "Milk")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries", "Dairy"])
        try h.press("N")
        #expect(h.app.top.selectedRow?.title == "Ask about milk budget")
        // Back goes up the revealed path as if the user had opened it.
        try h.press("h")
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "Work")
        // `/` again opens empty (typing does not append to the last text); ↑ brings the last text back.
        try h.press("/")
        #expect(h.backend.lines[1] == "/", "opens empty")
        h.type("b")
        #expect(h.backend.lines[1] == "/ b")
        try h.press("<BS> <Up>")
        #expect(h.backend.lines[1] == "/ milk")
        #expect(h.app.statusText == "3 matches")
        // Down past the newest: an empty line again; typed text of one's own makes ↑ choose hits.
        try h.press("<Down>")
        #expect(h.backend.lines[1] == "/")
        try h.press("<Esc>")
    }

    /// Pasted text searches as typed text does (it did not: the results stayed those of the text before).
    @Test func pastedTextSearchesToo() throws {
        let h = try harness()
        try h.press("/")
        h.send(.paste("eggs"))
        #expect(h.app.statusText == "1 match")
        #expect(h.app.search.panel?.hits.map(\.title) == ["Eggs"])
        try h.press("<Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries", "Dairy"])
    }

    @Test func escLeavesEverythingAsItWas() throws {
        let h = try harness()
        try h.press("j l")
        let before = h.backend.screen
        let stack = h.app.breadcrumbs
        try h.press("/")
        h.type("eggs")
        try h.press("<Down> <Up> <Esc>")
        #expect(h.app.breadcrumbs == stack)
        #expect(h.backend.screen == before)
        try h.press("n")
        #expect(h.app.statusText == "No search yet: / searches")
    }

    @Test func matchedTextIsHighlightedAsFoldedWithPathsAndNotes() throws {
        let o = try outline()
        let root = try o.root()
        let reading = try o.append("Reading", to: root)
        try o.append("GÖDEL, Escher, Bach", to: reading)
        try o.append("e\u{301}cole 日本語 🎉", to: reading)
        let notes = try o.append("Notes", to: root)
        notes.note = "first line\nabout Gödel here"
        try o.save()
        let h = try AppHarness(width: 40, height: 8, outline: o)
        try h.press("/")
        h.type("godel")
        h.expect(
            """
            Burrow
            / godel
             GÖDEL, Escher, Bach  Reading
             Notes  ¶ about Gödel here



            2 matches          Enter: go · Esc: back
            """)
        let match = Theme.standard.match
        func styles(_ y: Int, _ xs: Range<Int>) -> [Bool] { xs.map { h.backend.screen[$0, y].style.attributes.contains(match.attributes) } }
        // Row 2 is selected (reverse) as well; the matched cells carry bold and underline.
        #expect(styles(2, 1..<8) == [true, true, true, true, true, false, false])
        #expect(styles(3, 10..<21) == [false, false, false, false, false, false, true, true, true, true, true])
        try h.press("<C-u>")
        h.type("ECOLE")
        h.expect(
            """
            Burrow
            / ECOLE
             école 日本語 🎉  Reading




            1 match            Enter: go · Esc: back
            """)
        #expect(styles(2, 1..<7) == [true, true, true, true, true, false])
        try h.press("<C-u>")
        h.type("本語")
        #expect(styles(2, 7..<13) == [false, false, true, true, true, true])
    }

    @Test func highlightsMapFoldedMatchesBackToCharacters() {
        #expect(SearchHighlight.matched("godel", in: "Gödel") == [true, true, true, true, true])
        #expect(SearchHighlight.matched("GÖDEL", in: "xgodel") == [false, true, true, true, true, true])
        #expect(SearchHighlight.matched("ss", in: "Straße") == [false, false, false, false, true, false])
        #expect(SearchHighlight.matched("e", in: "e\u{301}x") == [true, false])
        #expect(SearchHighlight.matched("🎉", in: "a🎉b") == [false, true, false])
        #expect(SearchHighlight.matched("", in: "ab") == [false, false])
        #expect(SearchHighlight.runs("ilk", in: "Milk and silk").map { String($0.text) } == ["M", "ilk", " and s", "ilk"])
    }

    /// 250 groups of 100 items titled "hit G.N" (25,000 hits for "hit"), in a 40×8 screen.
    private static func manyHits() throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root().objectID
        let nodes = (0..<250).map { i in OutlineNode("group \(i)", children: (0..<100).map { OutlineNode("hit \(i).\($0)") }) }
        _ = try o.perform("Import") { try o.add(nodes, under: root) }
        return try AppHarness(width: 40, height: 8, outline: o)
    }

    /// 25,000 hits: the count is exact, the first screen comes from the walk, and `n`/`N` reach every one
    /// (`N` from the first goes to the last).
    @Test func manyHitsAreCountedAndSteppedThroughAll() throws {
        let h = try Self.manyHits()
        try h.press("/")
        h.type("HIT")
        h.expect(
            """
            Burrow
            / HIT
             hit 0.0  group 0
             hit 0.1  group 0
             hit 0.2  group 0
             hit 0.3  group 0
             hit 0.4  group 0
            25000 matches      Enter: go · Esc: back
            """)
        try h.press("<Enter>")
        #expect(h.app.statusText == "“HIT”: match 1 of 25000 · n/N: next/previous")
        try h.press("N")
        #expect(h.app.statusText == "“HIT”: match 25000 of 25000 · n/N: next/previous")
        #expect(h.app.top.selectedRow?.title == "hit 249.99")
        try h.press("n")
        #expect(h.app.top.selectedRow?.title == "hit 0.0")
        try h.press("n n")
        #expect(h.app.top.selectedRow?.title == "hit 0.2")
    }

    /// A word in most items: its first screen is drawn before the whole index is read, the status line says
    /// the count is still being made, and the count comes in the next frame unless a key comes first.
    @Test func aCommonWordShowsItsFirstScreenAndItsCountAfter() throws {
        let h = try Self.manyHits()
        h.keysFollowAtOnce = true
        try h.press("/")
        h.type("HI")
        #expect(h.app.hasWorkAfterFrame)
        h.type("T")
        h.expect(
            """
            Burrow
            / HIT
             hit 0.0  group 0
             hit 0.1  group 0
             hit 0.2  group 0
             hit 0.3  group 0
             hit 0.4  group 0
            5+ matches…        Enter: go · Esc: back
            """)
        // Down past the screen reads on in outline order, still without the count.
        try h.press("<Down> <Down> <Down> <Down> <Down> <Down>")
        #expect(h.app.statusText == "5+ matches…")
        h.expect(
            """
            Burrow
            / HIT
             hit 0.2  group 0
             hit 0.3  group 0
             hit 0.4  group 0
             hit 0.5  group 0
             hit 0.6  group 0
            5+ matches…        Enter: go · Esc: back
            """)
        h.keysFollowAtOnce = false
        h.workAfterFrame()
        #expect(!h.app.hasWorkAfterFrame)
        #expect(h.app.statusText == "25000 matches")
        // Enter before the count: the count is made on the way.
        h.keysFollowAtOnce = true
        try h.press("<Backspace>")
        h.type("T")
        #expect(h.app.statusText == "5+ matches…")
        try h.press("<Enter>")
        #expect(h.app.statusText == "“HIT”: match 1 of 25000 · n/N: next/previous")
        #expect(!h.app.hasWorkAfterFrame)
        // A rare word is counted at once.
        try h.press("/")
        h.type("hit 17.4")
        #expect(h.app.statusText == "11 matches")
        #expect(!h.app.hasWorkAfterFrame)
        // A line emptied before its count leaves nothing to count (the run loop would otherwise spin).
        try h.press("<Esc> /")
        h.type("HIT")
        #expect(h.app.hasWorkAfterFrame)
        try h.press("<Backspace> <Backspace> <Backspace>")
        #expect(!h.app.hasWorkAfterFrame)
    }

    @Test func aHitDeletedElsewhereBeforeEnterIsSaidAndSkipped() throws {
        let (h, theirs) = try AppHarness.withSecondContext(["Milk", "Oat milk", "Eggs"])
        try h.press("/")
        h.type("milk")
        try h.press("<Down>")
        // Deleted after the last poll, just before Enter: the results on screen still show it.
        let oat = try #require(try theirs.children(of: theirs.root()).first { $0.title == "Oat milk" })
        try theirs.perform("Delete") { try theirs.delete(oat) }
        try h.press("<Enter>")
        #expect(h.app.statusText == "“Oat milk” was deleted meanwhile · n: next match")
        try h.press("n")
        #expect(h.app.top.selectedRow?.title == "Milk")
        #expect(h.app.statusText == "“milk”: match 1 of 2 · n/N: next/previous")
    }

    @Test func hostileTitlesAndATinyTerminal() throws {
        let o = try outline()
        try o.append("milk\u{1b}]0;owned\u{7}\nx", to: try o.root())
        try o.save()
        let h = try AppHarness(width: 24, height: 5, outline: o)
        try h.press("/")
        h.type("milk")
        h.expect(
            """
            Burrow
            / milk
             Milk  Groceries › Dairy
             Oat MILK  Groceries
            4… Enter: go · Esc: back
            """)
        try h.press("<Up> <Up> <PageDown> <PageDown> <PageDown>")
        h.expect(
            """
            Burrow
            / milk
             Ask about milk budget
             milk^[]0;owned^G^Jx
            4… Enter: go · Esc: back
            """)
        h.resize(10, 3)
        try h.press("<Enter>")  // too small: only quitting and resizing act
        h.resize(40, 8)
        try h.press("<Enter>")
        #expect(h.app.top.selectedRow?.title == "milk\u{1b}]0;owned\u{7}\nx")
    }

    @Test func undoAndRedoChangeWhatIsFound() throws {
        let h = try harness()
        try h.press("/")
        h.type("eggs")
        try h.press("<Enter> dd")
        try h.press("/ <C-u>")
        h.type("eggs")
        #expect(h.app.statusText == "Nothing contains “eggs”")
        try h.press("<Esc> u / <C-u>")
        h.type("EGGS")
        #expect(h.app.statusText == "1 match")
    }
}
