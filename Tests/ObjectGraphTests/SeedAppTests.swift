import Foundation
import ObjectGraph
import TestSupport
import Testing

/// The seed's Colors app expressed with ObjectGraph.
@Suite struct ColorsSeedTests {
    static let model = try! Model {
        Entity("Color") {
            Attribute("red", .double, default: 0, min: 0, max: 1)
            Attribute("green", .double, default: 0, min: 0, max: 1)
            Attribute("blue", .double, default: 0, min: 0, max: 1)
            Attribute("name", default: "Unnamed Color", indexed: true)
            Attribute.transient("hex", .string) { c in
                let parts = ["red", "green", "blue"].map { key -> String in
                    let v = max(0, min(1, c[key] as Double))
                    let s = String(Int((v * 255).rounded()), radix: 16, uppercase: true)
                    return s.count == 1 ? "0" + s : s
                }
                return .string("#" + parts.joined())
            }
        }
    }

    @Test func colorsValidateDeriveAndSortByName() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let unnamed = try c.insert("Color")
        #expect(unnamed["name"] == .string("Unnamed Color"))
        let bad = try c.insert("Color")
        bad["name"] = "Too Red"
        bad["red"] = 1.5
        let errors = validationErrors { try c.save() }
        #expect(errors == ["Color \(bad.objectID).red = 1.5 is above the maximum 1.0"])
        bad["red"] = 1
        bad["green"] = 0.5
        #expect(bad["hex"] == .string("#FF8000"))
        let sky = try c.insert("Color")
        sky["name"] = "Azure"
        sky["blue"] = 1
        try c.save()
        let sorted = try c.fetch(FetchRequest("Color", sortedBy: [SortKey("name")])).map { $0["name"] as String }
        #expect(sorted == ["Azure", "Too Red", "Unnamed Color"])
    }
}

/// The seed's DVD collection app, with its small model interface.
@Suite struct DVDSeedTests {
    static let model = try! Model {
        Entity("Person") {
            Attribute("username", .string, unique: true)
            Attribute("name", .string, default: "")
            Relationship.toMany("dvds", "DVD", inverse: "owner", deleteRule: .cascade)
        }
        Entity("DVD") {
            Attribute("title", .string)
            Attribute("purchaseDate", .date, optional: true)
            Relationship.toOne("owner", "Person", inverse: "dvds", optional: false)
        }
    }

    /// The seed's model interface.
    struct Collection {
        let context: Context

        func addPerson(username: String, name: String) throws -> ManagedObject {
            let p = try context.insert("Person")
            p["username"] = .string(username)
            p["name"] = .string(name)
            return p
        }

        func person(username: String) throws -> ManagedObject? {
            try context.fetch(FetchRequest("Person", where: Property("username") == username)).first
        }

        func addDVD(_ title: String, bought: Date, to owner: ManagedObject) throws {
            let d = try context.insert("DVD")
            d["title"] = .string(title)
            d["purchaseDate"] = .date(bought)
            owner.add(d, to: "dvds")
        }

        func dvds(of owner: ManagedObject) -> [String] {
            owner.objects("dvds").map { $0["title"] as String }.sorted()
        }
    }

    @Test func personsAndTheirDVDs() throws {
        let dir = TemporaryDirectory("objectgraph")
        do {
            let col = Collection(context: Context(store: try Store(path: dir.path(), model: Self.model)))
            let ann = try col.addPerson(username: "ann", name: "Ann")
            try col.addDVD("Alien", bought: Date(timeIntervalSince1970: 0), to: ann)
            try col.addDVD("Brazil", bought: Date(timeIntervalSince1970: 86400), to: ann)
            _ = try col.addPerson(username: "bob", name: "Bob")
            try col.context.save()
        }
        let col = Collection(context: Context(store: try Store(path: dir.path(), model: Self.model)))
        #expect(try col.person(username: "nobody") == nil)
        let ann = try #require(try col.person(username: "ann"))
        #expect(col.dvds(of: ann) == ["Alien", "Brazil"])
        #expect(col.dvds(of: try #require(try col.person(username: "bob"))) == [])
        // A DVD needs an owner; a second "ann" is refused by the unique username.
        let orphan = try col.context.insert("DVD")
        orphan["title"] = "Orphan"
        #expect(validationErrors { try col.context.save() } == ["DVD \(orphan.objectID).owner is required"])
        col.context.delete(orphan)
        _ = try col.addPerson(username: "ann", name: "Other Ann")
        #expect(storeError { try col.context.save() }?.property == "username")
        col.context.rollback()
        col.context.delete(ann)
        try col.context.save()
        #expect(try col.context.count(FetchRequest("DVD")) == 0)
    }
}
