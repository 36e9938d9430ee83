import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// Store errors as callers see them: a code to catch by (`~=`), the object involved when there is one, and
/// messages that name the store, never a program built on the library.
@Suite struct StoreErrorTests {
    static let model = try! Model(version: 1) {
        Entity("Folder") {
            Attribute("name", .string, default: "", unique: true)
            Relationship.toMany("folders", "Folder", inverse: "parent", deleteRule: .cascade)
            Relationship.toOne("parent", "Folder", inverse: "folders")
            Relationship.toMany("notes", "Note", inverse: "folder", deleteRule: .cascade)
        }
        Entity("Note") {
            Attribute("text", .string, default: "")
            Relationship.toOne("folder", "Folder", inverse: "notes")
        }
    }

    /// The code a throwing call fails with, matched the way a caller would (`catch StoreError.x`).
    func code(_ body: () throws -> Void) -> StoreError.Code? {
        do {
            try body()
            return nil
        } catch StoreError.unknownEntity {
            return .unknownEntity
        } catch StoreError.unknownProperty {
            return .unknownProperty
        } catch StoreError.notSelfToMany {
            return .notSelfToMany
        } catch StoreError.conflict {
            return .conflict
        } catch StoreError.uniqueConstraint {
            return .uniqueConstraint
        } catch StoreError.foreignKey {
            return .foreignKey
        } catch {
            Issue.record("not a StoreError: \(error)")
            return nil
        }
    }

    @Test func misuseThrowsInsteadOfTrapping() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        #expect(code { _ = try c.insert("Unknown") } == .unknownEntity)
        #expect(code { _ = try c.fetch(FetchRequest("Unknown")) } == .unknownEntity)
        #expect(code { _ = try c.count(FetchRequest("Unknown")) } == .unknownEntity)
        #expect(code { _ = try c.fetchValues(FetchRequest("Folder"), keys: ["colour"]) } == .unknownProperty)
        // "folders" is never a to-many of Note to itself; "notes" is a to-many of Folder, but to another entity.
        let f = try c.insert("Folder")
        try c.save()
        #expect(code { _ = try c.countDescendants(of: f, through: "notes") } == .notSelfToMany)
        #expect(code { _ = try c.descendantIDs(of: f, through: "nothing") } == .notSelfToMany)
        #expect(try c.countDescendants(of: f, through: "folders") == 0)
        // Nothing was written by the refused calls.
        #expect(try c.count(FetchRequest("Folder")) == 1)
    }

    @Test func aConflictNamesTheObjectAndIsCaughtByItsCode() throws {
        let dir = TemporaryDirectory("og-conflict")
        defer { withExtendedLifetime(dir) {} }
        let path = dir.path()
        // Two connections, as two processes would have: `mine` has not taken in the delete when it saves.
        let mine = Context(store: try Store(path: path, model: Self.model))
        let theirs = Context(store: try Store(path: path, model: Self.model))
        let f = try mine.insert("Folder")
        try mine.save()
        theirs.delete(theirs.object(for: f.objectID))
        try theirs.save()
        f["name"] = .string("renamed")
        do {
            try mine.save()
            Issue.record("a change to a row deleted elsewhere was saved")
        } catch StoreError.conflict {
            // Caught by its code; the error names the object.
        }
        do {
            try mine.save()
            Issue.record("the refused change was saved on a second try")
        } catch let e as StoreError {
            #expect(e.code == .conflict && e.object == f.objectID && e.entity == "Folder", "\(e)")
        }
    }

    @Test func aUniqueValueTakenNamesEntityAndProperty() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let a = try c.insert("Folder")
        a["name"] = .string("Inbox")
        try c.save()
        let b = try c.insert("Folder")
        b["name"] = .string("Inbox")
        do {
            try c.save()
            Issue.record("two folders named Inbox")
        } catch let e as StoreError {
            #expect(e.code == .uniqueConstraint && e.entity == "Folder" && e.property == "name", "\(e)")
            #expect(e.message == "cannot save: another Folder already has this name")
            #expect(e.engine?.statement != nil && e.engine?.code != nil, "the engine's statement and code are kept")
        }
        // The context keeps its changes; fixing the value saves.
        b["name"] = .string("Archive")
        try c.save()
        #expect(try c.count(FetchRequest("Folder")) == 2)
    }

    @Test func aDanglingReferenceNamesTheObjectAtFault() throws {
        let store = try Store(inMemoryWith: Self.model)
        let mine = Context(store: store), theirs = Context(store: store)
        let f = try mine.insert("Folder")
        try mine.save()
        // Another context deletes the folder; this one, not yet knowing, adds a note to it.
        let note = try mine.insert("Note")
        note.setObject(f, for: "folder")
        theirs.delete(theirs.object(for: f.objectID))
        try theirs.save()
        do {
            try mine.save()
            Issue.record("a note was saved into a deleted folder")
        } catch let e as StoreError {
            #expect(e.code == .foreignKey, "\(e)")
            #expect(e.object == note.objectID && e.property == "folder", "\(e)")
        }
    }

    @Test func messagesNameTheStoreNotAProgram() throws {
        let folder = TemporaryDirectory("og-errors")
        defer { withExtendedLifetime(folder) {} }
        let dir = folder.url
        let text = dir.appendingPathComponent("notes.txt").path
        try Data("just some text, long enough to be a header".utf8).write(to: URL(fileURLWithPath: text))
        var messages: [String] = []
        do { _ = try Store(path: text, model: Self.model) } catch { messages.append(error.userMessage) }
        do { _ = try Store(path: dir.path, model: Self.model) } catch { messages.append(error.userMessage) }
        do { _ = try Store(readingAt: dir.appendingPathComponent("absent").path, model: Self.model) } catch {
            messages.append(error.userMessage)
        }
        #expect(messages.count == 3)
        for m in messages {
            #expect(!m.localizedCaseInsensitiveContains("burrow") && !m.localizedCaseInsensitiveContains("outline"), "\(m)")
        }
    }
}
