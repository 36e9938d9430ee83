import Foundation
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// `check` finds each kind of damage an older program, another tool or a crash could leave, and `repair`
/// fixes what can be derived without losing an item.
@Suite struct CheckTests {
    /// A file outline: Groceries (Milk, Eggs), Work (Mail), Ideas.
    func outline() throws -> (Outline, TemporaryDirectory) {
        let dir = TemporaryDirectory("burrow-check")
        let o = try Outline(path: dir.path())
        let root = try o.root()
        let top = try o.append(titles: ["Groceries", "Work", "Ideas"], to: root)
        try o.append(titles: ["Milk", "Eggs"], to: top[0])
        try o.append("Mail", to: top[1])
        try o.save()
        return (o, dir)
    }

    /// Writes behind the outline's back, with foreign keys off (as another tool might).
    func damage(_ o: Outline, _ sql: String) throws {
        try o.context.store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: sql)
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        o.context.refreshAll()
    }

    @Test func anIntactOutlineHasNoProblems() throws {
        let (o, dir) = try outline()
        defer { withExtendedLifetime(dir) {} }
        #expect(try o.check() == [])
        let steps = o.context.undoHistory.undoCount
        #expect(try o.repair() == [])
        #expect(o.context.undoHistory.undoCount == steps)  // nothing to repair, nothing recorded
    }

    @Test func eachDamageIsFoundAndRepairedWithoutLosingAnItem() throws {
        let table: [(String, String, [String])] = [
            (
                "stale count", "UPDATE Item SET childCount = 7 WHERE title = 'Groceries'",
                ["#2 “Groceries” stores 7 sub-items but has 2"]
            ),
            (
                "repeated keys", "UPDATE Item SET \"order\" = 'a0' WHERE title IN ('Work', 'Ideas')",
                ["#1 “Burrow” has sub-items that share an order key (a0)"]
            ),
            (
                "invalid key", "UPDATE Item SET \"order\" = '' WHERE title = 'Eggs'",
                ["#6 “Eggs” has an invalid order key “”"]
            ),
            (
                "orphan with a sub-item", "UPDATE Item SET parent = NULL WHERE title = 'Work'",
                ["#1 “Burrow” stores 3 sub-items but has 2", "#3 “Work” and 1 sub-item cannot be reached from the top: it has no parent"]
            ),
            (
                "missing parent", "UPDATE Item SET parent = 999 WHERE title = 'Ideas'",
                ["#1 “Burrow” stores 3 sub-items but has 2", "#4 “Ideas” cannot be reached from the top: its parent #999 does not exist"]
            ),
            (
                "cycle", "UPDATE Item SET parent = (SELECT id FROM Item WHERE title = 'Mail') WHERE title = 'Work'",
                ["#1 “Burrow” stores 3 sub-items but has 2", "#4 “Ideas” stores 0 sub-items but has 0"]
            ),
            ("no allocator", "DELETE FROM og_metadata WHERE key = 'next_id'", ["the ID allocator is missing"]),
            (
                "allocator behind", "UPDATE og_metadata SET value = 3 WHERE key = 'next_id'",
                ["the ID allocator would hand out #3, but IDs up to #7 are in use"]
            ),
            ("no search index", "DROP TABLE og_text_Item", ["the search index of Item is missing"]),
            ("search index behind", "DELETE FROM og_text_Item", ["the search index of Item lacks 7 rows"]),
            ("search index damaged", "UPDATE og_text_Item SET data = x'01'", ["the search index of Item has 1 damaged chunk and lacks 7 rows"]),
            ("missing required value", "UPDATE Item SET done = NULL WHERE title = 'Milk'", ["Item #5 has no done, which is required"]),
            (
                "no top item", "DELETE FROM Item WHERE rootMarker = 1",
                [
                    "the search index of Item holds 1 row that is gone",
                    "there is no top item", "#2 “Groceries” and 2 sub-items cannot be reached from the top: its parent #1 does not exist",
                    "#3 “Work” and 1 sub-item cannot be reached from the top: its parent #1 does not exist",
                    "#4 “Ideas” cannot be reached from the top: its parent #1 does not exist"
                ]
            )
        ]
        for (name, sql, expected) in table {
            let (o, dir) = try outline()
            defer { withExtendedLifetime(dir) {} }
            let titlesBefore = Set(try o.context.fetchValues(FetchRequest("Item"), keys: ["title"]).map { $0.values[0] })
            try damage(o, sql)
            let found = try o.check()
            if name == "cycle" {
                #expect(found.contains { $0.contains("is in a cycle of 2 items") }, "\(name): \(found)")
            } else {
                #expect(found == expected, "\(name)")
            }
            let done = try o.repair()
            #expect(!done.isEmpty, "\(name)")
            let left = try o.check()
            #expect(left == [], "\(name): after repair \(done): \(left)")
            // Every item is still there (plus the top and “Recovered” when they had to be made).
            let titlesAfter = Set(try o.context.fetchValues(FetchRequest("Item"), keys: ["title"]).map { $0.values[0] })
            #expect(titlesAfter.isSuperset(of: titlesBefore.subtracting(name == "no top item" ? [.string("Burrow")] : [])), "\(name)")
            // A repair is one undoable action.
            #expect(
                o.context.undoHistory.undoActionName == "Repair the outline"
                    || done.allSatisfy { $0.contains("count") || $0.contains("allocator") || $0.contains("default") || $0.contains("search index") },
                "\(name)")
        }
    }
}
