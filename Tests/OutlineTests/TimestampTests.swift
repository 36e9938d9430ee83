import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// When items were created and last changed (model version 3): set by inserts and imports, moved on by
/// changes of title, note and done, restored exactly by undo, and absent for items of an older store,
/// which is migrated by a writer and read as it is by a reader.
@Suite struct TimestampTests {
    /// The outline model as version 2 declared it, to write a store as that program did.
    static let version2 = try! Model(version: 2) {
        Entity("Item", type: Item.self) {
            Attribute("title", .string, default: "")
            Attribute("note", .string, optional: true)
            Attribute("done", .bool, default: false)
            Attribute("order", .string, default: "a0")
            Attribute.count("childCount", of: "children")
            Attribute("rootMarker", .integer64, optional: true, unique: true)
            Relationship.toOne("parent", "Item", inverse: "children")
            Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
            CompoundIndex("parent", "order")
        }
    }

    @Test func insertsImportsAndChangesStampTheirItems() throws {
        let dir = TemporaryDirectory("burrow-stamps")
        defer { withExtendedLifetime(dir) {} }
        let o = try Outline(path: dir.path())
        let before = Item.timestamp()
        let milk = try o.perform("Add") { try o.append("Milk", to: try o.root()) }
        let created = try #require(milk.created)
        #expect(created >= before && milk.modified == created)
        // What the store holds reads back exactly (times are kept to 1/1024 s, which a double holds).
        let again = try Outline(path: dir.path())
        let stored = try #require(try again.children(of: again.root()).first)
        #expect(stored.created == created && stored.modified == created)

        Thread.sleep(forTimeInterval: 0.01)  // a later time to tell apart, not a wait for a condition
        try o.perform("Rename") { milk.title = "Oat milk" }
        let renamed = try #require(milk.modified)
        #expect(renamed > created && milk.created == created)
        try o.perform("Same title") { milk.title = "Oat milk" }
        #expect(milk.modified == renamed, "setting the same title is no change")
        try o.perform("Move") { try o.move(milk, to: try o.root(), at: 0) }
        #expect(milk.modified == renamed, "a move changes where the item is, not what it says")

        // Undo restores the time with the title, and finds no conflict in a time it wrote itself.
        #expect(try o.context.undo() == "Rename")
        #expect(milk.title == "Milk" && milk.modified == created)
        #expect(try o.context.redo() == "Rename")
        #expect(milk.modified == renamed)

        let ids = try o.perform("Import") { try o.add([OutlineNode("Imported", children: [OutlineNode("Deep")])], under: try o.root()) }
        let imported = try #require(o.context.existingObject(for: ids[0]) as? Item)
        #expect(imported.created != nil && imported.created == imported.modified)
    }

    @Test func anOlderStoreIsMigratedByAWriterAndReadAsItIsByAReader() throws {
        let dir = TemporaryDirectory("burrow-stamps-v2")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        do {
            let c = Context(store: try Store(path: path, model: Self.version2))
            let root = try c.insert("Item")
            root["title"] = "Burrow"
            root["rootMarker"] = 1
            let a = try c.insert("Item")
            a["title"] = "From version 2"
            a["note"] = "kept"
            a.setObject(root, for: "parent")
            try c.save()
            c.store.checkpoint()
        }
        // A reader reads it as it is: no byte changes, and the times are unknown.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let reader = try Outline(readingAt: path)
            let old = try #require(try reader.children(of: reader.root()).first)
            #expect(old.title == "From version 2" && old.note == "kept")
            #expect(old.created == nil && old.modified == nil)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        // A writer migrates it: old items keep no times, new ones get them, and the store checks clean.
        let writer = try Outline(path: path)
        let old = try #require(try writer.children(of: writer.root()).first)
        #expect(old.created == nil)
        let new = try writer.perform("Add") { try writer.append("From version 3", to: try writer.root()) }
        #expect(new.created != nil)
        try writer.perform("Rename") { old.title = "Renamed in version 3" }
        #expect(old.created == nil && old.modified != nil)
        #expect(try writer.check().isEmpty)
    }
}
