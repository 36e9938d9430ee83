import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// Many-to-many relationships: two to-manys that are each other's inverse, their links kept in a join
/// entity of the model's own; both sides change at once, the delete rules are those of to-many (nullify,
/// cascade, deny), undo restores links, and a random sequence of edits agrees with a set of pairs.
@Suite struct ManyToManyTests {
    static let model = try! Model(version: 2) {
        Entity("Item") {
            Attribute("name", .string, default: "")
            Relationship.toMany("tags", "Tag", inverse: "items")
            Relationship.toMany("locks", "Lock", inverse: "items")
        }
        Entity("Tag") {
            Attribute("name", .string, default: "")
            Relationship.toMany("items", "Item", inverse: "tags")
        }
        // Deleting a lock is refused while it holds items; deleting an item removes it from its locks.
        Entity("Lock") {
            Attribute("name", .string, default: "")
            Relationship.toMany("items", "Item", inverse: "locks", deleteRule: .deny)
        }
        Entity("Album") {
            Attribute("name", .string, default: "")
            Relationship.toMany("songs", "Song", inverse: "albums", deleteRule: .cascade)
        }
        Entity("Song") {
            Attribute("name", .string, default: "")
            Relationship.toMany("albums", "Album", inverse: "songs")
        }
        // An entity related to itself: who follows whom.
        Entity("Person") {
            Attribute("name", .string, default: "")
            Relationship.toMany("follows", "Person", inverse: "followers")
            Relationship.toMany("followers", "Person", inverse: "follows")
        }
    }

    func names(_ objects: [ManagedObject]) -> [String] { objects.map { $0["name"] }.sorted() }

    func make(_ c: Context, _ entity: String, _ name: String) throws -> ManagedObject {
        let o = try c.insert(entity)
        o["name"] = .string(name)
        return o
    }

    @Test func bothSidesChangeAtOnceAndReadBackFromTheStore() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let milk = try make(c, "Item", "milk"), eggs = try make(c, "Item", "eggs")
        let food = try make(c, "Tag", "food"), cold = try make(c, "Tag", "cold")
        milk.add(food, to: "tags")
        milk.add(cold, to: "tags")
        cold.add(eggs, to: "items")
        // Twice is once.
        milk.add(food, to: "tags")
        #expect(names(milk.objects("tags")) == ["cold", "food"])
        #expect(names(cold.objects("items")) == ["eggs", "milk"])
        #expect(food.count("items") == 1)
        try c.save()
        #expect(try c.count(FetchRequest("Item_tags")) == 3)

        let fresh = Context(store: c.store)
        let milk2 = try #require(try fresh.existingObject(for: milk.objectID))
        let cold2 = try #require(try fresh.existingObject(for: cold.objectID))
        #expect(names(milk2.objects("tags")) == ["cold", "food"])
        #expect(names(cold2.objects("items")) == ["eggs", "milk"])
        #expect(milk2.objectIDs("tags") == [food.objectID, cold.objectID].sorted())

