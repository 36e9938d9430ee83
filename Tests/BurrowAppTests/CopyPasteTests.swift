import Foundation
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// `y` copies the selection with its sub-items (and puts it on the system clipboard with OSC 52), `p` / `P`
/// paste below / above the selected item: a copy after `y`, a move after `m`; each paste one undoable action.
@Suite struct CopyPasteTests {
    /// Burrow › Groceries (note; Milk › Oat, Eggs done), Work; the app beside a second outline on the store.
    private func harness(width: Int = 40, height: Int = 8) throws -> (AppHarness, Outline) {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        let top = try o.append(titles: ["Groceries", "Work"], to: try o.root())
        top[0].note = "Saturday"
        let subs = try o.append(titles: ["Milk", "Eggs"], to: top[0])
        subs[1].isDone = true
        try o.append("Oat", to: subs[0])
        try o.save()
        return (try AppHarness(width: width, height: height, outline: o), Outline(context: Context(store: store)))
    }

    /// The whole outline, straight from the store: `*` done, `¶` a note.
    private func tree(_ o: Outline) throws -> [String] {
        try o.subtree(under: o.root()).map {
            String(repeating: "  ", count: $0.depth) + $0.title + ($0.isDone ? " *" : "") + ($0.note == nil ? "" : " ¶")
        }
    }

    private let start = ["Groceries ¶", "  Milk", "    Oat", "  Eggs *", "Work"]

