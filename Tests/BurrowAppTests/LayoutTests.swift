import ObjectGraph
import TerminalKit
import Testing

@testable import BurrowApp
@testable import Outline

/// The screen's layout is worked out once per frame from the size; drawing and clicks use the same one, and
/// drawing a frame changes nothing the app keeps.
struct LayoutTests {
    private func harness(_ titles: [String], width: Int = 40, height: Int = 8) throws -> (AppHarness, Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        try o.append(titles: titles, to: try o.root())
        try o.save()
        return (try AppHarness(width: width, height: height, outline: o), Outline(context: Context(store: store)))
    }

    private static func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    @Test(arguments: [
        // size, breadcrumbs, capture, list, status, too small
        (Size(width: 80, height: 24), rect(0, 0, 80, 1), rect(0, 1, 80, 1), rect(0, 2, 80, 21), rect(0, 23, 80, 1), false),
        (Size(width: 40, height: 8), rect(0, 0, 40, 1), rect(0, 1, 40, 1), rect(0, 2, 40, 5), rect(0, 7, 40, 1), false),
        (Size(width: 24, height: 5), rect(0, 0, 24, 1), rect(0, 1, 24, 1), rect(0, 2, 24, 2), rect(0, 4, 24, 1), false),
        (Size(width: 23, height: 40), rect(0, 0, 23, 1), rect(0, 1, 23, 1), rect(0, 2, 23, 37), rect(0, 39, 23, 1), true),
        (Size(width: 60, height: 4), rect(0, 0, 60, 1), rect(0, 1, 60, 1), rect(0, 2, 60, 1), rect(0, 3, 60, 1), true),
        (Size(width: 30, height: 3), rect(0, 0, 30, 1), rect(0, 1, 30, 1), rect(0, 2, 30, 0), rect(0, 2, 30, 1), true),
        (Size(width: 1, height: 1), rect(0, 0, 1, 1), rect(0, 1, 1, 0), rect(0, 1, 1, 0), rect(0, 1, 1, 0), true),
        (Size(width: 0, height: 0), rect(0, 0, 0, 0), rect(0, 1, 0, 0), rect(0, 0, 0, 0), rect(0, 0, 0, 0), true)
    ])
    func rowsAtEachSize(size: Size, breadcrumbs: Rect, capture: Rect, list: Rect, status: Rect, tooSmall: Bool) {
        let layout = Layout(size: size)
        #expect(layout.breadcrumbs == breadcrumbs)
        #expect(layout.capture == capture)
        #expect(layout.list == list)
        #expect(layout.status == status)
        #expect(layout.isTooSmall == tooSmall)
        // The help overlay covers the capture line and the list; the capture field starts after its prompt.
        #expect(layout.help == Rect(x: 0, y: capture.y, width: size.width, height: capture.height + list.height))
        #expect(layout.captureField.x == 2 && layout.captureField.width == max(0, size.width - 2))
    }

    @Test func rowFieldsStartAfterTheDoneBox() {
        #expect(Layout.rowField(Self.rect(0, 4, 40, 1)) == Self.rect(5, 4, 35, 1))
        #expect(Layout.rowField(Self.rect(0, 4, 3, 1)).width == 0)
    }

    // MARK: Clicks

