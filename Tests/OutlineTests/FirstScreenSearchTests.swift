import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// A search made for a first screen (`Outline.find(_:firstScreen:)`): the walk through the outline tests
/// each page of siblings through the parts of the index that hold them, and the count follows. Checked
/// against the search that counts at once, on random outlines whose order is not the order of IDs, for words
/// in a third of the items down to none, through the store's index read from the file and held in memory.
@Suite struct FirstScreenSearchTests {
    @Test(arguments: TestSeed.seeds([71, 72, 73])) func aFirstScreenIsTheSearchsOwnAndItsCountFollows(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let dir = TemporaryDirectory("burrow-first-screen")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        let o = try Outline(path: path)
        let root = try o.root().objectID
        var n = 0
        func title() -> String {
            n += 1
            var words = ["item \(n)"]
            if rng.below(3) == 0 { words.append("garden") }
            if rng.below(40) == 0 { words.append("Zürich") }
            if rng.below(500) == 0 { words.append("qoph") }
            return words.shuffled(using: &rng).joined(separator: " ")
        }
        func node(depth: Int) -> OutlineNode {
            let kids = depth > 2 || rng.below(3) > 0 ? 0 : rng.below(depth == 0 ? 150 : 20)
            return OutlineNode(
                title(), note: rng.below(9) == 0 ? "a note with garden" : nil, children: (0..<kids).map { _ in node(depth: depth + 1) })
        }
        let nodes = (0..<(8 + rng.below(12))).map { _ in node(depth: 0) }
        _ = try o.perform("Import") { try o.add(nodes, under: root) }
        // Out of ID order: leaves moved before other items, and new items put before older ones.
        let all = try o.context.fetch(FetchRequest(Item.entityName)).compactMap { $0 as? Item }.filter { $0.objectID != root }
        let leaves = all.filter { $0.childCount == 0 }
        for _ in 0..<40 {
            let leaf = leaves.randomElement(using: &rng)!.objectID, other = all.randomElement(using: &rng)!.objectID
            guard leaf != other else { continue }
            _ = try o.perform("Move") { try o.move(leaf, before: other) }
        }
        for k in 0..<20 {
            let other = all.randomElement(using: &rng)!.objectID
            _ = try o.perform("New") { try o.insert("garden new \(k)", before: other) }
        }
        // A copy without its index (dropped while open, as in `FullTextSearchTests`): every search reads rows,
        // a page of the walk by its IDs.
        o.context.store.checkpoint()
        let copy = dir.path() + "-copy"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let unindexed = try Outline(path: copy)
        try unindexed.context.store.read { db in try db.execute(sql: "DROP TABLE og_text_Item") }
        var pendingUnindexed = 0
        var pending = 0, pendingHeld = 0, countedAtOnce = 0, held = 0, readMoreBeforeCount = 0
        for query in ["garden", "zurich", "qoph", "nowhere", "e", "ITEM 1"] {
            let full = try o.find(query)
            try full.loadAll()
            let expected = full.ordered
            #expect(full.count == expected.count)
            for (screen, budget) in [(1, 16), (10, 64), (40, 1_024), (40, 64), (200, 300)] {
                // A new connection (the index read from the file) and the one that searched before (held).
                for outline in [try Outline(path: path), o, unindexed] {
                    let store = try #require(outline.context.store.backend as? SQLiteStore)
                    let entity = try outline.context.entity(named: Item.entityName).index
                    let r = try SearchResults(outline: outline, query: query, firstScreen: screen, budget: budget)
                    let isHeld = store.textIndexCaches[entity] != nil
                    if isHeld { held += 1 }
                    #expect(r.ordered == Array(expected.prefix(r.ordered.count)), "“\(query)” \(screen)/\(budget), \(rng.note)")
                    #expect(r.ordered.count >= min(screen, expected.count))
                    if r.isCounted {
                        countedAtOnce += 1
                        #expect(r.count == expected.count)
                    } else {
                        pending += 1
                        if isHeld { pendingHeld += 1 }
                        if outline === unindexed { pendingUnindexed += 1 }
                        #expect(r.ordered.count >= screen && r.count == r.ordered.count && !r.isComplete)
                        // Read on before the count, as scrolling does.
                        try r.load(upTo: screen * 2 + 5)
                        if !r.isCounted { readMoreBeforeCount += 1 }
                        #expect(r.ordered == Array(expected.prefix(r.ordered.count)))
                        #expect(r.ordered.count >= min(screen * 2 + 5, expected.count))
                    }
                    try r.countAll()
                    #expect(r.isCounted && r.count == expected.count, "“\(query)” \(screen)/\(budget)")
                    try r.load(upTo: screen * 4)
                    #expect(r.ordered == Array(expected.prefix(r.ordered.count)))
                    try r.loadAll()
                    #expect(r.isComplete && r.ordered == expected && r.count == expected.count, "“\(query)” \(screen)/\(budget)")
                }
            }
        }
        // The cases under test must happen: first screens whose count followed, read on before it, and the
        // walk's pages tested through a held index and through the file.
        print(
            "first screens (seed \(seed), \(n + 20) items): \(pending) counted after (\(pendingHeld) with the index held, \(pendingUnindexed) without an index), \(readMoreBeforeCount) read on before it, \(countedAtOnce) at once, \(held) of 90 with the index held"
        )
        #expect(
            pending >= 18 && pendingHeld >= 6 && pendingUnindexed >= 6 && pending - pendingHeld - pendingUnindexed >= 6 && countedAtOnce >= 12
                && readMoreBeforeCount >= 8 && held >= 20
                && held <= 50)
    }

    /// A walk through a long level reads each of its items once: pages follow the last order key read (ties
    /// by ID), not an offset from the level's start, which read the level again for every page (`burrow
    /// find` of a word in a ninth of a million siblings took 92 s). Equal order keys across a page's end (an
    /// order key shared by many siblings, as a damaged or merged store may have) are neither lost nor repeated.
    @Test(arguments: [false, true]) func aLongLevelIsWalkedOnceInOrder(sharedKeys: Bool) throws {
        let dir = TemporaryDirectory("burrow-long-level")
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: dir.path())
        let root = try o.root().objectID
        let n = 12 * SearchResults.pageSize + 17
        _ = try o.perform("Import") { try o.add((0..<n).map { OutlineNode("hit \($0)\($0 % 9 == 0 ? " garden" : "")") }, under: root) }
        if sharedKeys {
            // Runs of 300 siblings with one key each, longer than a page: ties are read by ID.
            try o.context.store.read { db in try db.execute(sql: "UPDATE Item SET \"order\" = 'b' || (id / 300) WHERE parent IS NOT NULL") }
            o.context.reset()
        }
        let level = try o.context.fetchValues(Outline.level(of: root), keys: ["title"])
        for query in ["hit", "garden"] {
            let skipped = o.context.statistics.rowsSkipped
            let results = try o.find(query, firstScreen: 40)
            try results.loadAll()
            let want = level.filter { row in
                if case .string(let title) = row.values[0] { return title.contains(query) }
                return false
            }.map(\.id)
            #expect(results.ordered == want, "\(query): every hit once, in the level's order")
            #expect(results.count == want.count)
            let extra = o.context.statistics.rowsSkipped - skipped
            // A page starts at the last key read and steps past the siblings read with it: the last one, or a
            // run of up to 300 siblings sharing it.
            let pages = n / SearchResults.pageSize + 1
            #expect(extra <= pages * (sharedKeys ? 300 : 1), "\(query): \(extra) rows stepped past by offset")
        }
    }
}
