import ObjectGraph
import TerminalKit
import Testing

@testable import BurrowApp
@testable import Outline

/// Every command on the test backend, compared as whole screens.
struct CommandTests {
    /// A harness whose top level holds `titles`, with the first selected.
    private func harness(_ titles: [String], width: Int = 40, height: Int = 8) throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.append(titles: titles, to: try o.root())
        try o.save()
        return try AppHarness(width: width, height: height, outline: o)
    }

    @Test func movingTheSelection() throws {
        let h = try harness((1...12).map { "Item \($0)" })
        try h.press("j j")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Item 1
             [ ] Item 2
             [ ] Item 3
             [ ] Item 4
             [ ] Item 5
                                      3/12 · ?: help
            """)
        #expect(h.backend.cell(x: 2, y: 4).style.attributes == .reverse)
        try h.press("G")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Item 8
             [ ] Item 9
             [ ] Item 10
             [ ] Item 11
             [ ] Item 12
                                     12/12 · ?: help
            """)
        try h.press("k <PgUp>")
        #expect(h.app.top.list.selected == 6)
        try h.press("g <PgDn>")
        #expect(h.app.top.list.selected == 4)
        try h.press("<C-d>")
        #expect(h.app.top.list.selected == 6)
        try h.press("<C-u> <Home>")
        #expect(h.app.top.list.selected == 0)
        try h.press("<End> <Up> <Down> <Down>")
        #expect(h.app.top.list.selected == 11)
    }

    @Test func drillingInBackAndBackToTop() throws {
        let h = try harness(["Groceries", "Work"])
        try h.press("<Enter> a")
        h.type("Dairy")
        try h.press("<Enter> <Esc> l a")
        h.type("Milk")
        try h.press("<Enter> <Esc>")
        h.expect(
            """
            Burrow › Groceries › Dairy
            + Add to Dairy…
             [ ] Milk




            Added “Milk”                     ?: help
            """)
        try h.press("~")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      1 ›
             [ ] Work



                                             ?: help
            """)
        try h.press("j l")
        h.expect(
            """
            Burrow › Work
            + Add to Work…
              No sub-items yet · a: add one · h: ba…




                                             ?: help
            """)
        try h.press("<BS> <Left> h")
        #expect(h.app.statusText == "Already at the top level")
        #expect(h.app.top.selectedRow?.title == "Work")
    }

    @Test func breadcrumbsAreCutFromTheLeft() throws {
        let h = try harness(["Groceries and household things"], width: 30)
        try h.press("<Enter> a")
        h.type("Dairy products")
        try h.press("<Enter> <Esc> <Enter>")
        h.expect(
            """
            …ehold things › Dairy products
            + Add to Dairy products…
              No sub-items yet · a: add o…




                                   ?: help
            """)
    }

    @Test func insertBelowAndAboveRenameAndCancel() throws {
        let h = try harness(["One", "Three"])
        try h.press("o")
        h.type("Two")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] One
             [ ] Two
             [ ] Three


                         Enter: add · Ctrl-G: cancel
            """)
        #expect(h.backend.cursor == Position(x: 8, y: 3))
        try h.press("<Enter>")
        #expect(try h.titles() == ["One", "Two", "Three"])
        #expect(h.app.top.selectedRow?.title == "Two")
        try h.press("g O")
        h.type("Zero")
        try h.press("<Enter>")
        #expect(try h.titles() == ["Zero", "One", "Two", "Three"])
        try h.press("o <Esc>")
        #expect(try h.titles() == ["Zero", "One", "Two", "Three"], "nothing typed: nothing added")
        try h.press("e <C-u>")
        h.type("Nought")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Nought
             [ ] One
             [ ] Two
             [ ] Three

                        Enter: keep · Ctrl-G: cancel
            """)
        try h.press("<Enter>")
        #expect(try h.titles() == ["Nought", "One", "Two", "Three"])
        #expect(h.app.statusText == "Renamed “Zero” to “Nought”")
        try h.press("i X <C-g>")
        #expect(try h.titles() == ["Nought", "One", "Two", "Three"])
        #expect(h.app.statusText == "Not renamed: kept “Nought”")
        try h.press("u")
        #expect(try h.titles() == ["Zero", "One", "Two", "Three"])
        #expect(h.app.statusText == "Undid: Rename “Zero” to “Nought”")
    }

    @Test func quickCaptureStaysOpenAndIgnoresEmptyInput() throws {
        let h = try harness([])
        try h.press("a")
        h.type("Milk")
        try h.press("<Enter> <Enter>")
        h.type("  ")
        try h.press("<Enter>")
        h.type("Eggs")
        try h.press("<Enter>")
        h.expect(
            """
            Burrow
            ›
             [ ] Milk
             [ ] Eggs



            Added “Eggs”      Enter: add · Esc: done
            """)
        #expect(h.backend.cursor == Position(x: 2, y: 1))
        #expect(try h.titles() == ["Milk", "Eggs"])
        #expect(h.outline.context.undoHistory.undoCount == 2)
    }

    @Test func pastingSeveralLinesAddsOneItemEach() throws {
        let h = try harness(["Existing"])
        h.send(.paste("Bread\nButter\n\nJam\n"))
        #expect(try h.titles() == ["Existing", "Bread", "Butter", "Jam"])
        #expect(h.app.statusText == "Added 3 items")
        try h.press("<Esc> u")
        #expect(try h.titles() == ["Existing"])
        try h.press("e")
        h.send(.paste(" (old)"))
        try h.press("<Enter>")
        #expect(try h.titles() == ["Existing (old)"])
    }

    @Test func deleteSaysHowManySubItemsWentAndUndoBringsThemBack() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let root = try o.root()
        let a = try o.append("A", to: root)
        let b = try o.append("B", to: a)
        try o.append(titles: ["C", "D"], to: b)
        try o.append("E", to: root)
        try o.save()
        let h = try AppHarness(outline: o)
        try h.press("x")
        #expect(h.app.statusText == "Deleted “A” and 3 sub-items · u: undo")
        #expect(h.app.top.selectedRow?.title == "E")
        try h.press("<Del>")
        #expect(h.app.statusText == "Deleted “E” · u: undo")
        try h.press("u u")
        #expect(try h.titles() == ["A", "E"])
        #expect(try h.titles(under: ["A", "B"]) == ["C", "D"])
        #expect(h.app.top.selectedRow?.title == "A")
    }

    @Test func reorderingKeepsTheSelectionOnTheItem() throws {
        let h = try harness(["A", "B", "C"])
        try h.press("J")
        #expect(try h.titles() == ["B", "A", "C"])
        #expect(h.app.top.selectedRow?.title == "A")
        try h.press("<S-Down>")
        #expect(try h.titles() == ["B", "C", "A"])
        try h.press("<S-Down>")
        #expect(h.app.statusText == "Already the last item")
        try h.press("K <A-Up> <A-Up>")
        #expect(try h.titles() == ["A", "B", "C"])
        #expect(h.app.statusText == "Already the first item")
        try h.press("<A-Down>")
        #expect(try h.titles() == ["B", "A", "C"])
        try h.press("u")
        #expect(try h.titles() == ["A", "B", "C"])
        #expect(h.app.statusText == "Undid: Move “A” down")
    }

    /// Indent opens the item above in place and keeps the moved item selected there (the view never jumps to
    /// another level); outdent takes it back out. Each is the other's inverse, as J and K are (the old code
    /// left the selection on the item above, so Shift-Tab then moved that one).
    @Test func indentAndOutdent() throws {
        let h = try harness(["A", "B", "C", "D"])
        try h.press(">")
        #expect(h.app.statusText == "Nothing above “A” to indent it under")
        try h.press("j j <Tab>")
        #expect(try h.titles() == ["A", "B", "D"])
        #expect(try h.titles(under: ["B"]) == ["C"])
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "C")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] A
             [ ] B                              1 ▾
               [ ] C
             [ ] D

            Moved “C” into “B”               ?: help
            """)
        try h.press("<S-Tab>")
        #expect(try h.titles() == ["A", "B", "C", "D"])
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "C")
        #expect(h.app.statusText == "Moved “C” out, after “B”")
        // And again, the other way round: Tab then Shift-Tab is a round trip, whatever the level holds.
        try h.press("<Tab> <Tab>")
        #expect(h.app.statusText == "Nothing above “C” to indent it under")
        try h.press("<S-Tab> <S-Tab>")
        #expect(try h.titles() == ["A", "B", "C", "D"])
        #expect(h.app.top.selectedRow?.title == "C")
        #expect(h.app.statusText == "Already at the top level: nothing to outdent to")
        // Undo takes each back in turn.
        try h.press("u")
        #expect(try h.titles(under: ["B"]) == ["C"])
        try h.press("u u u")
        #expect(try h.titles() == ["A", "B", "C", "D"])
    }

    /// Cut, delete, paste: the paste says the item is gone and records nothing, and the delete still undoes
    /// with the whole subtree (the old code recorded a phantom “Moved “” to …” step in front of it).
    @Test func pastingACutItemThatWasDeletedSaysSoAndRecordsNothing() throws {
        let h = try harness(["Inbox", "Work"])
        try h.press("j <Enter> a")
        h.type("Mail")
        try h.press("<Enter> <Esc> h m dd")
        #expect(h.app.statusText == "Deleted “Work” and 1 sub-item · u: undo")
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("<Enter> p")
        #expect(h.app.statusText == "Nothing to paste: “Work” no longer exists (it was deleted elsewhere)")
        #expect(h.outline.context.undoHistory.undoCount == steps)
        try h.press("p")
        #expect(h.app.statusText == "Nothing to paste: y copies, m cuts")
        try h.press("h u")
        #expect(h.app.statusText == "Undid: Delete “Work” and 1 sub-item")
        #expect(try h.titles() == ["Inbox", "Work"])
        #expect(try h.titles(under: ["Work"]) == ["Mail"])
    }

    /// An empty title is refused on rename as on capture: the editor stays open with a message.
    @Test func renameRefusesAnEmptyTitle() throws {
        let h = try harness(["A"])
        try h.press("e <C-u>")
        h.type("   ")
        try h.press("<Enter>")
        #expect(h.app.statusText == "A title cannot be empty · Ctrl-G: keep the old one")
        #expect(try h.titles() == ["A"])
        try h.press("<Esc>")
        #expect(h.app.statusText == "A title cannot be empty: kept “A”")
        #expect(try h.titles() == ["A"])
    }

    @Test func cutAndPasteMovesAnItemToAnotherLevel() throws {
        let h = try harness(["Inbox", "Groceries", "Milk"])
        try h.press("G m")
        #expect(h.app.statusText == "Cut “Milk”: open another level and press p to move it there")
        try h.press("k <Enter> p")
        #expect(try h.titles() == ["Inbox", "Groceries"])
        #expect(try h.titles(under: ["Groceries"]) == ["Milk"])
        #expect(h.app.statusText == "Moved “Milk” to “Groceries”")
        try h.press("m h k l")
        try h.press("p")
        #expect(try h.titles(under: ["Inbox"]) == ["Milk"])
        try h.press("h j m l p")
        #expect(h.app.statusText?.hasPrefix("Cannot move “Groceries” to “Groceries”") == true)
        try h.press("h p")
        #expect(h.app.statusText == "“Groceries” is already here")
        try h.press("u")
        #expect(try h.titles(under: ["Groceries"]) == ["Milk"])
        #expect(h.app.statusText == "Undid: Move “Milk” to “Inbox” (in Burrow › Inbox)")
    }

    @Test func toggleDone() throws {
        let h = try harness(["Milk"])
        try h.press("<Space>")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [x] Milk




            Done: “Milk”                     ?: help
            """)
        #expect(h.backend.cell(x: 5, y: 2).style.attributes == [.dim, .reverse])
        try h.press("<Space> u")
        #expect(try #require(try h.outline.children(of: try h.outline.root()).first).isDone)
        #expect(h.app.statusText == "Undid: Mark not done “Milk”")
    }

    @Test func undoAndRedoAcrossLevelsSayWhere() throws {
        let h = try harness(["Groceries", "Work"])
        try h.press("<Enter> a")
        h.type("Milk")
        try h.press("<Enter> <Esc> h j <Enter>")
        try h.press("u")
        // Undo shows where the action happened.
        #expect(h.app.statusText == "Undid: Add “Milk” (in Burrow › Groceries)")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries"])
        #expect(try h.titles(under: ["Groceries"]) == [])
        try h.press("h j <C-y>")
        #expect(h.app.statusText == "Redid: Add “Milk” (in Burrow › Groceries)")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries"] && h.app.top.selectedRow?.title == "Milk")
        try h.press("u u u")
        #expect(h.app.statusText == "Nothing to undo")
        try h.press("<C-r> <C-r> <C-r>")
        #expect(h.app.statusText == "Nothing to redo")
    }

    @Test func undoingTheCreationOfTheLevelOnScreenPopsBack() throws {
        let h = try harness(["Groceries"])
        try h.press("<Enter> a")
        h.type("Dairy")
        try h.press("<Enter> <Esc> <Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries", "Dairy"])
        try h.press("u")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries"])
        #expect(h.app.statusText == "“Dairy” was deleted by undo: back in “Groceries”")
        try h.press("<C-r> l")
        #expect(h.app.breadcrumbs == ["Burrow", "Groceries", "Dairy"])
    }

    @Test func helpIsGeneratedFromTheKeymap() throws {
        let h = try harness(["A"], width: 60, height: 12)
        try h.press("?")
        h.expect(
            """
            Burrow
             Keys — j/k scroll, any other key closes

             Moving
               j ↓                   Move down
               k ↑                   Move up
               g Home                First item
               G End                 Last item
               PgDn                  Page down
               PgUp                  Page up
               Ctrl-D                Half a page down
                                                              Esc: close
            """)
        // Past the end: the last page stays. Descriptions too long for a row go on below, never cut.
        try h.press(Array(repeating: "<PgDn>", count: 30).joined(separator: " "))
        h.expect(
            """
            Burrow
                                     keys extend it; d Space J K > < M y
                                     m act on all of it)
               d x Delete            Delete the range's items and their
                                     sub-items

             In the help overlay
               j ↓                   Scroll down
               k ↑                   Scroll up
               PgDn Space            Scroll a page down
               PgUp                  Scroll a page up
                                                              Esc: close
            """)
        try h.press("<Esc>")
        #expect(h.backend.lines[2] == " [ ] A")
    }

    @Test func unknownKeysSayHowToGetHelpAndQuitStops() throws {
        let h = try harness(["A"])
        try h.press("Z")
        #expect(h.app.statusText == "Z does nothing here · ?: help")
        #expect(h.app.isRunning)
        try h.press("q")
        #expect(!h.app.isRunning)
        let h2 = try harness(["A"])
        try h2.press("a <C-c>")
        #expect(!h2.app.isRunning)
    }

    @Test func longWideAndHostileTitles() throws {
        let h = try harness([
            "A very long title that will not fit in the width of this small screen",
            "日本語のとても長いタイトルで画面に入りきらない", "evil \u{1B}]0;pwned\u{07}\u{1B}[2J", ""
        ])
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] A very long title that will not fi…
             [ ] 日本語のとても長いタイトルで画面に…
             [ ] evil ^[]0;pwned^G^[[2J
             [ ]

                                             ?: help
            """)
        #expect(h.backend.unsafeCellsReceived == 0)
    }

    @Test func aTinyTerminalSaysSoAndRecovers() throws {
        let h = try harness(["A"])
        h.backend.resize(width: 12, height: 3)
        h.send(.resize(Size(width: 12, height: 3)))
        h.expect(
            """
            Terminal to…
            (24×5 neede…
              q: quit
            """)
        h.backend.resize(width: 30, height: 5)
        h.send(.resize(Size(width: 30, height: 5)))
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] A

                                   ?: help
            """)
    }

    @Test func mouseClicksSelectAndWheelScrolls() throws {
        let h = try harness((1...10).map { "Item \($0)" })
        h.send(.mouse(MouseEvent(kind: .press(button: 1), position: Position(x: 5, y: 4))))
        #expect(h.app.top.selectedRow?.title == "Item 3")
        h.send(.mouse(MouseEvent(kind: .wheelDown, position: Position(x: 5, y: 4))))
        #expect(h.app.top.selectedRow?.title == "Item 6")
        h.send(.mouse(MouseEvent(kind: .press(button: 1), position: Position(x: 5, y: 1))))
        h.type("New")
        try h.press("<Enter>")
        #expect(try h.titles().last == "New")
    }
}
