import Foundation
import ObjectGraph
import Outline
import OutlineServer
import TestSupport
import Testing

@testable import OutlineSync

/// Two local outlines sharing one outline through a real PostgreSQL (the throwaway cluster): the first
/// attach uploads, an empty outline's attach downloads, edits of either reach the other after a round each
/// (adds, renames, moves, deletes, undo), both sides editing the same item end alike, an add into a list
/// deleted elsewhere lands under "Recovered", actions wait in the outbox until sent, and attaching a
/// non-empty outline to a server that has one is refused and changes nothing.
@Suite(.onAThreadOfItsOwn("replicator")) struct ReplicatorTests {
    final class Device {
        let dir = TemporaryDirectory("burrow-sync")
        let outline: Outline
        let sync: Replicator
        let connection: ServerConnection

        init(_ url: String) async throws {
            outline = try Outline(path: dir.path("o.sqlite"))
            sync = Replicator(outline: outline)
            connection = try await ServerConnection.connect(try ServerAddress(url))
        }

        /// The outline as indented "title [x] (note)" lines, from a fresh context.
        func lines() throws -> [String] {
            let fresh = Outline(context: Context(store: outline.context.store))
            return try fresh.subtree(under: try fresh.root()).map { row in
                String(repeating: "  ", count: row.depth) + row.title + (row.isDone ? " [x]" : "") + (row.note.map { " (\($0))" } ?? "")
            }
        }

        func item(_ title: String) throws -> ObjectID {
            let fresh = Outline(context: Context(store: outline.context.store))
            return try #require(try fresh.subtree(under: try fresh.root()).first { $0.title == title }).id
        }

        var top: ObjectID { get throws { try outline.root().objectID } }
    }

    @Test func uploadDownloadAndEditsBothWays() async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let a = try await Device(url), b = try await Device(url)
        let nodes = [OutlineNode("groceries", children: [OutlineNode("milk", note: "oat"), OutlineNode("bread", isDone: true)]), OutlineNode("work")]
        _ = try a.outline.perform("Import") { try a.outline.add(nodes, under: try a.top) }
        let said = try await a.sync.attach(try ServerAddress(url), through: a.connection)
        #expect(said.hasPrefix("Shared 4 items to"))
        #expect(!said.contains("password"))
        let down = try await b.sync.attach(try ServerAddress(url), through: b.connection)
        #expect(down.hasPrefix("Downloaded 4 items"))
        #expect(try b.lines() == (try a.lines()))

        // A edits; B receives.
        try a.outline.perform("Rename") { try a.outline.rename(try a.item("milk"), to: "oat milk") }
        let eggs = try a.outline.perform("Add") { try a.outline.append("eggs", to: try a.item("groceries")) }
        try a.outline.perform("Move") { try a.outline.move(try a.item("bread"), to: try a.item("work"), at: 0) }
        #expect(try a.sync.status().pending == 3)
        let sent = try await a.sync.syncOnce(through: a.connection)
        let pendingAfter = try a.sync.status().pending
        #expect(sent.sent == 3 && sent.notes.isEmpty && pendingAfter == 0)
        _ = try await b.sync.syncOnce(through: b.connection)
        #expect(try b.lines() == ["groceries", "  oat milk (oat)", "  eggs", "work", "  bread [x]"])
        #expect(try b.lines() == (try a.lines()))

        // B edits, deletes, and undoes its delete; A receives.
        try b.outline.perform("Done") { try b.outline.setDone(try b.item("eggs"), to: true) }
        try b.outline.perform("Delete") { try b.outline.delete(try b.item("work")) }
        _ = try b.outline.context.undo()
        try b.outline.perform("Delete") { try b.outline.delete(try b.item("oat milk")) }
        _ = try await b.sync.syncOnce(through: b.connection)
        _ = try await a.sync.syncOnce(through: a.connection)
        #expect(try a.lines() == ["groceries", "  eggs [x]", "work", "  bread [x]"])
        #expect(try a.lines() == (try b.lines()))
        #expect(try a.outline.check().isEmpty && (try b.outline.check().isEmpty))
        _ = eggs
    }

    @Test func bothEditingEndAlikeAndAnAddIntoADeletedListIsRecovered() async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let a = try await Device(url), b = try await Device(url)
        _ = try a.outline.perform("Add") { try a.outline.append(titles: ["shared", "list"], to: try a.top) }
        _ = try await a.sync.attach(try ServerAddress(url), through: a.connection)
        _ = try await b.sync.attach(try ServerAddress(url), through: b.connection)

        try a.outline.perform("Rename") { try a.outline.rename(try a.item("shared"), to: "by a") }
        try b.outline.perform("Rename") { try b.outline.rename(try b.item("shared"), to: "by b") }
        try a.outline.perform("Delete") { try a.outline.delete(try a.item("list")) }
        _ = try b.outline.perform("Add") { try b.outline.append("into the list", to: try b.item("list")) }
        _ = try await a.sync.syncOnce(through: a.connection)
        let round = try await b.sync.syncOnce(through: b.connection)
        #expect(round.notes.count == 1, "the add under the deleted list is reported: \(round.notes)")
        _ = try await a.sync.syncOnce(through: a.connection)
        #expect(try a.lines() == (try b.lines()))
        let lines = try a.lines()
        #expect(lines.contains("by b") && !lines.contains("by a"), "the later rename wins: \(lines)")
        #expect(lines.contains("  into the list") && !lines.contains("list"), "nothing lost: \(lines)")
    }

    @Test func attachingANonEmptyOutlineToAServerWithOneIsRefused() async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let a = try await Device(url), c = try await Device(url)
        _ = try a.outline.perform("Add") { try a.outline.append("a's", to: try a.top) }
        _ = try await a.sync.attach(try ServerAddress(url), through: a.connection)
        // Again to the same server (as after a kill just before it said it was done): it says so.
        #expect(
            try await a.sync.attach(try ServerAddress(url), through: a.connection)
                == "This outline is shared through \(try ServerAddress(url)) already")
        // To another server: refused.
        await #expect(throws: SyncError.self) {
            try await a.sync.attach(try ServerAddress("postgres://elsewhere.invalid/other"), through: a.connection)
        }
        _ = try c.outline.perform("Add") { try c.outline.append("c's own", to: try c.top) }
        await #expect(throws: SyncError.self) { try await c.sync.attach(try ServerAddress(url), through: c.connection) }
        #expect(try c.lines() == ["c's own"])
        #expect(try c.sync.status() == Replicator.Status(address: nil, outline: nil, pending: 0, seq: 0))
        // A plan as an older Burrow kept it (a key of its own) goes with the rest.
        try a.outline.context.store.setAppValue("sync.fresh.9", "12,13")
        try a.sync.detach()
        #expect(try a.sync.status().address == nil && (try a.lines()) == ["a's"])
        #expect(try a.outline.context.store.appValueKeys(withPrefix: "sync.") == [])
    }

    /// An outline shared before the server kept extras (schema 4: its items have none there): the first round
    /// after the upgrade sends each device's task fields and tags up before it compares digests, so nothing
    /// is repaired away; an extra another device sent first wins, the rest of this one's are kept.
    @Test func extrasKeptBeforeTheServerHadThemGoUpOnce() async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let a = try await Device(url), b = try await Device(url)
        _ = try a.outline.perform("Add") { try a.outline.append(titles: ["Ship", "Call"], to: try a.top) }
        _ = try await a.sync.attach(try ServerAddress(url), through: a.connection)
        _ = try await b.sync.attach(try ServerAddress(url), through: b.connection)
        // As a schema-4 world had it: each device's extras kept only there, the server's items without them.
        for d in [a, b] {
            try ChangeApplier.unrecorded(d.outline.context) {
                try d.outline.context.transactionWithoutUndo {
                    try d.outline.setSyncedExtras(
                        ["state": "TODO", "tagList": ":work:"],
                        of: try #require(try d.outline.context.existingObject(for: try d.item("Ship")) as? Item))
                }
            }
            try d.outline.context.store.setAppValue(Replicator.extrasSentKey, nil)
        }
        try b.outline.context.transactionWithoutUndo {
            let call = try #require(try b.outline.context.existingObject(for: try b.item("Call")) as? Item)
            try b.outline.setSyncedExtras(["state": "NEXT"], of: call)
        }
        // B goes first: its extras go up; then A's, where the server has none.
        let first = try await b.sync.syncOnce(through: b.connection)
        #expect(first.repaired == nil, "\(first)")
        let round = try await a.sync.syncOnce(through: a.connection)
        #expect(round.repaired == nil, "\(round)")
        let ship = try #require(try a.outline.context.existingObject(for: try a.item("Ship")) as? Item)
        #expect(ship.state == "TODO" && ship.tagNames == ["work"])
        _ = try await a.sync.syncOnce(through: a.connection)
        let call = try #require(try a.outline.context.existingObject(for: try a.item("Call")) as? Item)
        #expect(call.state == "NEXT", "B's, which A never had")
        let (items, _) = try await a.connection.items(outline: try #require(try SyncState.load(a.outline.context.store)).outline)
        #expect(items.first { $0.title == "Ship" }?.extras == ["state": "TODO", "tagList": ":work:"])
        // Once: a later round sends nothing of it again.
        #expect(try a.outline.context.store.appValue(Replicator.extrasSentKey) != nil)
    }

    @Test func operationIDsAreStableAndDistinct() {
        let client = UUID(), other = UUID()
        #expect(Replicator.opID(client, entry: 7, index: 2) == Replicator.opID(client, entry: 7, index: 2))
        let ids = Set([
            Replicator.opID(client, entry: 7, index: 2), Replicator.opID(client, entry: 7, index: 3), Replicator.opID(client, entry: 8, index: 2),
            Replicator.opID(other, entry: 7, index: 2), Replicator.opID(client, entry: 7, index: 70_000)
        ])
        #expect(ids.count == 5)
    }
}
