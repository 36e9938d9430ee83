import ObjectGraph
import TerminalKit
import TestSupport
import Testing

@testable import BurrowApp
@testable import Outline

/// Random keys on an outline with open lists, while another context inserts (mostly near the top), deletes,
/// moves and folds: every item counted as new above is above the first row shown, as the store's tree
/// flattened puts it; an item inserted above the screen is counted, one inserted on it or below is not; and
/// the rows on screen stay put when only an insert above happened.
struct NewAboveRandomTests {
    static let keys = ["j", "k", "j", "k", "G", "g", "<PgDn>", "<PgUp>", "<C-d>", "<C-u>", "zo", "zc", "<Enter>", "h"]

    @Test(arguments: TestSeed.seeds([1, 2, 3]))
    func theCountIsAlwaysOfItemsAboveTheScreen(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store(inMemoryWith: OutlineModel.model)
        let outline = Outline(context: Context(store: store))
        for a in try outline.append(titles: (0..<30).map { "A\($0)" }, to: try outline.root()) where Int.random(in: 0..<3, using: &rng) == 0 {
            _ = try outline.append(titles: (0..<Int.random(in: 1...8, using: &rng)).map { "B\($0)" }, to: a)
        }
        try outline.save()
        let other = Outline(context: Context(store: store))
        let h = try AppHarness(width: 40, height: 10, outline: outline)
        var counter = 0
        for step in 0..<500 {
            let at = "\(rng.note), step \(step)"
            guard Int.random(in: 0..<3, using: &rng) == 0 else {
                try h.press(Self.keys.randomElement(using: &rng)!)
                try check(h, at)
                continue
            }
            let before = h.app.top.newAbove.count
            let firstShown = h.app.top.list.offset < h.app.top.count ? h.app.top.objectID(at: h.app.top.list.offset) : nil
            let level = h.app.top.parentID
            counter += 1
            let inserted = try otherEdit(other, level: level, title: "N\(counter)", &rng)
            h.tick()
            try check(h, at)
            guard let inserted, h.app.top.parentID == level else { continue }
            let flat = try flattened(h)
            let offset = h.app.top.list.offset
            if let row = flat.firstIndex(of: inserted), row < offset {
                #expect(h.app.top.newAbove.count == before + 1, "\(at): \(inserted) arrived above (row \(row) < \(offset)), not counted")
                if let firstShown { #expect(h.app.top.objectID(at: offset) == firstShown, "\(at): the rows on screen moved") }
            } else {
                #expect(h.app.top.newAbove.count == before, "\(at): \(inserted) arrived on screen or below, counted")
            }
        }
    }

    /// One random change elsewhere; the item it inserted, if it was an insert.
    private func otherEdit(_ o: Outline, level: ObjectID, title: String, _ rng: inout SeededRandom) throws -> ObjectID? {
        guard let parent = try o.context.existingObject(for: level) as? Item else { return nil }
        let children = try o.children(of: parent)
        var inserted: ObjectID?
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<5:
            // Near the top of the level, or of an open list in it.
            let open = children.filter(\.isExpanded)
            let into = Int.random(in: 0..<3, using: &rng) == 0 ? open.randomElement(using: &rng) ?? parent : parent
            let n = try o.children(of: into).count
            inserted = try o.insert(title, into: into, at: Int.random(in: 0...min(n, 3), using: &rng)).objectID
        case 5:
            inserted = try o.insert(title, into: parent, at: Int.random(in: 0...children.count, using: &rng)).objectID
        case 6:
            if let victim = children.randomElement(using: &rng) { try o.delete(victim) }
        case 7:
            if let item = children.randomElement(using: &rng) { try o.move(item, to: parent, at: 0) }
        default:
            if let item = children.filter({ $0.childCount > 0 }).randomElement(using: &rng) { item.isExpanded.toggle() }
        }
        try o.save()
        return inserted
    }

    /// The level on top as the store holds it: its tree flattened through open items.
    private func flattened(_ h: AppHarness) throws -> [ObjectID] {
        guard let parent = try h.outline.context.existingObject(for: h.app.top.parentID) as? Item else { return [] }
        var flat: [ObjectID] = []
        func walk(_ item: Item) throws {
            for child in try h.outline.children(of: item) {
                flat.append(child.objectID)
                if child.isExpanded { try walk(child) }
            }
        }
        try walk(parent)
        return flat
    }

    private func check(_ h: AppHarness, _ at: String) throws {
        let top = h.app.top
        let flat = try flattened(h)
        let offset = top.list.offset
        if offset == 0 { #expect(top.newAbove.count == 0, "\(at): new above at the top") }
        for arrivals in top.newAbove.lists.values {
            for id in arrivals.ids {
                let row = flat.firstIndex(of: id)
                #expect(row.map { $0 < offset } == true, "\(at): \(id) counted new above, at row \(String(describing: row)) (first shown \(offset))")
            }
        }
    }
}
