import ObjectGraph
import Outline
import TerminalKit
import Testing

@testable import BurrowApp

/// The open results of `/` follow commits made elsewhere: a new item that matches appears, a renamed hit is
/// redrawn (or leaves when it no longer matches), a deleted one goes, the count follows, and the chosen hit
/// stays chosen by ID (the nearest one when it is gone). Idle polls search nothing.
struct SearchRefreshTests {
    /// The title of the chosen hit in the open panel.
    private func chosen(_ h: AppHarness) -> String? {
        guard let panel = h.app.search.panel, let i = panel.list.selected, i < panel.hits.count else { return nil }
        return panel.hits[i].title
    }

    private func item(_ title: String, in o: Outline) throws -> ObjectID {
        try #require(try o.children(of: o.root()).first { $0.title == title }).objectID
    }

    @Test func aMatchAddedElsewhereAppearsAndTheChoiceStays() throws {
        let (h, theirs) = try AppHarness.withSecondContext(["Milk", "Eggs", "Oat milk", "Bread"])
        try h.press("/")
        h.type("milk")
        try h.press("<Down>")
        #expect(chosen(h) == "Oat milk")
        let milk = try item("Milk", in: theirs)
        _ = try theirs.perform("Add") { try theirs.insert("Almond MILK", before: milk) }
        h.tick()
        h.expect(
            """
            Burrow
            / milk
             Almond MILK
             Milk
             Oat milk


            3 matches          Enter: go · Esc: back
            """)
        #expect(chosen(h) == "Oat milk")
        // A commit that finds nothing new changes nothing on screen.
        let eggs = try item("Eggs", in: theirs)
        try theirs.perform("Done") { try theirs.setDone(eggs, to: true) }
        h.tick()
        #expect(chosen(h) == "Oat milk")
        #expect(h.app.statusText == "3 matches")
        try h.press("<Enter>")
        #expect(h.app.top.selectedRow?.title == "Oat milk")
        #expect(h.app.statusText == "“milk”: match 3 of 3 · n/N: next/previous")
    }

    @Test func renamedAndDeletedHitsLeaveTheNearestChosen() throws {
        let (h, theirs) = try AppHarness.withSecondContext(["Milk", "Oat milk", "Soy milk", "Eggs"])
        try h.press("/")
        h.type("milk")
        try h.press("<Down>")
        let oat = try item("Oat milk", in: theirs)
        try theirs.perform("Rename") { try theirs.rename(oat, to: "Oat MILK drink") }
        h.tick()
        h.expect(
            """
            Burrow
            / milk
             Milk
             Oat MILK drink
             Soy milk


            3 matches          Enter: go · Esc: back
            """)
        #expect(chosen(h) == "Oat MILK drink")
        // No longer found: the next hit after it is chosen.
        try theirs.perform("Rename") { try theirs.rename(oat, to: "Oat drink") }
        h.tick()
        h.expect(
            """
            Burrow
            / milk
             Milk
             Soy milk



            2 matches          Enter: go · Esc: back
            """)
        #expect(chosen(h) == "Soy milk")
        // The last one gone: the one before it.
        try theirs.perform("Delete") { try theirs.delete(try item("Soy milk", in: theirs)) }
        h.tick()
        #expect(chosen(h) == "Milk")
        #expect(h.app.statusText == "1 match")
        try theirs.perform("Delete") { try theirs.delete(try item("Milk", in: theirs)) }
        h.tick()
        h.expect(
            """
            Burrow
            / milk
             Nothing contains “milk”




            Nothing contains … Enter: go · Esc: back
            """)
        #expect(h.app.search.panel?.list.selected == nil)
        // Their undo brings one back, chosen as the only hit.
        _ = try theirs.context.undo()
        h.tick()
        #expect(chosen(h) == "Milk")
        #expect(h.app.statusText == "1 match")
        try h.press("<Enter>")
        #expect(h.app.top.selectedRow?.title == "Milk")
    }

    /// One commit takes the chosen hit away and adds one above it: the hit after it is chosen, not the one
    /// that is now at its position.
    @Test func theNearestHitIsFoundByIDNotPosition() throws {
        let (h, theirs) = try AppHarness.withSecondContext(["Milk", "Oat milk", "Soy milk", "Rice milk"])
        try h.press("/")
        h.type("milk")
        try h.press("<Down> <Down>")
        #expect(chosen(h) == "Soy milk")
        try theirs.perform("Edit") {
            _ = try theirs.insert("Almond milk", before: try item("Milk", in: theirs))
            try theirs.rename(try item("Soy milk", in: theirs), to: "Soy drink")
        }
        h.tick()
        h.expect(
            """
            Burrow
            / milk
             Almond milk
             Milk
             Oat milk
             Rice milk

            4 matches          Enter: go · Esc: back
            """)
        #expect(chosen(h) == "Rice milk")
        // The last hit and the one before it go at once: the nearest before them.
        try theirs.perform("Delete") {
            try theirs.delete(try item("Rice milk", in: theirs))
            try theirs.delete(try item("Oat milk", in: theirs))
        }
        h.tick()
        #expect(chosen(h) == "Milk")
        #expect(h.app.statusText == "2 matches")
    }

    @Test func idlePollsSearchNothingAndOneCommitSearchesOnce() throws {
        let (h, theirs) = try AppHarness.withSecondContext(["Milk", "Eggs"])
        try h.press("/")
        h.type("milk")
        let first = try #require(h.app.search.panel?.results)
        h.tick()
        h.tick()
        #expect(h.app.search.panel?.results === first)
        try theirs.perform("Add") { _ = try theirs.append("Milk again", to: try theirs.root().objectID) }
        h.tick()
        let second = try #require(h.app.search.panel?.results)
        #expect(second !== first)
        #expect(second.count == 2)
        h.tick()
        #expect(h.app.search.panel?.results === second)
        // Typing searches as before; Esc after a refresh still leaves the outline as it was.
        try h.press("<Esc>")
        #expect(h.app.search.panel == nil)
        #expect(h.app.breadcrumbs == ["Burrow"])
    }

    @Test func aChoiceScrolledFarDownIsKeptWhenHitsAboveGo() throws {
        let (h, theirs) = try AppHarness.withSecondContext((0..<12).map { "hit \($0)" })
        try h.press("/")
        h.type("hit")
        try h.press("<PageDown> <PageDown> <Down>")
        #expect(chosen(h) == "hit 9")
        try theirs.perform("Delete") {
            try theirs.delete(try item("hit 0", in: theirs))
            try theirs.delete(try item("hit 1", in: theirs))
        }
        h.tick()
        #expect(chosen(h) == "hit 9")
        #expect(h.app.statusText == "10 matches")
        h.expect(
            """
            Burrow
            / hit
             hit 5
             hit 6
             hit 7
             hit 8
             hit 9
            10 matches         Enter: go · Esc: back
            """)
    }

    @Test func changesWhileTheTerminalIsTooSmallShowWhenItGrows() throws {
        let (h, theirs) = try AppHarness.withSecondContext(["Milk", "Eggs"])
        try h.press("/")
        h.type("milk")
        h.resize(10, 3)
        try theirs.perform("Add") { _ = try theirs.append("milk\u{1b}]0;owned\u{7}", to: try theirs.root().objectID) }
        h.tick()
        try theirs.perform("Delete") { try theirs.delete(try item("Milk", in: theirs)) }
        h.tick()
        h.resize(40, 8)
        h.expect(
            """
            Burrow
            / milk
             milk^[]0;owned^G




            1 match            Enter: go · Esc: back
            """)
        #expect(chosen(h) == "milk\u{1b}]0;owned\u{7}")
    }
}
