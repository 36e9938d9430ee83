import Testing

@testable import ObjectGraph

@Suite struct RelationshipTests {
    static let tree = try! Model {
        Entity("Node") {
            Attribute("name", .string, default: "")
            Relationship.toOne("parent", "Node", inverse: "children")
            Relationship.toMany("children", "Node", inverse: "parent", deleteRule: .cascade)
            Relationship.toOne("partner", "Node", inverse: "partnerOf")
            Relationship.toOne("partnerOf", "Node", inverse: "partner")
        }
    }

    func names(_ objects: [ManagedObject]) -> [String] { objects.map { $0["name"] }.sorted() }

    @Test func settingToOneUpdatesTheInverseBeforeSave() throws {
        let c = Context(store: try Store(inMemoryWith: Self.tree))
        let a = try c.insert("Node"), b = try c.insert("Node"), d = try c.insert("Node")
        a["name"] = "a"; b["name"] = "b"; d["name"] = "d"
        a.setObject(b, for: "parent")
        #expect(names(b.objects("children")) == ["a"])
        #expect(b.count("children") == 1)
        a.setObject(d, for: "parent")
        #expect(b.count("children") == 0)
        #expect(names(d.objects("children")) == ["a"])
        d.add(b, to: "children")
        #expect(b.object("parent") === d)
        #expect(names(d.objects("children")) == ["a", "b"])
        d.remove(a, from: "children")
        #expect(a.object("parent") == nil)
        try c.save()
        let fresh = Context(store: c.store)
        let d2 = try #require(try fresh.existingObject(for: d.objectID))
        #expect(names(d2.objects("children")) == ["b"])
    }

    /// A to-one key read with a fetch's IDs (`propertiesToFetch`) gives the relationship without loading the
    /// row; changing it through the partial fault keeps both sides right.
    @Test func prefetchedToOneKeysAreRelationships() throws {
        let (store, p, q) = try family(children: 4) { $0 % 2 == 0 }
        let c2 = Context(store: store)
        var r = FetchRequest("Node", where: Property("name").beginsWith("k"), sortedBy: [SortKey("name")])
        r.propertiesToFetch = ["parent"]
        let kids = Array(try c2.fetch(r))
        #expect(kids.map { $0.object("parent")?.objectID } == [p, q, p, q])
        #expect(c2.statistics.faultsFired == 0)
        #expect(kids.allSatisfy { $0.isFault })
        kids[0].setObject(c2.object(for: q), for: "parent")
        #expect(names(c2.object(for: q).objects("children")) == ["k0", "k1", "k3"])
        #expect(names(c2.object(for: p).objects("children")) == ["k2"])
        try c2.save()
        let c3 = Context(store: store)
        #expect(names(c3.object(for: q).objects("children")) == ["k0", "k1", "k3"])
    }

    /// A saved store with nodes p and q and children k0, k1, … of p (or of q where `underP` says no).
    func family(children: Int, underP: (Int) -> Bool = { _ in true }) throws -> (Store, p: ObjectID, q: ObjectID) {
        let store = try Store(inMemoryWith: Self.tree)
        let c = Context(store: store)
        let p = try c.insert("Node"), q = try c.insert("Node")
        p["name"] = "p"; q["name"] = "q"
        for i in 0..<children {
            let k = try c.insert("Node")
            k["name"] = .string("k\(i)")
            k.setObject(underP(i) ? p : q, for: "parent")
        }
        try c.save()
        return (store, p.objectID, q.objectID)
    }

    @Test func inverseIsMaintainedAgainstStoredState() throws {
        let (store, p, q) = try family(children: 3)
        // A new context: p's children are only in the store; move one without loading them first.
        let c2 = Context(store: store)
        let p2 = c2.object(for: p), q2 = c2.object(for: q)
        let k0 = try #require(try c2.fetch(FetchRequest("Node", where: Property("name") == "k0")).first)
        k0.setObject(q2, for: "parent")
        #expect(names(p2.objects("children")) == ["k1", "k2"])
        #expect(names(q2.objects("children")) == ["k0"])
        #expect(p2.changedKeys == ["children"])
        #expect(k0.changedKeys == ["parent"])
    }

    @Test func oneToOneStealsThePartner() throws {
        let c = Context(store: try Store(inMemoryWith: Self.tree))
        let a = try c.insert("Node"), b = try c.insert("Node"), x = try c.insert("Node")
        a.setObject(b, for: "partner")
        #expect(b.object("partnerOf") === a)
        x.setObject(b, for: "partner")
        #expect(b.object("partnerOf") === x)
        #expect(a.object("partner") == nil)
        try c.save()
        let fresh = Context(store: c.store)
        #expect(try fresh.existingObject(for: b.objectID)?.object("partnerOf")?.objectID == x.objectID)
        #expect(try fresh.existingObject(for: a.objectID)?.object("partner") == nil)
    }

    @Test func identityMapGivesOneObjectPerRow() throws {
        let store = try Store(inMemoryWith: Self.tree)
        let c = Context(store: store)
        let a = try c.insert("Node")
        a["name"] = "a"
        try c.save()
        let other = Context(store: store)
        let f1 = try other.fetch(FetchRequest("Node"))[0]
        let f2 = try other.fetch(FetchRequest("Node", where: Property("name") == "a"))[0]
        #expect(f1 === f2)
        #expect(other.object(for: a.objectID) === f1)
        #expect(try other.existingObject(for: a.objectID) === f1)
        #expect(c.object(for: a.objectID) === a)
    }
}
