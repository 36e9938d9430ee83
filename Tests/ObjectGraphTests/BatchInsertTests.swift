import Foundation
import GRDB
import TestSupport
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

    /// Rows are written without the columns NULL in all of them where leaving a column out stores NULL;
    /// a column a migration added with a default is written NULL all the same, as the rows say.
    @Test func nullColumnsStayNullWhereAMigrationGaveADefault() throws {
        let v1 = try Model(version: 1) { Entity("Note") { Attribute("text", .string, default: "") } }
        let v2 = try Model(version: 2) {
            Entity("Note") {
                Attribute("text", .string, default: "")
                Attribute("label", .string, optional: true, default: "dflt")
                Attribute("extra", .string, optional: true)
            }
        }
        let dir = TemporaryDirectory("objectgraph")
        _ = try Store(path: dir.path(), model: v1)
        let c = Context(store: try Store(path: dir.path(), model: v2))
        let e = c.model.entity("Note")!
        // Runs of 80 (the first all NULL but `text`), 80 with one `label`, 80 with `extra` in the last row
        // only, 80 with `extra` in the first row only, and 3 one by one.
        let runs: [[(label: Value, extra: Value)]] = [
            Array(repeating: (.null, .null), count: 80),
            (0..<80).map { $0 == 41 ? (.string("one"), .null) : (.null, .null) },
            (0..<80).map { $0 == 79 ? (.null, .string("last")) : (.null, .null) },
            (0..<80).map { $0 == 0 ? (.null, .string("first")) : (.null, .null) },
            [(.null, .string("x")), (.string("y"), .null), (.null, .null)]
        ]
        var written: [(ObjectID, Value, Value)] = []
        try c.transaction(actionName: "Load") {
            for run in runs {
                let ids = try c.reserveObjectIDs(e, count: run.count)
                let rows = run.map { pair -> [Value] in
                    var row = e.defaults
                    row[e.slot("text")!] = .string("t")
                    row[e.slot("label")!] = pair.label
                    row[e.slot("extra")!] = pair.extra
                    return row
                }
                c.insertRows(e, ids: ids, values: rows)
                try c.flushRows()
                written += zip(ids, run).map { ($0, $1.label, $1.extra) }
            }
        }
        let stored = try c.store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, label, extra FROM Note ORDER BY id").map { row -> (Int64, String?, String?) in
                (row["id"], row["label"], row["extra"])
            }
        }
        func text(_ v: Value) -> String? { if case .string(let s) = v { s } else { nil } }
        #expect(stored.count == written.count)
        for ((id, label, extra), (storedID, storedLabel, storedExtra)) in zip(written, stored) {
            #expect(storedID == id.rowID)
            #expect(storedLabel == text(label), "label of \(id)")
            #expect(storedExtra == text(extra), "extra of \(id)")
        }
        #expect(stored.filter { $0.1 == "dflt" }.isEmpty)
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
