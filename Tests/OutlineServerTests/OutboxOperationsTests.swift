import Foundation
import ObjectGraph
import Outline
import OutlineServer
import TestSupport
import Testing

@testable import OutlineSync

/// What each kind of action in the outbox means to the server, checked as whole operation lists: items
/// named by their external UUIDs, the top item by the outline's, parents sent before what goes under
/// them, a deleted subtree as its top alone, an undone delete as a restore of the same names, an undone
/// rename as a set that expects what it undoes, and nothing for what the server does not keep.
@Suite struct OutboxOperationsTests {
    final class World {
        let dir = TemporaryDirectory("burrow-outbox-ops")
        let outline: Outline
        let top: ObjectID
        let outlineID = UUID()
        var sent: Int64 = 0

        init() throws {
            outline = try Outline(path: dir.path("o.sqlite"))
            top = try outline.root().objectID
            try outline.context.store.name(top, by: outlineID)
            try outline.context.store.setOutbox(enabled: true)
        }

        /// The operations of the entries saved since the last call, each list an entry's.
        func operations() throws -> [[ServerOperation]] {
            let entries = try outline.context.store.outbox(after: sent)
            sent = entries.last?.seq ?? sent
            return try entries.map { try OutboxOperations.operations(for: $0, in: outline.context) }
        }

        func name(_ id: ObjectID) throws -> UUID {
            try #require(try outline.context.store.knownExternalIDs(for: [id]).first ?? nil)
        }

        func order(_ id: ObjectID) throws -> String {
            try outline.context.storedValues(of: [id], entity: "Item", keys: ["order"])[0].map { v in
                if case .string(let s) = v[0] { return s }
                return ""
            } ?? ""
        }
    }

    @Test func addsRenamesMovesAndDeletes() throws {
        let w = try World()
        let o = w.outline
        let (a, b) = try o.perform("Add") { (try o.append("alpha", to: w.top), try o.append("beta", to: w.top)) }
        #expect(try o.context.store.knownExternalIDs(for: [a, b]) == [nil, nil], "named when first sent")
        let added = try w.operations()
        let (na, nb) = (try w.name(a), try w.name(b))
        #expect(na != nb)
        #expect(
            added == [
                [
                    .insert(ServerItem(id: na, parent: w.outlineID, ord: try w.order(a), title: "alpha")),
                    .insert(ServerItem(id: nb, parent: w.outlineID, ord: try w.order(b), title: "beta"))
                ]
            ])

        try o.perform("Rename") { try o.rename(a, to: "alpha 2") }
        #expect(try w.operations() == [[.set(id: na, fields: ["title": .string("alpha 2")], expect: nil)]])

        try o.perform("Indent") { try o.move(b, to: a, at: 0) }
        #expect(try w.operations() == [[.move(id: nb, parent: na, ord: try w.order(b))]])

