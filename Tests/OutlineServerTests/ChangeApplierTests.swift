import Foundation
import ObjectGraph
import Outline
import OutlineServer
import TestSupport
import Testing

@testable import OutlineSync

/// The server's changes arriving in a local store: new items inserted and named, known ones moved and
/// changed, deleted subtrees gone, in transactions that leave no undo step and nothing to send back;
/// the same changes twice change nothing more; and what an outline sends, applied to another, rebuilds it.
@Suite struct ChangeApplierTests {
    final class World {
        let dir = TemporaryDirectory("burrow-apply")
        let outline: Outline
        let outlineID = UUID()
        var seq: Int64 = 0

        init() throws {
            outline = try Outline(path: dir.path("o.sqlite"))
            try outline.context.store.name(try outline.root().objectID, by: outlineID)
            try outline.context.store.setOutbox(enabled: true)
        }

        func apply(_ body: ServerChange.Body) throws {
            seq += 1
            try ChangeApplier.apply([ServerChange(seq: seq, opID: UUID(), client: "other", body: body)], to: outline)
        }

        /// The outline as indented "title [x] (note)" lines, from a fresh context.
        func lines() throws -> [String] {
            let fresh = Outline(context: Context(store: outline.context.store))
            return try fresh.subtree(under: try fresh.root()).map { entry in
                String(repeating: "  ", count: entry.depth) + entry.title + (entry.isDone ? " [x]" : "") + (entry.note.map { " (\($0))" } ?? "")
            }
        }
    }

    @Test func itemsArriveChangeMoveAndGoWithNothingToUndoOrSend() throws {
        let w = try World()
        let (a, b, c) = (UUID(), UUID(), UUID())
        try w.apply(.upsert([ServerItem(id: a, parent: w.outlineID, ord: "a1", title: "alpha")]))
        try w.apply(.upsert([ServerItem(id: b, parent: w.outlineID, ord: "a2", title: "beta", note: "n")]))
        try w.apply(.upsert([ServerItem(id: c, parent: a, ord: "a1", title: "gamma", isDone: true)]))
        #expect(try w.lines() == ["alpha", "  gamma [x]", "beta (n)"])

        try w.apply(.upsert([ServerItem(id: a, parent: w.outlineID, ord: "a3", title: "alpha 2")]))
        try w.apply(.upsert([ServerItem(id: c, parent: b, ord: "a1", title: "gamma", isDone: false)]))
        #expect(try w.lines() == ["beta (n)", "  gamma", "alpha 2"])

        try w.apply(.delete([b, c]))
        #expect(try w.lines() == ["alpha 2"])
        #expect(try w.outline.context.store.outbox(after: 0).isEmpty, "nothing to send back")
        #expect(try w.outline.context.undo() == nil, "nothing to undo")
        #expect(try w.outline.context.store.objects(named: [a]).first??.rowID != nil)
    }

    @Test func theSameChangesTwiceChangeNothingMore() throws {
        let w = try World()
        let a = UUID(), b = UUID()
        let changes = [
            ServerChange(seq: 1, opID: UUID(), client: "x", body: .upsert([ServerItem(id: a, parent: w.outlineID, ord: "a1", title: "one")])),
            ServerChange(seq: 2, opID: UUID(), client: "x", body: .upsert([ServerItem(id: b, parent: a, ord: "a1", title: "two")])),
            ServerChange(seq: 3, opID: UUID(), client: "x", body: .delete([UUID()]))
        ]
        try ChangeApplier.apply(changes, to: w.outline)
        let once = try w.lines()
        try ChangeApplier.apply(changes, to: w.outline)
        #expect(try w.lines() == once && once == ["one", "  two"])
        #expect(try w.outline.check().isEmpty)
    }

