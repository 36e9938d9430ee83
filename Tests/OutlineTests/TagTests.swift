import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// Tags: `Tag` objects linked to items, an item's tags in the order given, kept equal to its links; refused
/// names; undo; two processes making one tag; copies, deletes and the interchange formats keep or drop
/// them as they should.
@Suite struct TagTests {
    func outline(_ path: String? = nil) throws -> (Outline, ObjectID, ObjectID) {
        let store = try path.map { try Store(path: $0, model: OutlineModel.model) } ?? Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        var ids: [ObjectID] = []
        try o.perform { ids = try o.append(titles: ["Ship", "Milk"], to: try o.root().objectID) }
        return (o, ids[0], ids[1])
    }

    /// What the links say, read from the store (not the item's list): names by item.
    func linked(_ o: Outline) throws -> [String: Set<String>] {
        let fresh = Outline(context: Context(store: o.context.store))
        var out: [String: Set<String>] = [:]
        for (name, _) in try fresh.allTags() {
            for id in try fresh.items(tagged: name) {
                let item = try #require(try fresh.context.existingObject(for: id) as? Item)
                out[item.title, default: []].insert(name)
            }
        }
        return out
    }

    @Test func tagsAreKeptInOrderWithTheirLinksAndUndone() throws {
        let (o, ship, milk) = try outline()
        try o.perform {
            try o.setTags(ship, ["work", "urgent"])
            try o.setTags(milk, ["home", "work"])
        }
        #expect(try o.tags(of: ship) == ["work", "urgent"])
        #expect(try o.tags(of: milk) == ["home", "work"])
        #expect(try o.allTags().map { "\($0.name) \($0.count)" } == ["home 1", "urgent 1", "work 2"])
        #expect(try linked(o) == ["Ship": ["work", "urgent"], "Milk": ["home", "work"]])
        try o.perform { try o.setTags(ship, ["urgent", "work", "urgent"]) }
        #expect(try o.tags(of: ship) == ["urgent", "work"], "the order given, each once")
        try o.perform { try o.removeTags(["work"], from: milk) }
        try o.perform { try o.addTags(["later", "home"], to: milk) }
        #expect(try o.tags(of: milk) == ["home", "later"])
        #expect(try linked(o) == ["Ship": ["work", "urgent"], "Milk": ["home", "later"]])
        // Each edit is one undo step, the links with the list.
        try o.context.undo()
        #expect(try o.tags(of: milk) == ["home"])
        try o.context.undo()
        try o.context.undo()
        #expect(try o.tags(of: ship) == ["work", "urgent"])
        #expect(try linked(o) == ["Ship": ["work", "urgent"], "Milk": ["home", "work"]])
        try o.context.redo()
        #expect(try linked(o) == ["Ship": ["work", "urgent"], "Milk": ["home", "work"]])
        #expect(try o.tags(of: ship) == ["urgent", "work"])
    }

    /// `Context.delete` (what sync applies, and `deleteTree`'s fallback) down a tree of tagged items reads
    /// every item's links in the tree's one walk, not a query per item; the links go with their items.
    @Test func deletingATaggedTreeReadsItsLinksOnce() throws {
        let store = try Store(inMemoryWith: OutlineModel.model)
        let o = Outline(context: Context(store: store))
        var top: ObjectID!
        try o.perform {
            top = try o.append("big", to: try o.root()).objectID
            let big = try o.resolve(top)
            for chunk in try o.append(titles: (0..<20).map { "c\($0)" }, to: big) {
                for leaf in try o.append(titles: (0..<49).map { "leaf \($0)" }, to: chunk) where leaf.title.hasSuffix("7") {
                    try o.setTags(leaf.objectID, ["seven", "odd"])
                }
            }
        }
        #expect(try o.items(tagged: "seven").count == 100)
        let fresh = Outline(context: Context(store: store))
        let start = fresh.context.statistics
        try fresh.perform {
            let item = try #require(try fresh.context.existingObject(for: top))
            fresh.context.delete(item)
        }
        #expect(fresh.context.statistics.relationReads - start.relationReads == 0)
        #expect(try fresh.items(tagged: "seven").isEmpty)
        #expect(try fresh.check().isEmpty)
        #expect(try fresh.allTags().isEmpty, "no link left")
    }

