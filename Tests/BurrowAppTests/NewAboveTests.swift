import Foundation
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// Items another process adds above the first row shown stay out of sight: the selection and the rows on
/// screen stay put, and the status line says how many arrived ("3 new above") until the user scrolls up to them.
struct NewAboveTests {
    private func item(_ o: Outline, _ title: String, under parent: String? = nil) throws -> Item {
        var level = try o.root()
        if let parent { level = try #require(try o.children(of: level).first { $0.title == parent }) }
        return try #require(try o.children(of: level).first { $0.title == title })
    }

    private let letters = (0..<12).map { String(UnicodeScalar(UInt8(ascii: "A") + UInt8($0))) }

    /// The level scrolled down to H; three items arrive at the top.
    private func scrolledWithThreeNew() throws -> (AppHarness, Outline) {
        let (h, other) = try AppHarness.withSecondContext(letters)
        try h.press("j j j j j j j")
        for (i, title) in ["X", "Y", "Z"].enumerated() { _ = try other.insert(title, into: try other.root(), at: i) }
        try other.save()
        h.tick()
        return (h, other)
    }

    @Test func itemsAddedAboveTheScreenStayOutOfSightAndAreCounted() throws {
        let (h, _) = try scrolledWithThreeNew()
        // As before they came (D to H, H selected), and said.
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] D
             [ ] E
             [ ] F
             [ ] G
             [ ] H
                       3 new above · 11/15 · ?: help
            """)
        #expect(h.app.top.selectedRow?.title == "H")
        // Keys that change nothing above keep it.
        try h.press("j k")
        #expect(h.app.top.newAbove.count == 3)
        // Scrolling up to them: each counts no more once on screen.
        try h.press("k k k k k k k k")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Z
             [ ] A
             [ ] B
             [ ] C
             [ ] D
                        2 new above · 3/15 · ?: help
            """)
        try h.press("k")
        #expect(h.app.top.newAbove.count == 1)
        try h.press("k")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] X
             [ ] Y
             [ ] Z
             [ ] A
             [ ] B
                                      1/15 · ?: help
            """)
    }

    @Test func aKeyThatGoesToTheTopClearsIt() throws {
        let (h, _) = try scrolledWithThreeNew()
        try h.press("g")
        #expect(h.app.top.newAbove.count == 0)
        #expect(h.app.top.selectedRow?.title == "X")
        // Going down again does not bring them back: they were seen.
        try h.press("G")
        #expect(h.app.top.newAbove.count == 0)
    }

    @Test func itemsAddedOnScreenOrBelowAreNotCounted() throws {
        let (h, other) = try AppHarness.withSecondContext(letters)
        try h.press("j j j j j j j")
        // Between the first row shown and the selection, and at the end.
        _ = try other.insert("V", after: try item(other, "E"))
        _ = try other.append("W", to: try other.root())
        try other.save()
        h.tick()
        #expect(h.app.top.newAbove.count == 0)
        #expect(h.app.top.selectedRow?.title == "H")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] E
             [ ] V
             [ ] F
             [ ] G
             [ ] H
                                      9/14 · ?: help
            """)
    }

    @Test func anArrivalDeletedOrMovedBelowCountsNoMore() throws {
        let (h, other) = try scrolledWithThreeNew()
        try other.delete(try item(other, "Y"))
        try other.save()
        h.tick()
        #expect(h.app.top.newAbove.count == 2)
        // Moved to the end of the level: below the screen now.
        try other.move(try item(other, "X"), after: try item(other, "L"))
        try other.save()
        h.tick()
        #expect(h.app.top.newAbove.count == 1)
        #expect(h.app.top.selectedRow?.title == "H")
        // Moved into another item: gone from the level.
        try other.move(try item(other, "Z"), to: try item(other, "A"), at: 0)
        try other.save()
        h.tick()
        #expect(h.app.top.newAbove.count == 0)
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] D
             [ ] E
             [ ] F
             [ ] G
             [ ] H
                                      8/13 · ?: help
            """)
    }

    @Test func itemsAddedToAnOpenListAboveTheScreenAreCounted() throws {
        let (h, other) = try AppHarness.withSecondContext(letters)
        _ = try other.append(titles: ["B1", "B2"], to: try item(other, "B"))
        try other.save()
        // B open, then down past it: its list is off screen (not live), read again when its length changes;
        // both arrivals are above the screen, whichever end of the list they went to.
        try h.press("j z o j j j j j j j j")
        #expect(h.app.top.selectedRow?.title == "H")
        _ = try other.insert("B0", into: try item(other, "B"), at: 0)
        _ = try other.append("B3", to: try item(other, "B"))
        try other.save()
        h.tick()
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] D
             [ ] E
             [ ] F
             [ ] G
             [ ] H
                       2 new above · 12/16 · ?: help
            """)
        try h.press("g")
        #expect(h.app.top.newAbove.count == 0)
    }

    @Test func itemsAddedToAnOpenListPartlyOnScreenAreCountedByRow() throws {
        let (h, other) = try AppHarness.withSecondContext(letters)
        _ = try other.append(titles: (1...6).map { "B\($0)" }, to: try item(other, "B"))
        try other.save()
        // B open; its rows B3 to B6 and C on screen, so its list is live. B0 arrives above the screen, B5½ on
        // it (pushing B3 off the top: the selection keeps its line, and B3 is not new).
        try h.press("j z o j j j j j j j")
        #expect(h.app.top.selectedRow?.title == "C")
        _ = try other.insert("B0", into: try item(other, "B"), at: 0)
        _ = try other.insert("B5½", after: try item(other, "B5", under: "B"))
        try other.save()
        h.tick()
        h.expect(
            """
            Burrow
            + Add to Burrow…
               [ ] B4
               [ ] B5
               [ ] B5½
               [ ] B6
             [ ] C
                       1 new above · 11/20 · ?: help
            """)
    }

    @Test func anArrivalDeletedFromAnOpenListScrolledPastCountsNoMore() throws {
        let (h, other) = try AppHarness.withSecondContext(letters)
        _ = try other.append(titles: (1...6).map { "B\($0)" }, to: try item(other, "B"))
        try other.save()
        try h.press("j z o j j j j j j j")
        _ = try other.insert("B0", into: try item(other, "B"), at: 0)
        try other.save()
        h.tick()
        #expect(h.app.top.newAbove.count == 1)
        // Down until B's list is off screen (no longer live), then B0 deleted elsewhere.
        try h.press("j j j j j j j")
        #expect(h.app.top.selectedRow?.title == "J")
        #expect(h.app.top.newAbove.count == 1)
        try other.delete(try item(other, "B0", under: "B"))
        try other.save()
        h.tick()
        #expect(h.app.top.newAbove.count == 0)
        #expect(h.app.top.selectedRow?.title == "J")
    }

    @Test func undoBringingBackAnItemAboveShowsIt() throws {
        let (h, _) = try AppHarness.withSecondContext(letters)
        try h.press("dd j j j j j j j j")
        #expect(h.app.top.selectedRow?.title == "J")
        try h.press("u")
        #expect(h.app.top.newAbove.count == 0)
    }

    @Test func aTerminalTooSmallThenGrownKeepsTheCount() throws {
        let (h, _) = try scrolledWithThreeNew()
        h.resize(10, 3)
        h.resize(40, 8)
        #expect(h.app.top.newAbove.count == 3)
        #expect(h.app.top.selectedRow?.title == "H")
    }

    @Test func aLevelOpenedAndLeftKeepsItsOwnCount() throws {
        let (h, other) = try scrolledWithThreeNew()
        _ = try other.append("H1", to: try item(other, "H"))
        try other.save()
        try h.press("l")
        #expect(h.app.top.newAbove.count == 0)
        h.expect(
            """
            Burrow › H
            + Add to H…
             [ ] H1




                                             ?: help
            """)
        try h.press("h")
        #expect(h.app.top.newAbove.count == 3)
    }
}
