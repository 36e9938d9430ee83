import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// What a device did offline and has not sent yet survives an upgrade of the program: the outbox's entries,
/// written in the old model's entity and slot numbers, are read in the new model's after the migration
/// (before, every entry was refused as "written by another version" and sync stopped for good).
@Suite struct OutboxUpgradeTests {
    static let v1 = try! Model(version: 1) {
        Entity("Note") {
            Attribute("text", .string, default: "")
            Attribute("rank", .integer64, default: 0)
            Relationship.toOne("folder", "Folder", inverse: "notes")
        }
        Entity("Folder") {
            Attribute("name", .string, default: "Inbox")
            Relationship.toMany("notes", "Note", inverse: "folder")
        }
    }

    /// v1 with a new entity declared first, an attribute declared between two old ones and a relationship
    /// before the old one: every old number moves.
    static let v2 = try! Model(version: 2) {
        Entity("Label") {
            Attribute("word", .string, default: "")
            Relationship.toMany("notes", "Note", inverse: "label")
        }
        Entity("Note") {
            Attribute("text", .string, default: "")
            Attribute("pinned", .bool, default: true)
            Attribute("rank", .integer64, default: 0)
            Relationship.toOne("label", "Label", inverse: "notes")
            Relationship.toOne("folder", "Folder", inverse: "notes")
        }
        Entity("Folder") {
            Attribute("name", .string, default: "Inbox")
            Relationship.toMany("notes", "Note", inverse: "folder")
        }
    }

    /// v1 declared in another order: the same hash (names are digested sorted), other slot numbers.
    static let v1Reordered = try! Model(version: 1) {
        Entity("Folder") {
            Attribute("name", .string, default: "Inbox")
            Relationship.toMany("notes", "Note", inverse: "folder")
        }
        Entity("Note") {
            Attribute("rank", .integer64, default: 0)
            Attribute("text", .string, default: "")
            Relationship.toOne("folder", "Folder", inverse: "notes")
        }
    }

    /// Each entry's Note objects as "name: field=value…" before → after, by name, so two models' numbers
    /// compare.
    static func entries(_ store: Store) throws -> [String] {
        try store.outbox(after: 0).map { e in
            func show(_ v: [String: Value]?) -> String {
                guard let v else { return "-" }
                return v.keys.sorted().map { k in "\(k)=\(v[k]!)" }.joined(separator: " ")
            }
            let notes = e.objects.filter { $0.entity == "Note" }.map { "\(show($0.before)) → \(show($0.after))" }
            return "\(e.name): \(notes.joined(separator: "; "))"
        }
    }

    /// Writes three unsent actions under v1 and returns the folder's row ID.
    static func writeOffline(_ path: String) throws -> Int64 {
        let store = try Store(path: path, model: v1)
        try store.setOutbox(enabled: true)
        let c = Context(store: store)
        let folder = try c.insert("Folder")
        folder["name"] = "Work"
        let note = try c.insert("Note")
        note["text"] = "ship"
        note["rank"] = 3
        note.setObject(folder, for: "folder")
        try c.save(actionName: "Add ship")
        note["text"] = "ship it"
        try c.save(actionName: "Rename ship")
        let other = try c.insert("Note")
        other["text"] = "gone"
        other.setObject(folder, for: "folder")
        try c.save(actionName: "Add gone")
        c.delete(other)
        try c.save(actionName: "Delete gone")
        return folder.objectID.rowID
    }