    /// Undoing the step that made a tag, after a later step that tagged another item with it was passed
    /// over (changed elsewhere), must not delete the tag under that item's link: the undo is refused as a
    /// conflict and the history goes on.
    @Test func undoNeverDeletesATagAnotherItemStillHas() throws {
        let dir = TemporaryDirectory("burrow-tag-undo")
        defer { withExtendedLifetime(dir) {} }
        let (o, ship, milk) = try outline(dir.path())
        try o.perform("Tag Ship") { try o.setTags(ship, ["new"]) }
        try o.perform("Tag Milk") { try o.setTags(milk, ["new"]) }
        // Another process renames Milk and tags it again without a step of its own: undoing "Tag Milk"
        // conflicts on the tag list. (A rename alone overlaps the step only in the `modified` stamp, which
        // two saves within one tick of its clock write alike: then the undo merges, keeping the rename.)
        let other = Outline(context: Context(store: try Store(path: dir.path(), model: OutlineModel.model)))
        try other.context.transactionWithoutUndo {
            try #require(try other.context.existingObject(for: milk) as? Item).title = "Oat milk"
            try other.setTags(milk, ["new", "oat"])
        }
        #expect(throws: UndoConflict.self) { try o.context.undo() }
        // "Tag Ship" would delete the tag Milk still has: undone here, and by a process that holds no objects
        // (the rows are deleted as rows).
        let fresh = Outline(context: Context(store: try Store(path: dir.path(), model: OutlineModel.model)))
        #expect(throws: UndoConflict.self) { try fresh.context.undo() }
        #expect(try linked(o) == ["Ship": ["new"], "Oat milk": ["new", "oat"]])
        #expect(try o.check().isEmpty)
        // The history goes on: a new action and its undo work.
        try o.perform("Tag Ship") { try o.addTags(["later"], to: ship) }
        try o.context.undo()
        #expect(try o.tags(of: ship) == ["new"])
    }

    @Test(arguments: ["", " work", "work ", "a:b", "line\nbreak", "bell\u{07}", String(repeating: "x", count: 101)])
    func aNameThatCannotBeATagIsRefusedAndNothingChanges(name: String) throws {
        let (o, ship, _) = try outline()
        try o.perform { try o.setTags(ship, ["kept"]) }
        #expect(throws: OutlineError.self) { try o.perform { try o.setTags(ship, ["fine", name]) } }
        #expect(try o.tags(of: ship) == ["kept"])
        #expect(try o.allTags().map(\.name) == ["kept"])
    }

    /// Deleting an item takes its links; the tag stays for the items that still have it.
    @Test func deletingAnItemTakesItsLinks() throws {
        let (o, ship, milk) = try outline()
        try o.perform {
            try o.setTags(ship, ["work"])
            try o.setTags(milk, ["work", "home"])
        }
        try o.perform { try o.delete(milk) }
        #expect(try o.allTags().map { "\($0.name) \($0.count)" } == ["work 1"])
        #expect(try o.items(tagged: "home").isEmpty)
        try o.context.undo()
        #expect(try o.allTags().map { "\($0.name) \($0.count)" } == ["home 1", "work 2"])
    }