    /// An outline that went its own way (an item deleted here that the server kept, one put under the top
    /// for want of its parent, one the server never had) is made the server's whole outline; not while an
    /// action waits to be sent.
    @Test func theServersWholeOutlineReplacesOneThatWentItsOwnWay() throws {
        let w = try World()
        let (a, b, c) = (UUID(), UUID(), UUID())
        var diverged: [String] = []
        try ChangeApplier.apply(
            [ServerChange(seq: 1, opID: UUID(), client: "x", body: .upsert([ServerItem(id: b, parent: a, ord: "a1", title: "b")]))], to: w.outline,
            diverged: { diverged.append($0) })
        #expect(diverged.count == 1, "b's parent is missing here")
        #expect(try w.lines() == ["b"])
        let server = [
            ServerItem(id: w.outlineID, parent: nil, ord: "", title: "top"), ServerItem(id: a, parent: w.outlineID, ord: "a1", title: "a"),
            ServerItem(id: c, parent: w.outlineID, ord: "a2", title: "c", isDone: true), ServerItem(id: b, parent: a, ord: "a1", title: "b")
        ]
        // An action waiting to be sent: nothing is replaced.
        _ = try w.outline.perform("Add") { try w.outline.append("mine", to: try w.outline.root().objectID) }
        var settled = 0
        #expect(try !ChangeApplier.replace(with: server, in: w.outline) { settled += 1 })
        #expect(try w.lines() == ["b", "mine"])
        try w.outline.context.store.removeOutbox(through: .max)
        #expect(try ChangeApplier.replace(with: server, in: w.outline) { settled += 1 })
        #expect(try w.lines() == ["a", "  b", "c [x]"])
        #expect(settled == 1)
        #expect(try w.outline.check().isEmpty)
    }

    /// One outline's actions turned into operations and those, as the changes a server would report,
    /// applied to a second outline: both export alike (the server's decisions are its tests'; here the
    /// two translations meet).
    @Test func whatOneOutlineSendsRebuildsItInAnother() throws {
        let sender = try World(), receiver = try World()
        let o = sender.outline
        let top = try o.root().objectID
        let nodes = [OutlineNode("list", children: [OutlineNode("one", note: "first"), OutlineNode("two", isDone: true)]), OutlineNode("solo")]
        let added = try o.perform("Import") { try o.add(nodes, under: top) }
        let one = try o.children(of: try #require(try o.context.existingObject(for: added[0]) as? Item))[0].objectID
        try o.perform("Rename") { try o.rename(one, to: "uno") }
        try o.perform("Move") { try o.move(one, to: added[1], at: 0) }
        try o.perform("Delete") { try o.delete(added[0]) }
        _ = try o.context.undo()
        var seq: Int64 = 0
        var changes: [ServerChange] = []
        // As the server reports them: the outline's UUID is the receiver's too (one shared outline).
        try o.context.store.name(top, by: receiver.outlineID)
        for entry in try o.context.store.outbox(after: 0) {
            for op in try OutboxOperations.operations(for: entry, in: o.context) {
                seq += 1
                let body: ServerChange.Body
                switch op {
                case .insert(let item): body = .upsert([item])
                case .restore(let items): body = .upsert(items)
                case .delete(let id): body = .delete([id])
                case .move(let id, let parent, let ord):
                    let item = try #require(try ChangeApplier.local(id, in: o.context))
                    body = .upsert([ServerItem(id: id, parent: parent, ord: ord, title: item.title, note: item.note, isDone: item.isDone)])
                case .set(let id, _, _):
                    let item = try #require(try ChangeApplier.local(id, in: o.context))
                    let above = try #require(item.parent).objectID
                    let parent = try #require(try o.context.store.knownExternalIDs(for: [above])[0])
                    body = .upsert([ServerItem(id: id, parent: parent, ord: item.order, title: item.title, note: item.note, isDone: item.isDone)])
                }
                changes.append(ServerChange(seq: seq, opID: UUID(), client: "a", body: body))
            }
        }
        try ChangeApplier.apply(changes, to: receiver.outline)
        #expect(try receiver.lines() == (try sender.lines()))
        #expect(try receiver.lines() == ["list", "  two [x]", "solo", "  uno (first)"])
    }
}