        try o.perform("Delete") { try o.delete(a) }
        #expect(try w.operations() == [[.delete(id: na)]], "the top of the subtree alone")
    }

    @Test func anImportSendsParentsFirstAndAnUndoneDeleteRestoresTheSameNames() throws {
        let w = try World()
        let o = w.outline
        let nodes = [
            OutlineNode("list", children: [OutlineNode("one", note: "first", children: [OutlineNode("deep", isDone: true)]), OutlineNode("two")])
        ]
        let added = try o.perform("Import") { try o.add(nodes, under: w.top) }
        let ops = try w.operations()
        #expect(ops.count == 1)
        let inserts = ops.first ?? []
        let items: [ServerItem] = inserts.compactMap { if case .insert(let i) = $0 { i } else { nil } }
        #expect(items.count == 4 && items.count == inserts.count)
        var seen: Set<UUID> = [w.outlineID]
        for i in items {
            #expect(i.parent.map(seen.contains) == true, "\(i.title) comes after its parent")
            seen.insert(i.id)
        }
        #expect(items.map(\.title).sorted() == ["deep", "list", "one", "two"])
        #expect(items.first { $0.title == "one" }?.note == "first" && items.first { $0.title == "deep" }?.isDone == true)

        let list = try #require(added.first)
        let names = Dictionary(uniqueKeysWithValues: items.map { ($0.title, $0.id) })
        try o.perform("Delete list") { try o.delete(list) }
        #expect(try w.operations() == [[.delete(id: names["list"]!)]])
        #expect(try o.context.undo() != nil)
        let back = try w.operations()
        guard case .restore(let restored)? = back.first?.first, back.count == 1, back[0].count == 1 else {
            Issue.record("an undone delete is one restore: \(back)")
            return
        }
        #expect(Dictionary(uniqueKeysWithValues: restored.map { ($0.title, $0.id) }) == names, "the same names come back")
        #expect(restored.first?.title == "list" && restored.first?.parent == w.outlineID)
    }

    @Test func anUndoneRenameExpectsWhatItUndoes() throws {
        let w = try World()
        let o = w.outline
        let a = try o.perform("Add") { try o.append("before", to: w.top) }
        try o.perform("Rename") { try o.rename(a, to: "after") }
        _ = try w.operations()
        #expect(try o.context.undo() != nil)
        let na = try w.name(a)
        #expect(try w.operations() == [[.set(id: na, fields: ["title": .string("before")], expect: ["title": .string("after")])]])
        #expect(try o.context.redo() != nil)
        #expect(try w.operations() == [[.set(id: na, fields: ["title": .string("after")], expect: ["title": .string("before")])]])
    }

    @Test func whatTheServerDoesNotKeepSendsNothing() throws {
        let w = try World()
        let o = w.outline
        let a = try o.perform("Add") { try o.append("item", to: w.top) }
        _ = try w.operations()
        // Done is kept; the modified time and counts that change with it are not sent.
        try o.perform("Done") { try o.setDone(a, to: true) }
        #expect(try w.operations() == [[.set(id: try w.name(a), fields: ["done": .bool(true)], expect: nil)]])
        // View state is no action: the outbox holds nothing for it.
        try o.setHidesDone(true)
        #expect(try w.operations() == [])
    }

    /// Tags go as the item's tag list (the server keeps no tag objects): an import of tagged items sends its
    /// items with their lists (its first rows written are a tag's, which the plan once took for the entry's
    /// entity and sent nothing), and a change of tags sends the item's new list; a task's fields each go as
    /// `x.NAME`, an undo expecting what it undoes.
    @Test func tagsAndTaskFieldsAreSentAsTheItemsExtras() throws {
        let w = try World()
        let o = w.outline
        let nodes = [
            OutlineNode(
                "list", extras: OutlineNode.Extras(tags: ["work"]), children: [OutlineNode("one", extras: OutlineNode.Extras(tags: ["home"]))])
        ]
        try o.perform("Import") {
            var loader = try OutlineLoader(o, under: try o.root())
            try loader.add(nodes[0], depth: 0)
            try loader.add(nodes[0].children[0], depth: 1)
            try loader.finish()
        }
        try o.perform("Paste") { _ = try o.add(nodes, under: try o.root()) }
        let ops = try w.operations()
        let inserted = ops.map { $0.compactMap { if case .insert(let i) = $0 { "\(i.title) \(i.extras)" } else { nil } }.sorted() }
        #expect(
            inserted == [
                [#"list ["tagList": ":work:"]"#, #"one ["tagList": ":home:"]"#], [#"list ["tagList": ":work:"]"#, #"one ["tagList": ":home:"]"#]
            ])
        let one = try #require(try o.children(of: try o.root()).first).objectID
        try o.perform("Tag") { try o.setTags(one, ["later"]) }
        #expect(try w.operations() == [[.set(id: try w.name(one), fields: ["x.tagList": .string(":later:")], expect: nil)]])
        try o.perform("State") { try o.setState(one, to: "TODO") }
        #expect(try w.operations() == [[.set(id: try w.name(one), fields: ["x.state": .string("TODO")], expect: nil)]])
        try o.context.undo()
        #expect(try w.operations() == [[.set(id: try w.name(one), fields: ["x.state": .null], expect: ["x.state": .string("TODO")])]])
    }
}
