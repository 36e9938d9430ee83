import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// Random fold, move and jump keys on a deep outline large enough that most open lists are off screen (not
/// live, or not read yet), with another context changing items, folds and done marks in between: after every
/// event the rows on screen must be the store's tree flattened, and the selection on its item's row.
struct FoldRandomTests {
    static let keys: [String] = [
        "j", "k", "G", "g", "<Enter>", "h", "<PgDn>", "<PgUp>", "<C-d>", "<C-u>", "zo", "zc", "za", "zR", "zM", "+", "-", "H", "<Space>"
    ]

    @Test(arguments: TestSeed.seeds([1, 2, 3]))
    func randomFoldingKeepsTheScreenTrue(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store(inMemoryWith: OutlineModel.model)
        let outline = Outline(context: Context(store: store))
        // 4 × 4 × 4 × 12: 1,104 items, 84 with sub-items.
        for a in try outline.append(titles: (0..<4).map { "A\($0)" }, to: try outline.root()) {
            for b in try outline.append(titles: (0..<4).map { "B\($0)" }, to: a) {
                for c in try outline.append(titles: (0..<4).map { "C\($0)" }, to: b) {
                    _ = try outline.append(titles: (0..<12).map { "D\($0)" }, to: c)
                }
            }
        }
        try outline.save()
        let other = Outline(context: Context(store: store))
        let h = try AppHarness(width: 40, height: 12, outline: outline)
        for step in 0..<600 {
            if Int.random(in: 0..<10, using: &rng) == 0 {
                let selected = h.app.top.selectedID
                let edit = try otherEdit(other, &rng)
                h.tick()
                // A change elsewhere never moves the selection off an item that is still shown.
                if let selected, try shown(h).contains(selected) {
                    #expect(h.app.top.selectedID == selected, "\(rng.note), step \(step): the selection left its item after \(edit)")
                }
            } else {
                try h.press(Self.keys.randomElement(using: &rng)!)
            }
            try check(h, "\(rng.note), step \(step)")
        }
    }

    /// The items the level on top shows, as the store holds them: its tree flattened through open items.
    private func shown(_ h: AppHarness) throws -> Set<ObjectID> {
        guard let parent = try h.outline.context.existingObject(for: h.app.top.parentID) as? Item else { return [] }
        var out = Set<ObjectID>()
        var pending = [parent]
        while let item = pending.popLast() {
            for child in try h.outline.children(of: item) where !(h.app.hidesDone && child.isDone) {
                out.insert(child.objectID)
                if child.isExpanded { pending.append(child) }
            }
        }
        return out
    }

    /// Saves one random change elsewhere, and says what it was.
    @discardableResult
    private func otherEdit(_ o: Outline, _ rng: inout SeededRandom) throws -> String {
        var item = try o.root()
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let n = item.childCount
            guard n > 0, let next = try o.child(of: item, at: Int.random(in: 0..<n, using: &rng)) else { break }
            item = next
        }
        let what: String
        switch Int.random(in: 0..<6, using: &rng) {
        case 5:
            what = "rename \(item.objectID)"
            if !item.isRoot { item.title = "Renamed \(Int.random(in: 0..<100, using: &rng))" }
        case 0:
            what = "fold \(item.objectID)"
            item.isExpanded.toggle()
        case 1:
            what = "done \(item.objectID)"
            item.isDone.toggle()
        case 2:
            what = "delete \(item.objectID)"
            if !item.isRoot { try o.delete(item) }
        case 3:
            what = "insert into \(item.objectID)"
            try o.insert("New", into: item, at: 0)
        default:
            what = "move \(item.objectID) first"
            if let parent = item.parent, !item.isRoot { try o.move(item, to: parent, at: 0) }
        }
        try o.save()
        return what
    }

    private func check(_ h: AppHarness, _ at: String) throws {
        let app = h.app, top = app.top
        let parent = try #require(try h.outline.context.existingObject(for: top.parentID) as? Item, "\(at)")
        func shown(_ item: Item) throws -> [Item] { try h.outline.children(of: item).filter { !(app.hidesDone && $0.isDone) } }
        var flat: [ObjectID] = []
        var depth: [Int] = []
        func walk(_ item: Item, _ d: Int) throws {
            for child in try shown(item) {
                flat.append(child.objectID)
                depth.append(d)
                if child.isExpanded { try walk(child, d + 1) }
            }
        }
        try walk(parent, 0)
        // Rows are read lazily: what is known is a prefix of the whole, and all of it once counted. Lists off
        // screen are not live, but a change to their length is taken in at once: the rows on screen are the
        // store's flattened tree at exactly those rows, each at its depth, and the count never lies.
        #expect(top.count <= flat.count, "\(at): more rows than the outline has")
        if let known = top.knownCount { #expect(known == flat.count, "\(at): counted \(known), the outline has \(flat.count)") }
        let height = app.layout.list.height
        let window = top.list.offset..<min(top.count, top.list.offset + height)
        for row in window where row < flat.count {
            let id = top.objectID(at: row)
            #expect(id == flat[row], "\(at): row \(row) shows \(String(describing: id)), the outline has \(flat[row])")
            #expect(top.depth(at: row) == depth[row], "\(at): row \(row) at the wrong depth")
        }
        if let row = top.list.selected {
            #expect(row < top.count, "\(at): selection past the end")
            #expect(top.selectedID == top.objectID(at: row), "\(at): selection off its item")
        }
    }
}