    @Test(arguments: [true, false])
    func unsentEntriesAreReadAfterAMigration(layoutKept: Bool) throws {
        let dir = TemporaryDirectory("outbox-upgrade")
        let folder = try Self.writeOffline(dir.path())
        if !layoutKept {
            // A store written before stores kept their slot layout: the migration infers the old one.
            let q = try DatabaseQueue(path: dir.path())
            try q.write { db in try db.execute(sql: "DELETE FROM og_metadata WHERE key = 'layout'") }
        }
        let store = try Store(path: dir.path(), model: Self.v2)
        let f = "folder=\(folder)"
        #expect(
            try Self.entries(store) == [
                "Add ship: - → \(f) label=nil pinned=true rank=3 text=\"ship\"",
                "Rename ship: \(f) label=nil pinned=true rank=3 text=\"ship\" → \(f) label=nil pinned=true rank=3 text=\"ship it\"",
                "Add gone: - → \(f) label=nil pinned=true rank=0 text=\"gone\"",
                "Delete gone: \(f) label=nil pinned=true rank=0 text=\"gone\" → -"
            ])
        // The folder's own entry moved from entity 1 to entity 2 and reads as a folder.
        let first = try #require(try store.outbox(after: 0).first)
        #expect(first.objects.first { $0.entity == "Folder" }?.after?["name"] == .string("Work"))
        // Later actions append after them, in the new numbers.
        let c = Context(store: store)
        let label = try c.insert("Label")
        label["word"] = "urgent"
        try c.save(actionName: "Add urgent")
        #expect(try store.outbox(after: 0).map(\.name) == ["Add ship", "Rename ship", "Add gone", "Delete gone", "Add urgent"])
    }

    /// A model that only reordered its declarations keeps its hash; the store's layout tells the numbers moved.
    @Test func aReorderedModelReadsTheEntriesByName() throws {
        #expect(Self.v1.versionHash == Self.v1Reordered.versionHash)
        let dir = TemporaryDirectory("outbox-upgrade")
        let folder = try Self.writeOffline(dir.path())
        let before = try Self.entries(try Store(path: dir.path(), model: Self.v1))
        #expect(before.first == "Add ship: - → folder=\(folder) rank=3 text=\"ship\"")
        #expect(try Self.entries(try Store(path: dir.path(), model: Self.v1Reordered)) == before)
    }

    /// A store's layout is written as JSON with `try!` (see `SlotLayout.json`): any model's names, the join
    /// entities of many-to-many relationships and non-ASCII names included, encode and read back the same.
    @Test func aLayoutReadsBackAsWritten() throws {
        let model = try Model(version: 3) {
            Entity("Nöte") {
                Attribute("tëxt \\ 日本 \u{7F}", .string, default: "")
                Relationship.toMany("tags", "Tag", inverse: "notes")
            }
            Entity("Tag") {
                Attribute("name", .string, default: "")
                Relationship.toMany("notes", "Nöte", inverse: "tags")
            }
        }
        let odd = try Model(version: 1) {
            Entity("a/b\u{1}\n\t\r\u{8}\u{C}\u{1F}") {
                Attribute("x\\y/z \u{7F}\u{85}\u{2028}🦫", .string, default: "")
            }
        }
        for m in [model, Self.v1, Self.v2, odd] {
            let layout = SlotLayout(m)
            #expect(layout.entities.count == m.entities.count)
            #expect(SlotLayout.decode(layout.json) == layout)
            // The text written by hand, which an open compares instead of decoding, is JSONEncoder's.
            #expect(layout.plainJSON == layout.json)
            #expect(SlotLayout.decode(layout.plainJSON) == layout)
            #expect(SlotLayout.decode(layout.json, expecting: layout) == layout)
            // Another layout's text is decoded, never taken for the expected one.
            let other = SlotLayout(m === Self.v1 ? Self.v2 : Self.v1)
            #expect(SlotLayout.decode(other.json, expecting: layout) == other)
        }
    }

    /// A layout left by a program that wrote it for another model (its hash not the store's) is not
    /// trusted: the old numbers are inferred, and the entries still read right.
    @Test func aLayoutOfAnotherModelIsNotTrusted() throws {
        let dir = TemporaryDirectory("outbox-upgrade")
        let folder = try Self.writeOffline(dir.path())
        let q = try DatabaseQueue(path: dir.path())
        try q.write { db in
            try db.execute(sql: "UPDATE og_metadata SET value = ? WHERE key = 'layout'", arguments: [SlotLayout(Self.v1Reordered).json])
            try db.execute(sql: "UPDATE og_metadata SET value = 'another' WHERE key = 'layout_hash'")
        }
        let store = try Store(path: dir.path(), model: Self.v2)
        #expect(try Self.entries(store).first == "Add ship: - → folder=\(folder) label=nil pinned=true rank=3 text=\"ship\"")
    }

    /// An entry whose bytes name an entity or a row width the old layout has not (a damaged file) is left
    /// as it is and refused when read: the migration neither traps nor fails (it did: an index out of range
    /// inside the open's transaction, so the store could never be opened again).
    @Test func anEntryOfTheWrongShapeStaysAndIsRefused() throws {
        let dir = TemporaryDirectory("outbox-upgrade")
        _ = try Self.writeOffline(dir.path())
        var wide = UndoRecord(name: "Wide")
        wide.append(ObjectID(entity: 0, rowID: 1), before: nil, after: Array(repeating: .string("x"), count: 9))
        var stranger = UndoRecord(name: "Stranger")
        stranger.append(ObjectID(entity: 7, rowID: 1), before: nil, after: [.string("x")])
        let q = try DatabaseQueue(path: dir.path())
        try q.write { db in
            for r in [wide, stranger] {
                try db.execute(
                    sql: "INSERT INTO og_outbox(name, model_hash, step, kind) VALUES (?, ?, ?, 0)",
                    arguments: [r.name, Self.v1.versionHash, Data(r.encoded(changedOnly: false))])
            }
        }
        let store = try Store(path: dir.path(), model: Self.v2)
        #expect(try store.outbox(after: 0, limit: 4).map(\.name) == ["Add ship", "Rename ship", "Add gone", "Delete gone"])
        #expect(throws: StoreError.self) { try store.outbox(after: 4, limit: 1) }
        #expect(try store.outboxCount() == 6)
    }

    /// An entry that does not decode under the old model stays and is refused, as a damaged one always was.
    @Test func aDamagedEntryIsStillRefused() throws {
        let dir = TemporaryDirectory("outbox-upgrade")
        _ = try Self.writeOffline(dir.path())
        let q = try DatabaseQueue(path: dir.path())
        try q.write { db in try db.execute(sql: "UPDATE og_outbox SET step = x'4f5531ff' WHERE seq = 2") }
        let store = try Store(path: dir.path(), model: Self.v2)
        #expect(throws: StoreError.self) { try store.outbox(after: 0) }
        #expect(try store.outbox(after: 0, limit: 1).map(\.name) == ["Add ship"])
    }
}