    @Test func copyThenPasteBelowAndAboveAsUndoableSteps() throws {
        let (h, _) = try harness()
        try h.press("y")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶                    2 ›
             [ ] Work



            Copied “Groceries” a… p: paste · ?: help
            """)
        #expect(h.app.statusText == "Copied “Groceries” and 3 sub-items · p/P: paste")
        #expect(try tree(h.outline) == start, "copying changes nothing")
        try h.press("j p")
        h.expect(
            """
            Burrow
            + Add to Burrow…
             [ ] Groceries ¶                    2 ›
             [ ] Work
             [ ] Groceries ¶                    2 ›


            Pasted a copy of “Groceries” an… ?: help
            """)
        #expect(h.app.statusText == "Pasted a copy of “Groceries” and 3 sub-items · u: undo")
        #expect(h.app.top.list.selected == 2, "the copy is selected")
        // The register stays: P pastes another copy above the selection (the first copy).
        try h.press("P")
        #expect(try tree(h.outline) == start + ["Groceries ¶", "  Milk", "    Oat", "  Eggs *", "Groceries ¶", "  Milk", "    Oat", "  Eggs *"])
        #expect(h.app.top.list.selected == 2, "the new copy, above the first")
        #expect(try h.outline.check().isEmpty)
        let copies = try h.outline.children(of: h.outline.root()).map(\.objectID)
        #expect(Set(copies).count == 4, "copies are new items")
        try h.press("u")
        #expect(h.app.statusText == "Undid: Paste a copy of “Groceries” and 3 sub-items")
        try h.press("u")
        #expect(try tree(h.outline) == start, "undo restores exactly")
        try h.press("<C-r>")
        #expect(try tree(h.outline) == start + ["Groceries ¶", "  Milk", "    Oat", "  Eggs *"])
    }

    /// Paste goes among the selected item's own siblings, whatever level the copy came from.
    @Test func aCopyFromAnotherLevelPastesBesideTheSelection() throws {
        let (h, _) = try harness()
        try h.press("l y")
        #expect(h.app.statusText == "Copied “Milk” and 1 sub-item · p/P: paste")
        #expect(h.backend.clipboard == ["Milk\n  Oat\n"])
        try h.press("h j P")
        #expect(try tree(h.outline) == ["Groceries ¶", "  Milk", "    Oat", "  Eggs *", "Milk", "  Oat", "Work"])
        #expect(h.app.top.selectedRow?.title == "Milk")
    }

    /// A copy pasted inside itself copies what was there before the paste: no copy of the copy, no end.
    @Test func aCopyPastedIntoItsOwnSubtree() throws {
        let (h, _) = try harness()
        try h.press("y l p")
        #expect(
            try tree(h.outline) == [
                "Groceries ¶", "  Milk", "    Oat", "  Groceries ¶", "    Milk", "      Oat", "    Eggs *", "  Eggs *", "Work"
            ])
        #expect(try h.outline.check().isEmpty)
        try h.press("u")
        #expect(try tree(h.outline) == start)
    }

    /// The copied item deleted by another window before the paste: said, nothing recorded, the register empties.
    @Test func aCopyWhoseItemWasDeletedMeanwhile() throws {
        let (h, other) = try harness()
        try h.press("y")
        try other.perform("Delete “Groceries”") { try other.delete(try other.item(at: "Groceries").objectID) }
        h.tick()
        let steps = h.outline.context.undoHistory.undoCount
        try h.press("p")
        #expect(h.app.statusText == "Nothing to paste: “Groceries” no longer exists (it was deleted elsewhere)")
        #expect(try tree(h.outline) == ["Work"])
        #expect(h.outline.context.undoHistory.undoCount == steps)
        try h.press("p")
        #expect(h.app.statusText == "Nothing to paste: y copies, m cuts")
    }

    /// Of several items in the register, one deleted meanwhile is left out and named; the rest are pasted.
    @Test func severalItemsOneDeletedMeanwhile() throws {
        let (h, other) = try harness()
        let groceries = try h.outline.item(at: "Groceries").objectID
        let work = try h.outline.item(at: "Work").objectID
        let eggs = try h.outline.item(at: "Groceries/Eggs").objectID
        // As a visual range would leave it: Eggs is inside Groceries, so it goes with it, not again.
        h.app.clipboard.register = Register(kind: .copy, items: [(work, "Work"), (groceries, "Groceries")])
        try other.perform("Delete “Work”") { try other.delete(work) }
        h.tick()
        try h.press("p")
        #expect(h.app.statusText == "Pasted a copy of “Groceries” and 3 sub-items (“Work” was deleted meanwhile) · u: undo")
        #expect(try tree(h.outline) == start.dropLast() + ["Groceries ¶", "  Milk", "    Oat", "  Eggs *"])
        // Cut several, with one inside another: only the outermost moves, below the selection.
        try h.press("g")
        h.app.clipboard.register = Register(kind: .cut, items: [(eggs, "Eggs"), (groceries, "Groceries")])
        try h.press("j p")
        #expect(h.app.statusText == "Moved “Groceries” to “Burrow”")
        #expect(try tree(h.outline) == ["Groceries ¶", "  Milk", "    Oat", "  Eggs *", "Groceries ¶", "  Milk", "    Oat", "  Eggs *"])
        #expect(try h.outline.children(of: h.outline.root()).last?.objectID == groceries, "it went below the copy")
    }

    @Test func cutThenPasteAboveMovesIt() throws {
        let (h, _) = try harness()
        try h.press("j m")
        #expect(h.app.statusText == "Cut “Work”: open another level and press p to move it there")
        try h.press("k P")
        #expect(try tree(h.outline) == ["Work", "Groceries ¶", "  Milk", "    Oat", "  Eggs *"])
        #expect(h.app.statusText == "Moved “Work” to “Burrow”")
        try h.press("p")
        #expect(h.app.statusText == "Nothing to paste: y copies, m cuts", "a cut is pasted once")
        try h.press("u")
        #expect(try tree(h.outline) == start)
    }

    /// `y` sends the text as OSC 52: titles from the store, hostile bytes made visible inside the base64, so
    /// pasting it cannot run anything; only base64 between the sequence's start and its end.
    @Test func theClipboardGetsSafeIndentedTextAsOSC52() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let evil = try o.append("  Evil\u{1B}]52;c;AAAA\u{07}\nrm -rf ~\r\tend", to: try o.root())
        try o.append(titles: ["Child ✓", "日本"], to: evil)
        try o.save()
        let h = try AppHarness(width: 40, height: 8, outline: o)
        try h.press("y")
        let text = "Evil^[]52;c;AAAA^G rm -rf ~  end\n  Child ✓\n  日本\n"
        #expect(h.backend.clipboard == [text])
        let bytes = h.backend.clipboardBytes
        let head = Array("\u{1B}]52;c;".utf8), tail = Array("\u{1B}\\".utf8)
        #expect(Array(bytes.prefix(head.count)) == head && Array(bytes.suffix(tail.count)) == tail)
        let body = bytes.dropFirst(head.count).dropLast(tail.count)
        #expect(
            body.allSatisfy {
                $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || "+/=".utf8.contains($0))
            })
        #expect(Data(base64Encoded: Data(body)).map { String(decoding: $0, as: UTF8.self) } == text)
        // What it pastes reads back as the same outline (the capture line keeps the nesting).
        #expect(try IndentedText.read(text).map(\.children.count) == [2])
        #expect(h.backend.unsafeCellsReceived == 0)
    }

    @Test func theClipboardCanBeTurnedOffAndALargeCopyStaysInTheApp() throws {
        let (h, _) = try harness()
        h.app.allowsClipboard = false
        try h.press("y")
        #expect(h.backend.clipboard.isEmpty)
        #expect(h.app.statusText == "Copied “Groceries” and 3 sub-items · p/P: paste")
        h.app.allowsClipboard = true
        // 1,000 items of 120 characters: more than the clipboard takes.
        let long = String(repeating: "x", count: 120)
        try h.outline.add([OutlineNode("Big", children: (0..<1000).map { OutlineNode("\($0) \(long)") })], under: try h.outline.root())
        try h.outline.save()
        h.tick()
        try h.press("G y")
        #expect(h.app.statusText == "Copied “Big” and 1000 sub-items (too large for the system clipboard) · p/P: paste")
        #expect(h.backend.clipboard.isEmpty)
        try h.press("p")
        #expect(try h.outline.descendantCount(of: h.outline.root()) == 5 + 2 * 1001)
    }

    @Test func nothingSelectedNothingCopied() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let h = try AppHarness(width: 40, height: 8, outline: o)
        try h.press("y")
        #expect(h.app.statusText == "Nothing to copy here")
        try h.press("m")
        #expect(h.app.statusText == "Nothing to cut here")
        try h.press("M")
        #expect(h.app.statusText == "Nothing to move here")
        try h.press("P")
        #expect(h.app.statusText == "Nothing to paste: y copies, m cuts")
    }

    /// Pasting into an empty level puts the copy there; in a tiny terminal the keys are refused, not lost.
    @Test func pasteIntoAnEmptyLevelAndATinyTerminal() throws {
        let (h, _) = try harness()
        try h.press("j y l p")
        #expect(try tree(h.outline) == start + ["  Work"])
        h.resize(20, 4)
        try h.press("p")
        #expect(h.app.statusText == "Keys did nothing: the terminal was too small")
        #expect(try tree(h.outline) == start + ["  Work"])
    }
}
