import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

@Suite struct AttributeTests {
    @Test func everyTypeRoundTripsThroughTheStore() throws {
        let dir = TemporaryDirectory("objectgraph")
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = UUID(uuidString: "12345678-1234-1234-1234-123456789ABC")!
        var id: ObjectID!
        do {
            let context = Context(store: try Store(path: dir.path(), model: Fixtures.allTypes))
            let t = try context.insert("Thing")
            t["s"] = "naïve 漢字 🦊"
            t["i"] = Int64.min
            t["d"] = -0.5
            t["b"] = true
            t["t"] = date
            t["x"] = Data([0, 1, 2, 255])
            t["u"] = uuid
            id = t.objectID
            try context.save()
        }
        let context = Context(store: try Store(path: dir.path(), model: Fixtures.allTypes))
        let t = try #require(try context.existingObject(for: id))
        #expect(t["s"] == .string("naïve 漢字 🦊"))
        #expect(t["i"] == .integer(Int64.min))
        #expect(t["d"] == .double(-0.5))
        #expect(t["b"] == .bool(true))
        #expect(t["t"] == .date(date))
        #expect(t["x"] == .data(Data([0, 1, 2, 255])))
        #expect(t["u"] == .uuid(uuid))
        let typed: String = t["s"]
        #expect(typed == "naïve 漢字 🦊")
    }

    /// Row `n`'s bytes: n % 50 of them, each its place plus n. (A function: inline in `#expect` the closure
    /// took over a second to type-check.)
    static func bytes(_ n: Int) -> Data {
        Data((0..<(n % 50)).map { (i: Int) -> UInt8 in UInt8((i + n) % 256) })
    }

    /// A save of many objects binds the rows of one multi-row INSERT one after the other, each string and blob
    /// from a buffer that is gone before the statement runs: SQLite must copy each (`sqliteTransient`).
    @Test func manyRowsBoundInOneStatementKeepTheirOwnBytes() throws {
        let dir = TemporaryDirectory("objectgraph-transient")
        var ids: [ObjectID] = []
        do {
            let context = Context(store: try Store(path: dir.path(), model: Fixtures.allTypes))
            for n in 0..<200 {
                let t = try context.insert("Thing")
                // Lengths differ, and long ones are heap strings whose buffers are freed after binding.
                t["s"] = "row \(n) " + String(repeating: "é漢", count: n % 40)
                t["x"] = Self.bytes(n)
                t["u"] = UUID(uuid: (UInt8(n % 256), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(n / 256)))
                ids.append(t.objectID)
            }
            try context.save()
        }
        let context = Context(store: try Store(path: dir.path(), model: Fixtures.allTypes))
        for (n, id) in ids.enumerated() {
            let t = try #require(try context.existingObject(for: id))
            #expect(t["s"] == .string("row \(n) " + String(repeating: "é漢", count: n % 40)), "row \(n)")
            #expect(t["x"] == .data(Self.bytes(n)), "row \(n)")
            #expect(t["u"] == .uuid(UUID(uuid: (UInt8(n % 256), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(n / 256)))), "row \(n)")
        }
    }