        cold2.remove(milk2, from: "items")
        #expect(names(milk2.objects("tags")) == ["food"])
        // Removing what is not there changes nothing.
        cold2.remove(milk2, from: "items")
        try fresh.save()
        let third = Context(store: c.store)
        #expect(names(third.object(for: cold.objectID).objects("items")) == ["eggs"])
        #expect(try c.count(FetchRequest("Item_tags")) == 2)
    }

    /// Two contexts (two processes, in effect) link the same pair at once: both saves succeed, the pair
    /// counts once, and removing it removes it for good.
    @Test func thePairLinkedTwiceAtOnceCountsOnce() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        let milk = try make(c, "Item", "milk"), food = try make(c, "Tag", "food")
        try c.save()
        let a = Context(store: store), b = Context(store: store)
        a.object(for: milk.objectID).add(a.object(for: food.objectID), to: "tags")
        b.object(for: food.objectID).add(b.object(for: milk.objectID), to: "items")
        try a.save()
        try b.save()
        let fresh = Context(store: store)
        #expect(try fresh.count(FetchRequest("Item_tags")) == 2)
        #expect(fresh.object(for: milk.objectID).objectIDs("tags") == [food.objectID])
        #expect(fresh.object(for: food.objectID).count("items") == 1)
        fresh.object(for: milk.objectID).remove(fresh.object(for: food.objectID), from: "tags")
        try fresh.save()
        #expect(try fresh.count(FetchRequest("Item_tags")) == 0)
    }

    /// A many-to-many's objects come in the order they were added, not by row ID: an item's tags as written.
    @Test func objectsComeInTheOrderAdded() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let milk = try make(c, "Item", "milk"), eggs = try make(c, "Item", "eggs")
        let a = try make(c, "Tag", "a"), b = try make(c, "Tag", "b"), d = try make(c, "Tag", "d")
        for t in [d, a, b] { milk.add(t, to: "tags") }
        for t in [b, d] { eggs.add(t, to: "tags") }
        try c.save()
        let fresh = Context(store: c.store)
        #expect(fresh.object(for: milk.objectID).objects("tags").map { $0["name"] as String } == ["d", "a", "b"])
        #expect(fresh.object(for: eggs.objectID).objects("tags").map { $0["name"] as String } == ["b", "d"])
        #expect(fresh.object(for: b.objectID).objects("items").map { $0["name"] as String } == ["milk", "eggs"])
    }

    /// Removed and added back in one unit of work: the link's row is deleted before the new one is written,
    /// so the pair's unique index is not in the way.
    @Test func removedAndAddedAgainInOneSave() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let milk = try make(c, "Item", "milk"), food = try make(c, "Tag", "food")
        milk.add(food, to: "tags")
        try c.save()
        milk.remove(food, from: "tags")
        milk.add(food, to: "tags")
        try c.save()
        let fresh = Context(store: c.store)
        #expect(names(fresh.object(for: milk.objectID).objects("tags")) == ["food"])
        #expect(try c.count(FetchRequest("Item_tags")) == 1)
    }

    @Test func nullifyRemovesTheLinksAndKeepsThePartners() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let milk = try make(c, "Item", "milk"), eggs = try make(c, "Item", "eggs")
        let food = try make(c, "Tag", "food"), cold = try make(c, "Tag", "cold")
        for i in [milk, eggs] { for t in [food, cold] { i.add(t, to: "tags") } }
        try c.save()
        c.delete(food)
        #expect(names(milk.objects("tags")) == ["cold"])
        #expect(names(eggs.objects("tags")) == ["cold"])
        c.delete(milk)
        #expect(names(cold.objects("items")) == ["eggs"])
        try c.save()
        let fresh = Context(store: c.store)
        #expect(try fresh.count(FetchRequest("Item")) == 1)
        #expect(try fresh.count(FetchRequest("Tag")) == 1)
        #expect(try fresh.count(FetchRequest("Item_tags")) == 1)
        #expect(names(fresh.object(for: cold.objectID).objects("items")) == ["eggs"])
    }

    @Test func cascadeDeletesThePartners() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let live = try make(c, "Album", "live"), best = try make(c, "Album", "best")
        let a = try make(c, "Song", "a"), b = try make(c, "Song", "b"), d = try make(c, "Song", "d")
        live.add(a, to: "songs")
        live.add(b, to: "songs")
        best.add(b, to: "songs")
        best.add(d, to: "songs")
        try c.save()
        c.delete(live)
        #expect(a.isDeleted && b.isDeleted && !d.isDeleted)
        #expect(names(best.objects("songs")) == ["d"])
        try c.save()
        let fresh = Context(store: c.store)
        #expect(try fresh.count(FetchRequest("Song")) == 1)
        #expect(try fresh.count(FetchRequest("Album_songs")) == 1)
        // Deleting a song (nullify on its side) leaves its albums.
        fresh.delete(fresh.object(for: d.objectID))
        try fresh.save()
        #expect(try fresh.count(FetchRequest("Album")) == 1)
        #expect(try fresh.count(FetchRequest("Album_songs")) == 0)
    }

    @Test func denyRefusesTheSaveWhileLinksRemain() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let milk = try make(c, "Item", "milk"), lock = try make(c, "Lock", "frozen")
        lock.add(milk, to: "items")
        try c.save()
        c.delete(lock)
        let errors = validationErrors { try c.save() }
        #expect(errors == ["Lock \(lock.objectID) cannot be deleted: its relationship items still has 1 object(s) (deny rule)"])
        c.rollback()
        #expect(names(milk.objects("locks")) == ["frozen"])
        // Deleting the item (nullify on its side) frees the lock.
        c.delete(milk)
        c.delete(lock)
        try c.save()
        #expect(try c.count(FetchRequest("Item_locks")) == 0)
        #expect(try c.count(FetchRequest("Lock")) == 0)
    }

    @Test func anEntityRelatedToItself() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let ann = try make(c, "Person", "ann"), bob = try make(c, "Person", "bob"), cy = try make(c, "Person", "cy")
        ann.add(bob, to: "follows")
        cy.add(bob, to: "follows")
        bob.add(ann, to: "follows")
        try c.save()
        let fresh = Context(store: c.store)
        let bob2 = fresh.object(for: bob.objectID)
        #expect(names(bob2.objects("followers")) == ["ann", "cy"])
        #expect(names(bob2.objects("follows")) == ["ann"])
        #expect(names(fresh.object(for: ann.objectID).objects("followers")) == ["bob"])
        fresh.delete(bob2)
        try fresh.save()
        #expect(fresh.object(for: ann.objectID).count("follows") == 0)
        #expect(fresh.object(for: ann.objectID).count("followers") == 0)
        #expect(try fresh.count(FetchRequest("Person_followers")) == 0)
    }

    @Test func undoAndRedoRestoreLinks() throws {
        let dir = TemporaryDirectory("m2m")
        let c = Context(store: try Store(path: dir.path("m.sqlite"), model: Self.model))
        let milk = try make(c, "Item", "milk"), food = try make(c, "Tag", "food")
        try c.save(actionName: "Add")
        milk.add(food, to: "tags")
        try c.save(actionName: "Tag")
        c.delete(food)
        try c.save(actionName: "Delete the tag")
        #expect(milk.count("tags") == 0)
        #expect(try c.undo() == "Delete the tag")
        #expect(names(c.object(for: milk.objectID).objects("tags")) == ["food"])
        #expect(try c.undo() == "Tag")
        #expect(c.object(for: milk.objectID).count("tags") == 0)
        #expect(try c.redo() == "Tag")
        #expect(names(c.object(for: milk.objectID).objects("tags")) == ["food"])
        let fresh = Context(store: c.store)
        #expect(names(fresh.object(for: food.objectID).objects("items")) == ["milk"])
    }

    /// A store written before the model had the many-to-many opens with it: the join table is added.
    @Test func aStoreFromBeforeGainsTheJoinTable() throws {
        let old = try Model(version: 1) {
            Entity("Item") { Attribute("name", .string, default: "") }
        }
        let new = try Model(version: 2) {
            Entity("Item") {
                Attribute("name", .string, default: "")
                Relationship.toMany("tags", "Tag", inverse: "items")
            }
            Entity("Tag") {
                Attribute("name", .string, default: "")
                Relationship.toMany("items", "Item", inverse: "tags")
            }
        }
        let dir = TemporaryDirectory("m2m")
        let path = dir.path("m.sqlite")
        do {
            let c = Context(store: try Store(path: path, model: old))
            _ = try make(c, "Item", "milk")
            try c.save()
        }
        let c = Context(store: try Store(path: path, model: new))
        let milk = try #require(try c.fetch(FetchRequest("Item")).first)
        #expect(milk.count("tags") == 0)
        milk.add(try make(c, "Tag", "food"), to: "tags")
        try c.save()
        let fresh = Context(store: c.store)
        #expect(names(fresh.object(for: milk.objectID).objects("tags")) == ["food"])
        #expect(new.joinEntities == ["Item_tags"])
    }

    @Test func modelMistakes() {
        #expect(throws: ModelError.badInverse(entity: "P", relationship: "friends", reason: "a many-to-many relationship cannot be its own inverse"))
        {
            try Model { Entity("P") { Relationship.toMany("friends", "P", inverse: "friends") } }
        }
        #expect(throws: ModelError.duplicateEntity("Item_tags")) {
            try Model {
                Entity("Item") { Relationship.toMany("tags", "Tag", inverse: "items") }
                Entity("Tag") { Relationship.toMany("items", "Item", inverse: "tags") }
                Entity("Item_tags") { Attribute("x", .string, default: "") }
            }
        }
    }

    static let tree = try! Model(version: 1) {
        Entity("Node") {
            Attribute("name", .string, default: "")
            Relationship.toOne("parent", "Node", inverse: "children")
            Relationship.toMany("children", "Node", inverse: "parent", deleteRule: .cascade)
            Relationship.toMany("tags", "Label", inverse: "nodes")
        }
        Entity("Label") {
            Attribute("name", .string, default: "")
            Relationship.toMany("nodes", "Node", inverse: "tags")
        }
    }

    /// `deleteTree` of a subtree whose items have links: the rows below and their links go as rows (no
    /// object per row), the labels stay and forget them, and one undo brings items and links back.
    @Test(arguments: [false, true])
    func deleteTreeTakesTheLinksAsRows(inTransaction: Bool) throws {
        let dir = TemporaryDirectory("m2m")
        let store = try Store(path: dir.path("t.sqlite"), model: Self.tree)
        let setup = Context(store: store)
        let top = try make(setup, "Node", "top")
        let red = try make(setup, "Label", "red"), blue = try make(setup, "Label", "blue")
        var below: [ManagedObject] = []
        for k in 0..<200 {
            let n = try make(setup, "Node", "n\(k)")
            n.setObject(k < 20 ? top : below[k % 20], for: "parent")
            if k % 3 == 0 { n.add(red, to: "tags") }
            if k % 5 == 0 { n.add(blue, to: "tags") }
            below.append(n)
        }
        let keep = try make(setup, "Node", "keep")
        keep.add(red, to: "tags")
        try setup.save(actionName: "Build")
        let linksBefore = try setup.count(FetchRequest("Label_nodes"))

        let c = Context(store: store)
        let held = c.object(for: red.objectID)
        #expect(held.count("nodes") == 68)
        let created = c.statistics.objectsCreated
        if inTransaction {
            try c.transaction { c.deleteTree(c.object(for: top.objectID)) }
        } else {
            c.deleteTree(c.object(for: top.objectID))
            // A label first read now does not see the links deleted as rows, though they are stored until the
            // save; deleting it in the same unit deletes no link twice.
            let blueHere = c.object(for: blue.objectID)
            #expect(blueHere.count("nodes") == 0)
            try c.save(actionName: "Delete top")
        }
        #expect(c.statistics.objectsCreated - created < 10, "rows, not objects")
        let fresh = Context(store: store)
        #expect(try fresh.count(FetchRequest("Node")) == 1)
        #expect(try fresh.count(FetchRequest("Label_nodes")) == 1)
        #expect(names(fresh.object(for: red.objectID).objects("nodes")) == ["keep"])
        #expect(held.count("nodes") == 1, "the label held here forgot the deleted links")
        #expect(try fresh.count(FetchRequest("Label")) == 2)
        try c.undo()
        let back = Context(store: store)
        #expect(try back.count(FetchRequest("Node")) == 202)
        #expect(try back.count(FetchRequest("Label_nodes")) == linksBefore)
        #expect(back.object(for: blue.objectID).count("nodes") == 40)
    }

    /// Random adds, removes, deletes, saves, rollbacks and fresh contexts against a set of pairs: after
    /// every step both sides of every live object say what the set says, and the store holds the set.
    @Test func randomEditsAgreeWithASetOfPairs() throws {
        var tally = Tally()
        for seed in UInt64(0)..<40 { try randomEdits(seed: seed, &tally) }
        print("many-to-many random edits: \(tally)")
        // The cases the test exists for happened, often.
        #expect(tally.adds > 1_000 && tally.repeats > 200 && tally.removes > 500 && tally.deletes > 200 && tally.rollbacks > 200)
        #expect(tally.removedAfterSave > 200 && tally.deletedWithLinks > 100)
    }

    struct Tally: CustomStringConvertible {
        var adds = 0, repeats = 0, removes = 0, removedAfterSave = 0, deletes = 0, deletedWithLinks = 0, rollbacks = 0
        var description: String {
            "\(adds) adds, \(repeats) repeated, \(removes) removes (\(removedAfterSave) of saved links), "
                + "\(deletes) deletes (\(deletedWithLinks) with links), \(rollbacks) rollbacks"
        }
    }

    func randomEdits(seed: UInt64, _ tally: inout Tally) throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store(inMemoryWith: Self.model)
        var c = Context(store: store)
        var items: [ObjectID] = [], tags: [ObjectID] = []
        for n in 0..<6 { items.append(try make(c, "Item", "i\(n)").objectID) }
        for n in 0..<4 { tags.append(try make(c, "Tag", "t\(n)").objectID) }
        try c.save()
        var saved = Set<[Int64]>(), pending = Set<[Int64]>()
        var savedItems = Set(items), savedTags = Set(tags)
        var liveItems = savedItems, liveTags = savedTags
        for _ in 0..<200 {
            let liveItemList = liveItems.sorted(), liveTagList = liveTags.sorted()
            let item = liveItemList[Int(rng.next() % UInt64(liveItemList.count))]
            let tag = liveTagList[Int(rng.next() % UInt64(liveTagList.count))]
            let pair = [item.rowID, tag.rowID]
            switch rng.next() % 12 {
            case 0...4:
                if pending.contains(pair) { tally.repeats += 1 } else { tally.adds += 1 }
                if rng.next() % 2 == 0 {
                    c.object(for: item).add(c.object(for: tag), to: "tags")
                } else {
                    c.object(for: tag).add(c.object(for: item), to: "items")
                }
                pending.insert(pair)
            case 5...6:
                tally.removes += 1
                if saved.contains(pair) { tally.removedAfterSave += 1 }
                c.object(for: item).remove(c.object(for: tag), from: "tags")
                pending.remove(pair)
            case 7 where liveTags.count > 1:
                tally.deletes += 1
                if pending.contains(where: { $0[1] == tag.rowID }) { tally.deletedWithLinks += 1 }
                c.delete(c.object(for: tag))
                liveTags.remove(tag)
                pending = pending.filter { $0[1] != tag.rowID }
            case 8 where liveItems.count > 1:
                tally.deletes += 1
                if pending.contains(where: { $0[0] == item.rowID }) { tally.deletedWithLinks += 1 }
                c.delete(c.object(for: item))
                liveItems.remove(item)
                pending = pending.filter { $0[0] != item.rowID }
            case 9...10:
                try c.save()
                saved = pending
                savedItems = liveItems
                savedTags = liveTags
                if rng.next() % 2 == 0 { c = Context(store: store) }
            case 11:
                tally.rollbacks += 1
                c.rollback()
                pending = saved
                liveItems = savedItems
                liveTags = savedTags
            default:
                continue
            }
            for i in liveItems {
                let expected = Set(pending.filter { $0[0] == i.rowID }.map { $0[1] })
                #expect(Set(c.object(for: i).objectIDs("tags").map(\.rowID)) == expected, "seed \(seed)")
            }
            for t in liveTags {
                let expected = Set(pending.filter { $0[1] == t.rowID }.map { $0[0] })
                #expect(Set(c.object(for: t).objectIDs("items").map(\.rowID)) == expected, "seed \(seed)")
            }
        }
        try c.save()
        let fresh = Context(store: store)
        let stored = try fresh.fetch(FetchRequest("Item_tags")).map { [$0.object("source")!.objectID.rowID, $0.object("target")!.objectID.rowID] }
        #expect(Set(stored) == pending && stored.count == pending.count, "seed \(seed)")
    }
}