    /// On a 40×16 screen the list has 13 rows (2–14) and the status line is row 15: a click lands on the row
    /// drawn there, also after scrolling and after a resize moved the status line.
    @Test func clicksSelectTheRowDrawnWhereTheyLand() throws {
        let (h, _) = try harness((1...30).map { "Item \($0)" }, width: 40, height: 16)
        h.click(x: 10, y: 14)
        #expect(h.app.top.selectedRow?.title == "Item 13")
        #expect(h.backend.lines[14] == " [ ] Item 13")
        #expect(h.backend.cell(x: 2, y: 14).style.attributes == .reverse)
        // The status line is not a row.
        h.click(x: 10, y: 15)
        #expect(h.app.top.selectedRow?.title == "Item 13")
        // Scrolled to the end: the first row shown is Item 18.
        try h.press("G")
        h.click(x: 0, y: 2)
        #expect(h.app.top.selectedRow?.title == "Item 18")
        // Smaller: the list is rows 2–6 and row 7 is the status line now.
        h.resize(40, 8)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Item 18
             [ ] Item 19
             [ ] Item 20
             [ ] Item 21
             [ ] Item 22
                                     18/30 · ?: help
            """)
        h.click(x: 5, y: 7)
        #expect(h.app.top.selectedRow?.title == "Item 18")
        h.click(x: 5, y: 6)
        #expect(h.app.top.selectedRow?.title == "Item 22")
        // The capture line opens the editor; clicks while editing do nothing.
        h.click(x: 30, y: 1)
        h.click(x: 5, y: 2)
        h.expect(
            """
            Burrow
            ›
             [ ] Item 18
             [ ] Item 19
             [ ] Item 20
             [ ] Item 21
             [ ] Item 22
                              Enter: add · Esc: done
            """)
        #expect(h.app.top.selectedRow?.title == "Item 22")
    }

    @Test func aClickBelowTheLastRowSelectsNothing() throws {
        let (h, _) = try harness(["A", "B"], width: 30, height: 10)
        try h.press("j")
        h.click(x: 3, y: 6)
        #expect(h.app.top.selectedRow?.title == "B")
        h.click(x: 3, y: 2)
        #expect(h.app.top.selectedRow?.title == "A")
    }

    // MARK: Drawing changes nothing

    /// A state with everything that used to be written while drawing: a scrolled list, a level below the top,
    /// a long capture line scrolled to its cursor.
    private func busyHarness() throws -> (AppHarness, Outline) {
        let (h, other) = try harness((1...30).map { "Item \($0)" }, width: 30, height: 8)
        try h.press("G k k <Enter> h a")
        h.type("The quick brown fox jumps over the lazy dog")
        for _ in 0..<10 { try h.press("<Left>") }
        return (h, other)
    }

    @Test func drawingTwiceGivesTheSameFrameAndChangesNoState() throws {
        let (h, _) = try busyHarness()
        let before = h.state
        let screen = h.backend.lines
        var first = Frame(size: Size(width: 30, height: 8)), second = Frame(size: Size(width: 30, height: 8))
        h.app.render(into: &first)
        h.app.render(into: &second)
        #expect(first.buffer == second.buffer)
        #expect(first.cursor == second.cursor)
        #expect(h.state == before)
        h.draw()
        #expect(h.backend.lines == screen)
        h.expect(
            """
            Burrow
            › fox jumps over the lazy dog
             [ ] Item 26
             [ ] Item 27
             [ ] Item 28
             [ ] Item 29
             [ ] Item 30
                    Enter: add · Esc: done
            """)
        #expect(h.backend.cursor == Position(x: 19, y: 1))
    }

    /// Frames of other sizes (bigger, narrower, too small) are drawn for their size and leave the app as it
    /// was: the next frame at the app's size is the same as before, and keys still use the app's layout.
    @Test func drawingAtAnotherSizeChangesNothing() throws {
        let (h, _) = try busyHarness()
        let before = h.state
        let screen = h.backend.lines
        for size in [Size(width: 80, height: 30), Size(width: 26, height: 6), Size(width: 10, height: 3)] {
            var frame = Frame(size: size)
            h.app.render(into: &frame)
            #expect(h.state == before, "drawing at \(size) changed the app")
        }
        h.draw()
        #expect(h.backend.lines == screen)
        // Page keys move by the app's list (5 rows: 4 a page), not by the last frame drawn (28 rows).
        try h.press("<Esc> g")
        var big = Frame(size: Size(width: 80, height: 32))
        h.app.render(into: &big)
        try h.press("<PgDn>")
        #expect(h.app.top.list.selected == 4)
    }

    /// Rows changed by someone else between two frames (no key pressed) are drawn from the state as it is; the
    /// list scroll settles with the next event, as the frame showed it.
    @Test func aChangeElsewhereIsDrawnWithoutWritingState() throws {
        let (h, other) = try harness((1...12).map { "Item \($0)" }, width: 30, height: 8)
        try h.press("G")
        let root = try other.root()
        for _ in 0..<4 { try other.delete(try #require(try other.children(of: root).first)) }
        try other.save()
        let before = h.state
        h.draw()
        #expect(h.state == before)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Item 8
             [ ] Item 9
             [ ] Item 10
             [ ] Item 11
             [ ] Item 12
                             8/8 · ?: help
            """)
        try h.press("k")
        #expect(h.app.top.selectedRow?.title == "Item 11")
        #expect(h.backend.lines[2] == " [ ] Item 8")
    }
}