    @Test func nullsAndDefaults() throws {
        let context = Context(store: try Store(inMemoryWith: Fixtures.allTypes))
        let t = try context.insert("Thing")
        for key in ["s", "i", "d", "b", "t", "x", "u"] { #expect(t[key] == .null, "\(key)") }
        #expect(t["withDefault"] == .string("hello"))
        #expect(t["count"] == .integer(7))
        try context.save()
        let fresh = Context(store: context.store)
        let again = try #require(try fresh.existingObject(for: t.objectID))
        #expect(again["s"] == .null)
        #expect(again["withDefault"] == .string("hello"))
    }

    /// Each rule, the value that breaks it, and the exact message the save gives.
    @Test(arguments: [
        ("required", Value.null, "Rule #ID.required is required"),
        ("ranged", .integer(0), "Rule #ID.ranged = 0 is below the minimum 1.0"),
        ("ranged", .integer(11), "Rule #ID.ranged = 11 is above the maximum 10.0"),
        ("fraction", .double(1.5), "Rule #ID.fraction = 1.5 is above the maximum 1.0"),
        ("fraction", .double(-0.1), "Rule #ID.fraction = -0.1 is below the minimum 0.0"),
        ("short", .string("a"), "Rule #ID.short is shorter than 2"),
        ("short", .string("abcde"), "Rule #ID.short is longer than 4"),
        ("code", .string("AB-1"), "Rule #ID.code = \"AB-1\" does not match [A-Z]{3}-[0-9]+"),
        ("code", .string("ABC-12x"), "Rule #ID.code = \"ABC-12x\" does not match [A-Z]{3}-[0-9]+"),
        ("blob", .data(Data([1, 2, 3, 4])), "Rule #ID.blob is longer than 3"),
        ("ranged", .string("7"), "Rule #ID.ranged = \"7\" is not a integer64")
    ])
    func eachRuleGivesItsError(key: String, value: Value, message: String) throws {
        let context = Context(store: try Store(inMemoryWith: Fixtures.rules))
        let r = try context.insert("Rule")
        r["required"] = "ok"
        r[key] = value
        let errors = validationErrors { try context.save() }
        #expect(errors == [message.replacingOccurrences(of: "#ID", with: "\(r.objectID)")])
        #expect(context.hasChanges)
    }

    @Test func valuesThatKeepTheRulesSave() throws {
        let context = Context(store: try Store(inMemoryWith: Fixtures.rules))
        let r = try context.insert("Rule")
        r["required"] = ""
        r["ranged"] = 1
        r["fraction"] = 1.0
        r["short"] = "漢字"
        r["code"] = "ABC-42"
        r["blob"] = .data(Data([1, 2, 3]))
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test func transientAttributesAreNotStored() throws {
        let model = try Model {
            Entity("Box") {
                Attribute("w", .double, default: 2)
                Attribute("h", .double, default: 3)
                Attribute.transient("scratch", .string)
                Attribute.transient("area", .double) { box in .double((box["w"] as Double) * (box["h"] as Double)) }
            }
        }
        let dir = TemporaryDirectory("objectgraph")
        let context = Context(store: try Store(path: dir.path(), model: model))
        let box = try context.insert("Box")
        box["scratch"] = "kept in memory"
        #expect(box["area"] == .double(6))
        box["w"] = 5
        #expect(box["area"] == .double(15))
        try context.save()
        let columns = try context.store.queue.read { db in try db.columns(in: "Box").map(\.name) }
        #expect(columns.sorted() == ["h", "id", "w"])
        let other = Context(store: try Store(path: dir.path(), model: model))
        let again = try #require(try other.existingObject(for: box.objectID))
        #expect(again["scratch"] == .null)
        #expect(again["area"] == .double(15))
    }

    @Test func modelMistakesAreReported() {
        #expect(throws: ModelError.unknownDestination(entity: "A", relationship: "b", destination: "B")) {
            try Model { Entity("A") { Relationship.toOne("b", "B", inverse: "a") } }
        }
        #expect(throws: ModelError.reservedName("id")) {
            try Model { Entity("A") { Attribute("id", .string) } }
        }
        #expect(throws: ModelError.badDefault(entity: "A", attribute: "n")) {
            try Model { Entity("A") { Attribute("n", .integer64, default: "x") } }
        }
        #expect(throws: ModelError.badInverse(entity: "A", relationship: "b", reason: "its inverse B.a is not declared")) {
            try Model {
                Entity("A") { Relationship.toOne("b", "B", inverse: "a") }
                Entity("B") { Attribute("x", .string) }
            }
        }
    }

    @Test func versionHashIsDeterministicAndSensitive() throws {
        func make(_ extra: Bool) throws -> Model {
            try Model {
                Entity("A") {
                    Attribute("x", .string)
                    if extra { Attribute("y", .string, optional: true) }
                }
            }
        }
        #expect(try make(false).versionHash == make(false).versionHash)
        #expect(try make(false).versionHash != make(true).versionHash)
        #expect(try make(false).versionHash.count == 16)
    }
}
