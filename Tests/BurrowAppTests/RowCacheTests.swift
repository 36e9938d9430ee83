import Foundation
import ObjectGraph
import Testing

@testable import BurrowApp
@testable import Outline

/// The level's rows are drawn once and copied while nothing they show changes: a key that scrolls draws the
/// row that came into view, and a row whose item, cut, depth or width changed is drawn again.
struct RowCacheTests {
    @Test func aScrollDrawsOnlyTheRowThatCameIntoView() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        try o.append(titles: (0..<200).map { "Item \($0)" }, to: try o.root())
        try o.save()
        let h = try AppHarness(width: 30, height: 8, outline: o)
        try h.press("j j j j j j")
        var perKey: [Int] = [], readPerKey: [Int] = []
        for step in 0..<150 {
            let before = h.app.rowCache.drawn
            let handedBack = h.app.rowCache.handedBack
            try h.press(step < 100 ? "j" : "k")
            perKey.append(h.app.rowCache.drawn - before)
            readPerKey.append(5 - (h.app.rowCache.handedBack - handedBack))
            // What is on screen is the level, in order, with the selected row among the rows.
            let shown = h.backend.lines[2..<7].compactMap { line -> Int? in
                line.split(separator: " ").last.flatMap { Int($0) }
            }
            #expect(shown.count == 5 && shown == Array(shown[0]..<shown[0] + 5), "step \(step): \(h.backend.lines)")
        }
        // Going down past the bottom, each key brings one row into view; going up, rows kept from before.
        #expect(perKey.filter { $0 > 1 }.isEmpty, "\(perKey)")
        #expect(perKey.reduce(0, +) >= 90, "\(perKey)")
        // Nor are the rows kept read from their objects again (nothing was saved meanwhile): of the five rows
        // shown, the one that came into view is.
        #expect(readPerKey.allSatisfy { $0 <= 1 }, "\(readPerKey)")
    }

    @Test func aRowIsDrawnAgainWhenWhatItShowsChanges() throws {
        let (h, other) = try AppHarness.withSecondContext(["Milk", "Eggs", "Bread"])
        #expect(Array(h.backend.lines[2..<5]).map { $0.trimmingCharacters(in: .whitespaces) } == ["[ ] Milk", "[ ] Eggs", "[ ] Bread"])
        let eggs = try #require(try other.children(of: try other.root()).first { $0.title == "Eggs" }).objectID
        // Renamed and done elsewhere: the same item, new values.
        try other.perform {
            try other.rename(eggs, to: "Free-range eggs from the farm")
            try other.setDone(eggs, to: true)
        }
        _ = h.app.poll()
        h.draw()
        #expect(h.backend.lines[3] == " [x] Free-range eggs from the farm", "\(h.backend.lines)")
        // Cut: the same values, now marked.
        try h.press("j m")
        #expect(h.backend.lines[3] == "✂[x] Free-range eggs from the farm", "\(h.backend.lines)")
        // Narrower: every row drawn again at the new width.
        h.resize(24, 8)
        #expect(h.backend.lines[3] == "✂[x] Free-range eggs fr…", "\(h.backend.lines)")
    }

    /// An item below the screen renamed elsewhere after the level has scrolled past its first screen shows
    /// its new title when it scrolls into view. (Written for `ContextTests.aRowReadAheadAndChangedElsewhere…`:
    /// the level's rows do not come from a fetch result's read-ahead batch, so this passed before that fix too.)
    @Test func aRowReadAheadAndRenamedElsewhereShowsItsNewTitle() throws {
        let (h, other) = try AppHarness.withSecondContext((0..<80).map { "Item \($0)" })
        // Past the first screen: the rows below it are read ahead.
        for _ in 0..<30 { try h.press("j") }
        #expect(!h.backend.lines.contains { $0.contains("Item 60") })
        let far = try #require(try other.children(of: try other.root()).first { $0.title == "Item 60" }).objectID
        try other.perform { try other.rename(far, to: "Renamed elsewhere") }
        _ = h.app.poll()
        h.draw()
        for _ in 0..<30 { try h.press("j") }
        #expect(h.backend.lines.contains { $0.contains("Renamed elsewhere") }, "\(h.backend.lines)")
        #expect(!h.backend.lines.contains { $0.contains("Item 60") }, "\(h.backend.lines)")
    }

    /// Settling the level after a key reads the open lists that came into view and stops when a round reads
    /// none: with nothing open, two passes a key (the settle's own and the round that finds nothing), not the
    /// nine every key ran when the rounds were written as `for … where`.
    @Test func aKeyWithNothingOpenSettlesInTwoPasses() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        try o.append(titles: (0..<100).map { "Item \($0)" }, to: try o.root())
        try o.save()
        let h = try AppHarness(width: 30, height: 8, outline: o)
        var perKey: [Int] = []
        for _ in 0..<30 {
            let before = h.app.top.settlePasses
            try h.press("j")
            perKey.append(h.app.top.settlePasses - before)
        }
        #expect(perKey.allSatisfy { $0 <= 2 }, "\(perKey)")
    }

    /// Lists scrolled past stay live only up to `Level.liveOffScreen` of them (a pass with fewer live lists
    /// skips the reckoning): every fold open, 60 lists walked through from the top to the bottom.
    @Test func listsScrolledPastAreRetiredBeyondTheKeptOnes() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        let top = try o.append(titles: (0..<60).map { "Group \($0)" }, to: try o.root())
        for id in top { _ = try o.append(titles: ["A", "B"], to: id) }
        try o.save()
        let h = try AppHarness(width: 30, height: 8, outline: o)
        try h.press("zR")
        var most = 0
        for _ in 0..<190 {
            try h.press("j")
            most = max(most, h.app.top.liveLists.count)
        }
        #expect(h.backend.lines.contains { $0.contains("Group 59") }, "\(h.backend.lines)")
        // The root, the lists on the screen's five rows, and the kept ones.
        #expect(most > Level.liveOffScreen && most <= 1 + 5 + Level.liveOffScreen, "\(most)")
    }
}
