import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// Counts the store maintains (`Attribute.count`) and units of work inside one write transaction, with
/// several connections on one file (each `Store` is a connection of its own, as another process would be).
@Suite struct MaintainedCountTests {
    static let model = folders(maintained: true)

    /// Folders holding files and folders, with their two counts kept by the store, or (as an older program
    /// declared them) as plain attributes.
    static func folders(maintained: Bool) -> Model {
        try! Model {
            Entity("Folder") {
                Attribute("name", .string, default: "")
                maintained ? Attribute.count("fileCount", of: "files") : Attribute("fileCount", .integer64, default: 0)
                maintained ? Attribute.count("folderCount", of: "folders") : Attribute("folderCount", .integer64, default: 0)
                Relationship.toMany("files", "File", inverse: "folder", deleteRule: .cascade)
                Relationship.toMany("folders", "Folder", inverse: "parent", deleteRule: .cascade)
                Relationship.toOne("parent", "Folder", inverse: "folders")
            }
            Entity("File") {
                Attribute("name", .string, default: "")
                Relationship.toOne("folder", "Folder", inverse: "files")
            }
        }
    }

    /// (files, folders) as stored, and as counted from the rows.
    static func counts(_ store: Store, _ folder: ObjectID) throws -> (stored: [Int64], actual: [Int64]) {
        try store.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT fileCount, folderCount FROM Folder WHERE id = ?", arguments: [folder.rowID])!
            let files = try Int64.fetchOne(db, sql: "SELECT count(*) FROM File WHERE folder = ?", arguments: [folder.rowID])!
            let folders = try Int64.fetchOne(db, sql: "SELECT count(*) FROM Folder WHERE parent = ?", arguments: [folder.rowID])!
            return ([row[0], row[1]], [files, folders])
        }
    }

    func file(_ c: Context, _ name: String, in folder: ManagedObject) throws -> ManagedObject {
        let f = try c.insert("File")
        f["name"] = .string(name)
        f.setObject(folder, for: "folder")
        return f
    }

    @Test func insertsMovesAndCascadesKeepEveryCount() throws {
        let store = try Store(inMemoryWith: Self.model)
        let c = Context(store: store)
        let top = try c.insert("Folder"), a = try c.insert("Folder"), b = try c.insert("Folder")
        a.setObject(top, for: "parent")
        b.setObject(top, for: "parent")
        let files = try (0..<5).map { try file(c, "f\($0)", in: a) }
        try c.save()
        // An owner inserted with its members is written with its count, and the object reads it.
        #expect(top["folderCount"] == .integer(2) && a["fileCount"] == .integer(5))
        #expect(try Self.counts(store, a.objectID).stored == [5, 0])

        var seen: [ChangeSet] = []
        c.observeChanges { seen.append($0) }
        files[0].setObject(b, for: "folder")
        try c.save()
        #expect(a["fileCount"] == .integer(4) && b["fileCount"] == .integer(1))
        // The owners' counts are in the change set, so controllers and other processes see them.
        #expect(seen.last?[0].updated[a.objectID]?.contains(slot: Self.model.entity("Folder")!.slot("fileCount")!) == true)

        c.delete(files[1])
        try c.save()
        #expect(a["fileCount"] == .integer(3))
        c.delete(a)  // cascades to its files: only top's folder count changes
        try c.save()
        #expect(top["folderCount"] == .integer(1))
        for id in [top.objectID, b.objectID] {
            let (stored, actual) = try Self.counts(store, id)
            #expect(stored == actual)
        }
    }

    @Test func countsAreNotSettableAndNotValidated() throws {
        let folder = Self.model.entity("Folder")!
        #expect(folder.isMaintained(folder.slot("fileCount")!))
        #expect(!folder.isMaintained(folder.slot("name")!))
        #expect(throws: ModelError.self) {
            _ = try Model {
                Entity("A") {
                    Attribute.count("n", of: "b")
                    Relationship.toOne("b", "B", inverse: "a")
                }
                Entity("B") { Relationship.toOne("a", "A", inverse: "b") }
            }
        }
    }

    /// Two connections, each having read the folder before the other saved: the counts are the store's, not
    /// what either connection read.
    @Test func interleavedConnectionsNeverLoseACount() throws {
        let dir = TemporaryDirectory("objectgraph")
        let one = try Store(path: dir.path(), model: Self.model)
        let c1 = Context(store: one)
        let folder = try c1.insert("Folder")
        try c1.save()
        let two = try Store(path: dir.path(), model: Self.model)
        let c2 = Context(store: two)
        // Each saves over what the other committed after its read (the counts are the store's, whatever was read).
        (c1.mergePolicy, c2.mergePolicy) = (.overwrite, .overwrite)
        let theirs = try #require(try c2.existingObject(for: folder.objectID))
        _ = theirs["fileCount"]
        for k in 0..<10 {
            _ = try file(c1, "one \(k)", in: folder)
            _ = try file(c2, "two \(k)", in: theirs)
            try c1.save()
            try c2.save()
        }
        let (stored, actual) = try Self.counts(one, folder.objectID)
        #expect(stored == [20, 0] && actual == [20, 0])
        // Each context reads back what the store holds after its own save.
        #expect(theirs["fileCount"] == .integer(20))
    }

    /// A change to a row another connection deleted fails with a conflict instead of reporting a change
    /// nobody can see; the row is not brought back.
    @Test func savingAChangeToARowDeletedElsewhereIsAConflict() throws {
        let dir = TemporaryDirectory("objectgraph")
        let c1 = Context(store: try Store(path: dir.path(), model: Self.model))
        let folder = try c1.insert("Folder")
        try c1.save()
        let c2 = Context(store: try Store(path: dir.path(), model: Self.model))
        c2.delete(try #require(try c2.existingObject(for: folder.objectID)))
        try c2.save()
        folder["name"] = "renamed"
        let e = storeError { try c1.save() }
        #expect(e?.code == .conflict)
        #expect(e?.message.contains("deleted elsewhere") == true)
        #expect(try c2.count(FetchRequest("Folder")) == 0)
    }

    /// `transaction` takes in other connections' commits before its edit reads, so what the edit derives
    /// from them is current; a failure rolls back only that unit, and IDs reserved inside it are never
    /// handed out again.
    @Test func transactionsReadCurrentStateAndRollBackWhole() throws {
        let dir = TemporaryDirectory("objectgraph")
        let c1 = Context(store: try Store(path: dir.path(), model: Self.model))
        let folder = try c1.insert("Folder")
        folder["name"] = "before"
        try c1.save(actionName: "Make")
        _ = folder["name"]
        let c2 = Context(store: try Store(path: dir.path(), model: Self.model))
        let theirs = try #require(try c2.existingObject(for: folder.objectID))
        theirs["name"] = "theirs"
        _ = try file(c2, "x", in: theirs)
        try c2.save()

        let seen = try c1.transaction(actionName: "Read") { () -> Value in
            let name = folder["name"]
            let text: String = if case .string(let s) = name { s } else { "?" }
            folder["name"] = .string("after " + text)
            return folder["fileCount"]
        }
        #expect(seen == .integer(1))
        #expect(folder["name"] == "after theirs")
        #expect(c1.undoHistory.undoActionName == "Read" && c1.undoHistory.undoCount == 3)

        // A failing unit: nothing written, its changes gone, history kept.
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try c1.transaction(actionName: "Fail") {
                _ = try file(c1, "lost", in: folder)
                throw Refused()
            }
        }
        #expect(!c1.hasChanges && c1.undoHistory.undoCount == 3)
        // IDs a context reserved inside a transaction that rolled back went with it: another connection
        // reserves them again, so the first must never hand them out.
        let c3 = Context(store: c1.store)
        var reserved: ObjectID?
        #expect(throws: Refused.self) {
            try c3.transaction {
                reserved = try c3.insert("Folder").objectID
                throw Refused()
            }
        }
        let c4 = Context(store: c2.store)
        let next = try file(c4, "next", in: try #require(try c4.existingObject(for: folder.objectID)))
        try c4.save()
        #expect(next.objectID.rowID == reserved?.rowID)  // the range was free again
        let again = try c3.transaction { try c3.insert("Folder").objectID }
        // The second connection goes on through the block it reserved; nothing collides.
        let more = try file(c4, "more", in: try #require(try c4.existingObject(for: folder.objectID)))
        try c4.save()
        #expect(again.rowID != next.objectID.rowID && again.rowID != more.objectID.rowID)
        #expect(try Self.counts(c1.store, folder.objectID).stored == [3, 0])
    }

    /// A store whose counts were wrong before the model maintained them is recounted when opened.
    @Test func aCountThatBecomesMaintainedIsRecountedOnOpen() throws {
        let dir = TemporaryDirectory("objectgraph")
        let before = Self.folders(maintained: false)
        let c = Context(store: try Store(path: dir.path(), model: before))
        let folder = try c.insert("Folder")
        folder["fileCount"] = 7  // stale, as an old program could leave it
        for k in 0..<3 { _ = try file(c, "f\(k)", in: folder) }
        try c.save()
        let store = try Store(path: dir.path(), model: Self.model)
        let (stored, actual) = try Self.counts(store, folder.objectID)
        #expect(stored == actual && actual == [3, 0])
    }
}