    /// Two processes (two stores on one file) tagging with a new name at the same time make one tag, and
    /// its items are both of theirs.
    @Test func twoWritersMakeOneTag() throws {
        let dir = TemporaryDirectory("tags")
        let (a, ship, milk) = try outline(dir.path())
        let b = Outline(context: Context(store: try Store(path: dir.path(), model: OutlineModel.model)))
        // b read the tags before a made "work": it must find it when it writes, not make a second one.
        #expect(try b.allTags().isEmpty)
        try a.perform { try a.setTags(ship, ["work"]) }
        try b.perform { try b.setTags(milk, ["work"]) }
        let fresh = Outline(context: Context(store: try Store(path: dir.path(), model: OutlineModel.model)))
        #expect(try fresh.context.count(FetchRequest(Tag.entityName)) == 1)
        #expect(try fresh.allTags().map { "\($0.name) \($0.count)" } == ["work 2"])
    }

    /// A copy keeps its items' tags; a capture line's tags are the item's.
    @Test func copiesAndCapturesKeepTags() throws {
        let (o, ship, milk) = try outline()
        try o.perform { try o.setTags(ship, ["work", "q4"]) }
        let copied = try o.perform { try o.copy([ship], to: .after(milk)) }
        let copy = try #require(copied.items.first)
        #expect(try o.tags(of: copy) == ["work", "q4"])
        #expect(try o.allTags().map { "\($0.name) \($0.count)" } == ["q4 2", "work 2"])
        let captured = try o.perform { try o.append(captured: "Call Bob #work !A", to: try o.root().objectID, today: "2026-11-29") }
        #expect(try o.tags(of: captured) == ["work"])
        #expect(try o.allTags().map { "\($0.name) \($0.count)" } == ["q4 2", "work 3"])
    }

    /// Exported and imported again, in each format that holds tags, an outline keeps them; org writes tags
    /// it cannot hold (a space) with `_`.
    @Test(arguments: [OutlineFormat.json, .opml, .org])
    func tagsRoundTrip(format: OutlineFormat) throws {
        let (o, ship, milk) = try outline()
        try o.perform {
            try o.setTags(ship, ["work", "big project"])
            try o.setTags(milk, ["home"])
        }
        // Written as `burrow export` writes (the streaming walk), read back through the loader as `burrow
        // import` reads, and through a paste's rows.
        var bytes: [UInt8] = []
        try o.export(try o.root(), as: format, title: "Tags", write: { bytes += $0 })
        let nodes = try format.read(String(decoding: bytes, as: UTF8.self))
        let (p, _, _) = try outline()
        let top = try p.root()
        try p.perform {
            var loader = try OutlineLoader(p, under: top)
            var stack: [(OutlineNode, Int)] = nodes.reversed().map { ($0, 0) }
            while let (node, depth) = stack.popLast() {
                try loader.add(node, depth: depth)
                stack += node.children.reversed().map { ($0, depth + 1) }
            }
            try loader.finish()
        }
        try p.perform { _ = try p.add(nodes, under: top) }
        let text = String(decoding: bytes, as: UTF8.self)
        let items = try p.children(of: top).dropFirst(2)
        let expected = format == .org ? ["work", "big_project"] : ["work", "big project"]
        #expect(items.map(\.tagNames) == [expected, ["home"], expected, ["home"]], "\(text)")
        #expect(try p.allTags().map { "\($0.name) \($0.count)" } == [expected[1] + " 2", "home 2", "work 2"])
    }

    /// A list and links that disagree (a store changed by another program) are found by `check` and mended
    /// by `repair`, the list taken as meant.
    @Test func checkFindsAndRepairFollowsTheList() throws {
        let dir = TemporaryDirectory("tags-check")
        do {
            let (o, ship, milk) = try outline(dir.path())
            try o.perform {
                try o.setTags(ship, ["work", "urgent"])
                try o.setTags(milk, ["home"])
            }
            #expect(try o.check() == [])
        }
        try DatabaseQueue(path: dir.path()).write { db in
            try db.execute(sql: #"DELETE FROM "Item_tags" WHERE "target" = (SELECT "id" FROM "Tag" WHERE "name" = 'urgent')"#)
            try db.execute(sql: #"UPDATE "Item" SET "tagList" = ':home:later:' WHERE "title" = 'Milk'"#)
        }
        let o = try Outline(path: dir.path())
        let problems = try o.check()
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasSuffix("“Ship” lists #work #urgent but is linked to #work") }, "\(problems)")
        #expect(problems.contains { $0.hasSuffix("“Milk” lists #home #later but is linked to #home") }, "\(problems)")
        let done = try o.repair()
        #expect(done.contains("linked 2 items to the tags their lists name"), "\(done)")
        #expect(try o.check() == [])
        #expect(try o.allTags().map { "\($0.name) \($0.count)" } == ["home 1", "later 1", "urgent 1", "work 1"])
    }

