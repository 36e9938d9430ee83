import BurrowSettings
import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// Thousands of random key presses, pastes, clicks and resizes, with another context changing the outline
/// in between: the outliner must never crash, and after every event its state must hold together.
struct RandomInputTests {
    /// Every binding of the keymap (sequences such as `zo` whole, and their first keys alone), and keys
    /// that edit text.
    static let keys: [[TerminalKit.Key]] =
        Keymap.default.bindings.flatMap(\.sequences).filter { $0 != [.ctrl("c")] && $0 != [.character("q")] }
        + Keymap.default.bindings.flatMap(\.sequences).filter { $0.count > 1 }.map { [$0[0]] }
        + ["x", "é", "日", " ", "\u{1B}", "\t"].map { [TerminalKit.Key.character(Character($0))] }
        + [.enter, .escape, .backspace, .ctrl("w"), .ctrl("u"), .left, .right, .home, .end, Key.alt("b")].map { [$0] }

    @Test(arguments: TestSeed.seeds([1, 2, 3, 4]))
    func randomSessionsNeverBreakTheOutliner(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store(inMemoryWith: OutlineModel.model)
        let outline = Outline(context: Context(store: store))
        try outline.append(titles: (0..<30).map { "Item \($0)" }, to: try outline.root())
        try outline.save()
        let other = Outline(context: Context(store: store))
        let h = try AppHarness(width: 40, height: 10, outline: outline)
        for step in 0..<1500 {
            let roll = Int.random(in: 0..<100, using: &rng)
            switch roll {
            case 0..<85:
                for key in Self.keys.randomElement(using: &rng)! { h.send(.key(key)) }
            case 85..<88:
                h.send(.paste(["one\ntwo", "x", "a\u{1B}[2Jb", ""].randomElement(using: &rng)!))
            case 88..<90:
                h.send(
                    .mouse(
                        MouseEvent(
                            kind: [.press(button: 1), .wheelUp, .wheelDown].randomElement(using: &rng)!,
                            position: Position(x: Int.random(in: 0..<40, using: &rng), y: Int.random(in: 0..<10, using: &rng)))))
            case 90..<92:
                let w = Int.random(in: 1..<60, using: &rng), ht = Int.random(in: 1..<16, using: &rng)
                h.backend.resize(width: w, height: ht)
                h.send(.resize(Size(width: w, height: ht)))
            default:
                try otherEdit(other, &rng)
                h.tick()
            }
            try check(h, "\(rng.note), step \(step)")
        }
    }

    /// A random change saved by the other context: add, delete, move or rename somewhere in the outline.
    private func otherEdit(_ o: Outline, _ rng: inout SeededRandom) throws {
        var level = try o.root()
        while level.childCount > 0, Bool.random(using: &rng) {
            guard let next = try o.child(of: level, at: Int.random(in: 0..<level.childCount, using: &rng)) else { break }
            level = next
        }
        let n = level.childCount
        switch Int.random(in: 0..<6, using: &rng) {
        case 4:
            // Another process folds an item open or closed.
            if n > 0, let c = try o.child(of: level, at: Int.random(in: 0..<n, using: &rng)) { c.isExpanded.toggle() }
        case 5: if n > 0, let c = try o.child(of: level, at: Int.random(in: 0..<n, using: &rng)) { c.isDone.toggle() }
        case 0: try o.insert("Other \(Int.random(in: 0..<1000, using: &rng))", into: level, at: Int.random(in: 0...n, using: &rng))
        case 1: if n > 0, let c = try o.child(of: level, at: Int.random(in: 0..<n, using: &rng)) { try o.delete(c) }
        case 2: if n > 1, let c = try o.child(of: level, at: 0) { try o.move(c, to: level, at: n - 1) }
        default: if !level.isRoot { level.title = "Renamed \(Int.random(in: 0..<1000, using: &rng))" }
        }
        try o.save()
    }

    /// What must hold after every event.
    private func check(_ h: AppHarness, _ at: String) throws {
        let app = h.app
        #expect(app.isRunning, "\(at): stopped")
        #expect(h.backend.unsafeCellsReceived == 0, "\(at): a control character reached the terminal")
        let rootID = try h.outline.root().objectID
        #expect(!app.stack.isEmpty && app.stack[0].parentID == rootID, "\(at): lost the top level")
        let top = app.top
        #expect(!top.isGone, "\(at): the level on screen is gone")
        // The level's own list is what the store holds, and so is every open list that is live.
        let parent = try #require(try h.outline.context.existingObject(for: top.parentID) as? Item, "\(at): the level's item is gone")
        func shown(_ item: Item) throws -> [Item] { try h.outline.children(of: item).filter { !(app.hidesDone && $0.isDone) } }
        // A view (the agenda, a tag's items) shows what its request fetches, with no list open in it.
        let viewed = top.view == nil ? nil : try h.outline.context.fetch(top.request(for: top.parentID)).map(\.objectID)
        #expect(top.controller.objectIDs == (try viewed ?? shown(parent).map(\.objectID)), "\(at): the level differs from the store")
        for id in top.openLists where top.view == nil || id != top.parentID {
            guard let node = top.node(of: id), let c = node.controller,
                let item = try h.outline.context.existingObject(for: id) as? Item
            else { continue }
            #expect(c.objectIDs == (try shown(item).map(\.objectID)), "\(at): an open list differs from the store")
        }
        // The rows on screen are the store's tree flattened (open items' sub-items beneath them), from
        // wherever the first one is.
        var flat: [ObjectID] = []
        func walk(_ item: Item) throws {
            for child in try shown(item) {
                flat.append(child.objectID)
                if child.isExpanded { try walk(child) }
            }
        }
        if let viewed { flat = viewed } else { try walk(parent) }
        // While the terminal is too small nothing is drawn or scrolled: only the selected row's list is read.
        let window = app.layout.isTooSmall ? 0..<0 : min(top.list.offset, top.count)..<min(top.count, top.list.offset + app.layout.list.height)
        let onScreen = window.compactMap { top.objectID(at: $0) }
        #expect(onScreen.count == window.count, "\(at): a row on screen is in a list that is not live")
        if let first = onScreen.first, let start = flat.firstIndex(of: first) {
            let expected: [ObjectID] = Array(flat[start..<min(flat.count, start + onScreen.count)])
            #expect(expected == onScreen, "\(at): the rows on screen are not the outline")
        } else {
            #expect(onScreen.isEmpty, "\(at): the first row on screen is not in the outline")
        }
        if let row = top.list.selected {
            #expect(row < top.count, "\(at): selection past the end")
            #expect(top.selectedID == top.objectID(at: row), "\(at): selection off its item")
        } else {
            #expect(top.count == 0 || top.selectedID == nil, "\(at): nothing selected in a non-empty level")
        }
        if let cursor = h.backend.cursor { #expect(h.backend.size.width > cursor.x && h.backend.size.height > cursor.y, "\(at)") }
    }
}
