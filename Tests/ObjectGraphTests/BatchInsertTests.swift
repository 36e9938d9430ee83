import Foundation
import Testing

@testable import ObjectGraph

@Suite struct BatchInsertTests {
    static let model = try! Model {
        Entity("Node") {
            Attribute("name", .string, maxLength: 10)
            Relationship.toOne("parent", "Node", inverse: "children")
            Relationship.toMany("children", "Node", inverse: "parent", deleteRule: .cascade)
        }
    }

    func rows(_ c: Context, _ names: [String], parent: ManagedObject?) throws -> ([ObjectID], [[Value]]) {
        let e = c.model.entity("Node")!
        let ids = try c.reserveObjectIDs(e, count: names.count)
        let values = names.map { n -> [Value] in
            var row = e.defaults
            row[e.slot("name")!] = .string(n)
            row[e.slot("parent")!] = parent.map { .integer($0.objectID.rowID) } ?? .null
            return row
        }
        return (ids, values)
    }

    @Test func rowsAreSavedValidatedUndoneAndSeen() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let top = try c.insert("Node")
        top["name"] = "top"
        try c.save(actionName: "Add top")
        var sets: [ChangeSet] = []
        c.observeChanges { sets.append($0) }
        let (ids, values) = try rows(c, ["a", "b", "c"], parent: top)
        c.insertRows(c.model.entity("Node")!, ids: ids, values: values)
        #expect(c.hasChanges)
        try c.save(actionName: "Import 3")
        #expect(sets.last?.insertedCount == 3)
        #expect(top.objects("children").map { $0["name"] as String }.sorted() == ["a", "b", "c"])
        #expect(try c.existingObject(for: ids[1])?["name"] == .string("b"))
        // One undo step takes them all away, redo brings the same IDs back.
        #expect(try c.undo() == "Import 3")
        #expect(try c.count(FetchRequest("Node")) == 1)
        try c.redo()
        #expect(try c.existingObject(for: ids[2])?["name"] == .string("c"))
    }

    @Test func badRowsSaveNothing() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let (ids, values) = try rows(c, ["fine", "far too long a name"], parent: nil)
        c.insertRows(c.model.entity("Node")!, ids: ids, values: values)
        let errors = validationErrors { try c.save() }
        #expect(errors == ["Node \(ids[1]).name is longer than 10"])
        #expect(try Context(store: c.store).count(FetchRequest("Node")) == 0)
        c.rollback()
        #expect(!c.hasChanges)
        try c.save()
        #expect(try c.count(FetchRequest("Node")) == 0)
    }
}