    /// JSON's `tags`: an array of strings, after `children` too; a tag that is no string is refused.
    @Test func jsonTags() throws {
        let nodes = try OutlineFormat.json.read(
            #"{"version": 3, "items": [{"title": "a", "children": [{"title": "b", "tags": []}], "tags": ["x", "y", "x"]}]}"#)
        #expect(nodes.map(\.tags) == [["x", "y"]] && nodes[0].children.map(\.tags) == [[]])
        #expect(throws: InterchangeError.self) { try OutlineFormat.json.read(#"{"items": [{"title": "a", "tags": ["x", 1]}]}"#) }
        #expect(throws: InterchangeError.self) { try OutlineFormat.json.read(#"{"items": [{"title": "a", "tags": "x"}]}"#) }
        // A string that cannot be a tag is refused where it is, before anything is added.
        #expect(throws: InterchangeError(format: "JSON", line: 2, column: 25, message: "“ x” is not a tag: a tag cannot start or end with a space")) {
            try OutlineFormat.json.read("{\"items\": [\n{\"title\": \"a\", \"tags\": [\" x\"]}]}")
        }
        #expect(throws: InterchangeError.self) { try OutlineFormat.opml.read(#"<opml><body><outline text="a" _tags=": x:"/></body></opml>"#) }
        #expect(JSONOutline.write([OutlineNode("a", extras: OutlineNode.Extras(tags: ["x", "big one"]))]).contains(#""tags": ["x", "big one"]"#))
    }

    /// An item's list and its links agree after random tag edits, undos and redos.
    @Test func randomEditsKeepListAndLinksEqual() throws {
        var rng = SeededRandom(seed: 33)
        let (o, ship, milk) = try outline()
        let names = ["a", "b", "c", "d"]
        var undos = 0, redos = 0, edits = 0
        // Only the tag edits are undone (not the items' making), and only what can be redone is.
        var undoable = 0, redoable = 0
        for _ in 0..<300 {
            switch rng.below(8) {
            case 0..<3 where undoable > 0:
                _ = try o.context.undo()
                (undoable, redoable, undos) = (undoable - 1, redoable + 1, undos + 1)
            case 3..<6 where redoable > 0:
                _ = try o.context.redo()
                (undoable, redoable, redos) = (undoable + 1, redoable - 1, redos + 1)
            default:
                let id = rng.below(2) == 0 ? ship : milk
                let tags = names.filter { _ in rng.below(2) == 0 }.shuffled(using: &rng)
                let before = try o.tags(of: id)
                try o.perform { try o.setTags(id, tags) }
                // An edit that changes nothing makes no undo step.
                if before != tags { (undoable, redoable, edits) = (undoable + 1, 0, edits + 1) }
            }
            let lists = try Dictionary(
                uniqueKeysWithValues: [ship, milk].map {
                    (try #require(try o.context.existingObject(for: $0) as? Item).title, Set(try o.tags(of: $0)))
                })
            #expect(try linked(o).filter { !$0.value.isEmpty } == lists.filter { !$0.value.isEmpty })
        }
        print("TagTests random: \(edits) edits, \(undos) undos, \(redos) redos")
        #expect(edits > 100 && undos > 20 && redos > 20)
    }
}
