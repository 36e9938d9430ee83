import BurrowSettings
import ObjectGraph
import TerminalKit
import Testing

@testable import BurrowApp
@testable import Outline

/// The keys a new user from vim, a terminal or Workflowy presses first mean what they expect: `dd` deletes
/// one item, Ctrl-Z suspends, Ctrl-L redraws, Esc keeps typed text in every editor and Ctrl-G drops it with a
/// word, `:wq` quits instead of adding an item.
struct NewUserKeysTests {
    private func harness(_ titles: [String], width: Int = 50, height: Int = 10) throws -> AppHarness {
        let outline = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try outline.perform { _ = try outline.append(titles: titles, to: try outline.root().objectID) }
        return try AppHarness(width: width, height: height, outline: outline)
    }

    private func titles(_ h: AppHarness) throws -> [String] {
        try h.outline.children(of: try h.outline.root()).map(\.title)
    }

    @Test func ddDeletesOneItemAndDThenAnotherKeyDeletesNothing() throws {
        let h = try harness(["Moving truck", "Boxes", "Tape"])
        try h.press("dd")
        #expect(try titles(h) == ["Boxes", "Tape"])
        #expect(h.app.statusText == "Deleted “Moving truck” · u: undo")
        try h.press("d")
        #expect(h.backend.lines.last?.hasSuffix("d… · ?: help") == true, "\(h.backend.lines.last ?? "")")
        try h.press("j")
        #expect(try titles(h) == ["Boxes", "Tape"])
        try h.press("d <Esc>")
        #expect(try titles(h) == ["Boxes", "Tape"])
        #expect(h.app.breadcrumbs == ["Burrow"])
        try h.press("x")
        #expect(try titles(h).count == 1, "x deletes at once")
        try h.press("u u")
        #expect(try titles(h) == ["Moving truck", "Boxes", "Tape"])
    }

    @Test func aRangeDeleteNamesEveryItemItTook() throws {
        let h = try harness(["A", "B", "C", "D", "E", "F"])
        try h.press("v j j j j d")
        #expect(h.app.statusText == "Deleted “A”, “B”, “C” and 2 more (5 items) · u: undo")
        try h.press("u g v j j j d")
        #expect(h.app.statusText == "Deleted “A”, “B”, “C” and “D” · u: undo")
    }

    @Test func ctrlZSuspendsInEveryModeAndChangesNothing() throws {
        let h = try harness(["Milk"])
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("<C-z>")
        #expect(h.backend.suspends == 1)
        #expect(try titles(h) == ["Milk"])
        #expect(h.outline.context.undoHistory.undoCount == steps)
        try h.press("a")
        h.type("Bread")
        try h.press("<C-z>")
        #expect(h.backend.suspends == 2)
        #expect(h.backend.lines[1] == "› Bread", "the capture line is there after fg, with its text")
        // Ctrl-L draws every cell again.
        try h.press("<C-l>")
        #expect(h.backend.lastDrawCount == 50 * 10)
        #expect(h.backend.suspends == 2)
    }

    @Test func escKeepsWhatWasTypedInEveryEditorAndCtrlGDropsItWithAWord() throws {
        let h = try harness(["One"])
        // Quick capture: Esc adds what is on the line.
        try h.press("a")
        h.type("temp item")
        try h.press("<Esc>")
        #expect(try titles(h) == ["One", "temp item"])
        #expect(h.app.statusText == "Added “temp item”")
        #expect(h.backend.lines[1] == "+ Add to Burrow…")
        // Ctrl-G drops it, and says what.
        try h.press("a")
        h.type("junk")
        try h.press("<C-g>")
        #expect(try titles(h) == ["One", "temp item"])
        #expect(h.app.statusText == "Not added: “junk”")
        // Rename: Esc keeps the new title, Ctrl-G the old one.
        try h.press("g e")
        h.type(" more")
        try h.press("<Esc>")
        #expect(try titles(h) == ["One more", "temp item"])
        try h.press("e <C-u>")
        h.type("Lost")
        try h.press("<C-g>")
        #expect(try titles(h) == ["One more", "temp item"])
        #expect(h.app.statusText == "Not renamed: kept “One more”")
        // Insert: Esc inserts.
        try h.press("o")
        h.type("Between")
        try h.press("<Esc>")
        #expect(try titles(h) == ["One more", "Between", "temp item"])
        // Nothing typed: Esc just leaves, and says nothing.
        try h.press("a <Esc>")
        #expect(try titles(h).count == 3)
    }

