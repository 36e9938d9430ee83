import ObjectGraph
import TerminalKit
import Testing

@testable import BurrowApp
@testable import Outline

/// While the terminal is too small to draw the outline, nothing the user cannot see may change it: keys,
/// pastes and clicks do nothing (an open editor keeps its text), and only quitting, resizing and signals act.
struct TooSmallTests {
    /// Groceries (with three sub-items) and Work, Groceries selected, on a 40×8 screen.
    private func harness() throws -> AppHarness {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let groceries = try o.insert("Groceries", into: try o.root(), at: 0)
        try o.insert("Work", into: try o.root(), at: 1)
        try o.append(titles: ["Milk", "Eggs", "Bread"], to: groceries)
        try o.save()
        return try AppHarness(width: 40, height: 8, outline: o)
    }

    private func resize(_ h: AppHarness, _ width: Int, _ height: Int) {
        h.backend.resize(width: width, height: height)
        h.send(.resize(Size(width: width, height: height)))
    }

    private static let tooSmall20x5 = """

         Terminal too small
           (24×5 needed)
              q: quit

        """

    @Test func keysEditNothingWhileTheTerminalIsTooSmall() throws {
        let h = try harness()
        let steps = h.outline.context.undoHistory.undoCount
        resize(h, 20, 5)
        h.expect(Self.tooSmall20x5)
        // Every editing key, one at a time; none may touch the outline or the undo history.
        try h.press("d")
        h.expect(Self.tooSmall20x5)
        try h.press("x <Del> <Space> J K > < m p u <C-z> <C-r> o")
        h.type("Unseen")
        try h.press("<Enter> <Esc> a")
        h.type("Unseen")
        try h.press("<Enter>")
        h.send(.paste("Pasted\nunseen"))
        h.send(.mouse(MouseEvent(kind: .press(button: 1), position: Position(x: 3, y: 1))))
        h.expect(Self.tooSmall20x5)
        #expect(try h.titles() == ["Groceries", "Work"])
        #expect(try h.titles(under: ["Groceries"]) == ["Milk", "Eggs", "Bread"])
        #expect(h.outline.context.undoHistory.undoCount == steps)
        #expect(h.app.isRunning)
        resize(h, 40, 8)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      3 ›
             [ ] Work



            Keys did nothing: the terminal … ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "Groceries")
    }

    @Test func anAddIsNotSavedAtOneByOne() throws {
        let h = try harness()
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("a")
        h.type("Mil")
        resize(h, 1, 1)
        h.expect("…")
        h.type("k")
        try h.press("<Enter> <Esc> <C-u> <BS>")
        h.send(.paste("Bread\nButter"))
        #expect(try h.titles() == ["Groceries", "Work"])
        #expect(h.outline.context.undoHistory.undoCount == steps)
        // The capture line is still open with what was typed before the terminal shrank.
        resize(h, 40, 8)
        h.expect(
            """
            Burrow
            › Mil
             [ ] Groceries                      3 ›
             [ ] Work



            Keys did nothing… Enter: add · Esc: done
            """)
        #expect(h.backend.cursor == Position(x: 5, y: 1))
        try h.press("<Enter>")
        #expect(try h.titles() == ["Groceries", "Work", "Mil"])
    }

    @Test func anOpenRenameWaitsForTheTerminalToGrow() throws {
        let h = try harness()
        try h.press("j e")
        h.type(" stuff")
        resize(h, 23, 20)
        h.expect(
            """








              Terminal too small
                 (24×5 needed)
                    q: quit









            """)
        try h.press("<Enter> <C-u> <Esc>")
        #expect(try h.titles() == ["Groceries", "Work"])
        resize(h, 40, 4)
        #expect(h.backend.lines.contains { $0.contains("Terminal too small") })
        resize(h, 40, 8)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries                      3 ›
             [ ] Work stuff



            Keys did n… Enter: keep · Ctrl-G: cancel
            """)
        try h.press("<Enter>")
        #expect(try h.titles() == ["Groceries", "Work stuff"])
    }

    @Test func quittingStillWorksWhileTheTerminalIsTooSmall() throws {
        // The mode cannot be seen, so the quit keys quit in every mode (an open editor's text is not saved).
        for (before, quit) in [("", "q"), ("", "<C-c>"), ("a", "q"), ("e", "<C-c>"), ("?", "q")] {
            let h = try harness()
            try h.press(before)
            resize(h, 10, 2)
            try h.press(quit)
            #expect(!h.app.isRunning, "\(quit) after \(before) did not quit")
            #expect(try h.titles() == ["Groceries", "Work"])
        }
        let h = try harness()
        resize(h, 10, 2)
        h.send(.terminate(signal: 15))
        #expect(!h.app.isRunning)
    }
}
