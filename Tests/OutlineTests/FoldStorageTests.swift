import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

@testable import ObjectGraph
@testable import Outline

/// Fold state (model version 4): `expanded` on items and `hidesDone` on the top item are view state, stored
/// and shared but outside undo; an older store is migrated by a writer and read as it is by a reader; only
/// open items are in the index of them.
@Suite struct FoldStorageTests {
    /// The outline model as version 3 declared it.
    static let version3 = try! Model(version: 3) {
        Entity("Item", type: Item.self) {
            Attribute("title", .string, default: "")
            Attribute("note", .string, optional: true)
            Attribute("done", .bool, default: false)
            Attribute("order", .string, default: "a0")
            Attribute.count("childCount", of: "children")
            Attribute("rootMarker", .integer64, optional: true, unique: true)
            Attribute("created", .date, optional: true)
            Attribute("modified", .date, optional: true)
            Relationship.toOne("parent", "Item", inverse: "children")
            Relationship.toMany("children", "Item", inverse: "parent", deleteRule: .cascade)
            CompoundIndex("parent", "order")
        }
    }

    @Test func foldingMakesNoUndoStepKeepsRedoAndNeverConflicts() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let history = o.context.undoHistory
        let a = try o.perform("Add A") { try o.append("A", to: try o.root()) }
        _ = try o.perform("Add B") { try o.append("B", to: a) }
        #expect(history.undoCount == 2)
        try o.setExpanded([a.objectID], true)
        #expect(history.undoCount == 2, "a fold is no undo step")
        #expect(try o.context.undo() == "Add B")
        try o.setExpanded([a.objectID], false)
        #expect(history.canRedo, "a fold keeps the redo steps")
        #expect(try o.context.redo() == "Add B")
        // A was opened after it was added: undoing the add finds no conflict in that.
        try o.setExpanded([a.objectID], true)
        #expect(try o.context.undo() == "Add B")
        #expect(try o.context.undo() == "Add A")
        #expect(try o.children(of: o.root()).isEmpty)
        // An action that changes what items say and how they are shown is one step, undone whole.
        let c = try o.perform("Add C") { try o.append("C", to: try o.root()) }
        try o.perform("Rename and open") {
            c.title = "C2"
            c.isExpanded = true
        }
        #expect(try o.context.undo() == "Rename and open")
        #expect(c.title == "C" && !c.isExpanded)
    }

    @Test func setExpandedSkipsGoneItemsAndCountsChanges() throws {
        let o = Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model)))
        let items = try o.append(titles: ["A", "B"], to: try o.root())
        _ = try o.append(titles: ["a"], to: items[0])
        try o.save()
        let gone = items[1].objectID
        try o.perform("Delete") { try o.delete(items[1]) }
        #expect(try o.setExpanded([items[0].objectID, gone], true) == 1)
        #expect(try o.setExpanded([items[0].objectID], true) == 0, "already open")
        #expect(try o.expandedChildren(of: o.root().objectID) == [items[0].objectID])
        #expect(try o.expandedItems(below: o.root().objectID) == [items[0].objectID])
        #expect(try o.itemsWithChildren(below: o.root().objectID) == [items[0].objectID])
    }

    @Test func anOlderStoreIsMigratedByAWriterAndReadAsItIsByAReader() throws {
        let dir = TemporaryDirectory("burrow-folds-v3")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        do {
            let c = Context(store: try Store(path: path, model: Self.version3))
            let root = try c.insert("Item")
            root["title"] = "Burrow"
            root["rootMarker"] = 1
            let a = try c.insert("Item")
            a["title"] = "From version 3"
            a.setObject(root, for: "parent")
            let b = try c.insert("Item")
            b["title"] = "Below"
            b.setObject(a, for: "parent")
            try c.save()
            c.store.checkpoint()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let reader = try Outline(readingAt: path)
            let old = try #require(try reader.children(of: reader.root()).first)
            let hides = try reader.hidesDone()
            #expect(!old.isExpanded && hides == nil)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "a reader changes no byte")

        let writer = try Outline(path: path)
        let old = try #require(try writer.children(of: writer.root()).first)
        #expect(!old.isExpanded)
        try writer.setExpanded([old.objectID], true)
        try writer.setHidesDone(true)
        #expect(try writer.check().isEmpty)
        let again = try Outline(path: path)
        #expect(try again.children(of: again.root()).first?.isExpanded == true)
        #expect(try again.hidesDone() == true)
        // Only open items are in the index of them: closed ones (nearly all) cost nothing to write.
        let sql = try again.context.store.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'og_ix_Item_expanded_parent'")
        }
        #expect(sql?.contains("WHERE \"expanded\" IS NOT NULL") == true, "\(sql ?? "no index")")
        let closed = try again.context.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM Item WHERE expanded IS NULL")
        }
        #expect(closed == 2, "closing stores NULL, not 0")
    }
}