    @Test func quittingFromQuickCaptureKeepsTheText() throws {
        let h = try harness([])
        try h.press("a")
        h.type("Bread")
        try h.press("<C-c>")
        #expect(!h.app.isRunning)
        #expect(try titles(h) == ["Bread"])
    }

    @Test func colonIsAVimCommandLineNotAnItem() throws {
        let h = try harness(["Milk"])
        try h.press(":")
        #expect(h.backend.lines[1] == ":")
        h.type("foo")
        try h.press("<Enter>")
        #expect(h.app.statusText == "Not a command: :foo (:q quits, as q does; a adds an item)")
        try h.press(": w <Enter>")
        #expect(h.app.statusText == "Every change is saved as it is made: nothing to write")
        try h.press(": x <Esc>")
        #expect(h.app.isRunning, "Esc leaves the line without running it")
        #expect(try titles(h) == ["Milk"])
        try h.press(": w q <Enter>")
        #expect(!h.app.isRunning)
        #expect(try titles(h) == ["Milk"])
    }

    /// Outdent out of the level shown keeps the view (it used to jump up a level); the status line says where
    /// the item went. Indent under a closed item opens it in place (it used to drill into it).
    @Test func outdentAndIndentKeepTheView() throws {
        let h = try harness(["Plan", "Later"])
        let plan = try #require(try h.outline.children(of: try h.outline.root()).first)
        try h.outline.perform { _ = try h.outline.append(titles: ["Step 1", "Step 2"], to: plan.objectID) }
        try h.press("<Enter> j <S-Tab>")
        #expect(h.app.breadcrumbs == ["Burrow", "Plan"])
        #expect(try h.titles(under: ["Plan"]) == ["Step 1"])
        #expect(try titles(h) == ["Plan", "Step 2", "Later"])
        #expect(h.app.statusText == "Moved “Step 2” out to “Burrow”, after “Plan” · h: go there")
        #expect(h.app.top.selectedRow?.title == "Step 1")
        try h.press("h j")
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "Step 2")
        try h.press("<Tab>")
        #expect(h.app.breadcrumbs == ["Burrow"], "the view stays")
        #expect(h.app.top.selectedRow?.title == "Step 2")
        #expect(try h.titles(under: ["Plan"]) == ["Step 1", "Step 2"])
    }

    /// `o` on an open item with sub-items shown inserts its first sub-item, where the editor row is drawn
    /// (it went after the whole subtree); on a closed item, a sibling right after it.
    @Test func oOnAnOpenParentInsertsItsFirstChild() throws {
        let h = try harness(["Trip", "Home"], width: 40, height: 8)
        let trip = try #require(try h.outline.children(of: try h.outline.root()).first)
        try h.outline.perform { _ = try h.outline.append(titles: ["Pack", "Book"], to: trip.objectID) }
        try h.press("zo o")
        h.type("Passport")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Trip                           2 ▾
               [ ] Passport
               [ ] Pack
               [ ] Book
             [ ] Home
                         Enter: add · Ctrl-G: cancel
            """)
        try h.press("<Enter>")
        #expect(try h.titles(under: ["Trip"]) == ["Passport", "Pack", "Book"])
        #expect(h.app.top.selectedRow?.title == "Passport")
        try h.press("zc k zc o")
        h.type("Flights")
        try h.press("<Esc>")
        #expect(try titles(h) == ["Trip", "Flights", "Home"], "closed: a sibling after it")
    }

    /// Opening an item from inside an open list shows where it lives (it said `Burrow › Design`), and back
    /// goes up that path.
    @Test func theBreadcrumbsOfAnItemOpenedFromAFoldAreItsPath() throws {
        let h = try harness(["Website relaunch", "Other"])
        let site = try #require(try h.outline.children(of: try h.outline.root()).first)
        let design = try h.outline.perform { try h.outline.append(titles: ["Design"], to: site.objectID)[0] }
        try h.outline.perform { _ = try h.outline.append(titles: ["Mockups"], to: design) }
        try h.press("zo j <Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "Website relaunch", "Design"])
        #expect(h.app.top.selectedRow?.title == "Mockups")
        try h.press("h")
        #expect(h.app.breadcrumbs == ["Burrow", "Website relaunch"])
        #expect(h.app.top.selectedRow?.title == "Design")
        try h.press("h")
        #expect(h.app.breadcrumbs == ["Burrow"])
        #expect(h.app.top.selectedRow?.title == "Website relaunch")
    }

    /// With done items hidden, a level of done items says so (it said "No sub-items yet"), and a search hit
    /// on a done item shows it instead of an empty-looking level.
    @Test func hiddenDoneItemsAreNamedAndASearchHitOnOneIsShown() throws {
        let h = try harness(["Chores", "Other"], width: 60)
        let chores = try #require(try h.outline.children(of: try h.outline.root()).first)
        try h.outline.perform {
            for id in try h.outline.append(titles: ["Laundry", "Dishes"], to: chores.objectID) { try h.outline.setDone(id, to: true) }
        }
        try h.press("H <Enter>")
        #expect(h.backend.lines[2] == "  2 done items hidden · H: show · a: add")
        try h.press("h /")
        h.type("dishes")
        try h.press("<Enter>")
        #expect(h.app.breadcrumbs == ["Burrow", "Chores"])
        #expect(h.app.top.selectedRow?.title == "Dishes")
        #expect(h.app.statusText?.hasSuffix("done items shown (H hides them)") == true, "\(h.app.statusText ?? "")")
        #expect(try h.outline.hidesDone() == true, "the stored choice stays")
    }

    /// Undo and redo of one's own action show and select what they changed, and never call it new.
    @Test func undoAndRedoShowWhatTheyChangedAndNeverCallItNew() throws {
        let letters = (0..<12).map { "Item \($0)" }
        let h = try harness(["Parent", "After"], width: 40, height: 8)
        let parent = try #require(try h.outline.children(of: try h.outline.root()).first)
        try h.outline.perform { _ = try h.outline.append(titles: letters, to: parent.objectID) }
        // Down at the end of a long level, a range of two goes out.
        try h.press("<Enter> G k v j <lt>")
        #expect(try h.titles(under: ["Parent"]).count == 10)
        try h.press("u")
        #expect(try h.titles(under: ["Parent"]) == letters)
        #expect(h.app.breadcrumbs == ["Burrow", "Parent"])
        #expect(["Item 10", "Item 11"].contains(h.app.top.selectedRow?.title ?? ""), "\(h.app.top.selectedRow?.title ?? "")")
        #expect(!h.backend.text.contains("new above"), "\(h.backend.text)")
        #expect(h.backend.text.contains(" [ ] Item 10"), "\(h.backend.text)")
        try h.press("<C-r>")
        #expect(!h.backend.text.contains("new above"), "\(h.backend.text)")
        try h.press("g u")
        #expect(!h.backend.text.contains("new above"), "\(h.backend.text)")
        #expect(h.app.top.selectedRow?.title == "Item 10")
        #expect(h.backend.text.contains(" [ ] Item 10"), "\(h.backend.text)")
    }

    /// A pending cut is marked in the list until it is pasted.
    @Test func aPendingCutIsMarked() throws {
        let h = try harness(["Milk", "Eggs"], width: 30, height: 6)
        try h.press("m")
        #expect(h.backend.lines[2] == "✂[ ] Milk")
        #expect(h.backend.lines[3] == " [ ] Eggs")
        try h.press("j p")
        #expect(try titles(h) == ["Eggs", "Milk"])
        #expect(!h.backend.text.contains("✂"))
    }
}
