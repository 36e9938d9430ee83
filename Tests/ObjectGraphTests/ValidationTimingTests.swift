import ObjectGraph
import TestSupport
import Testing

/// Validation runs when a unit of work is saved, never when a value is set (as Core Data validates at
/// save): a value that breaks a rule and is put right before the save saves, however it was put right.
/// Public API only.
@Suite struct ValidationTimingTests {
    // `try!`: a model literal of the test's own, valid by construction; were it not, every test of the suite would
    // stop at its first use with the model's error, so a broken model can never let a test pass.
    static let model = try! Model {
        Entity("Shelf") {
            Attribute("name", .string, default: "shelf", maxLength: 8)
            Relationship.toMany("books", "Book", inverse: "shelf", deleteRule: .deny)
        }
        Entity("Book") {
            Attribute("title", .string, default: "untitled", maxLength: 10)
            Attribute("pages", .integer64, default: 1, min: 1, max: 5000)
            Relationship.toOne("shelf", "Shelf", inverse: "books", optional: false)
        }
    }

    @Test func aBrokenRuleMendedBeforeTheSaveSaves() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let shelf = try c.insert("Shelf")
        let book = try c.insert("Book")
        book.setObject(shelf, for: "shelf")
        book["pages"] = 0
        book["title"] = "far too long a title"
        book["pages"] = 300
        book["title"] = "Dune"
        try c.save()
        // Changed objects: out of range, then back.
        book["pages"] = 9999
        shelf["name"] = "a name far too long"
        book["pages"] = 412
        shelf["name"] = "Sci-fi"
        try c.save()
        // A required to-one cut and joined again.
        book.setObject(nil, for: "shelf")
        book.setObject(shelf, for: "shelf")
        try c.save()
        // A denied delete taken back by rolling back, then a save of something else.
        c.delete(shelf)
        c.rollback()
        book["pages"] = 500
        try c.save()
        // A failed save keeps the unit: mended, it saves.
        book["pages"] = -3
        #expect(validationErrors { try c.save() }.count == 1)
        book["pages"] = 3
        try c.save()
        let stored = try #require(try Context(store: c.store).existingObject(for: book.objectID))
        #expect(stored["pages"] as Int64 == 3 && stored["title"] as String == "Dune")
    }

    /// The departure from Core Data (docs/OBJECTGRAPH.md §9): the undo history holds saved actions only, so
    /// an unsaved invalid value is not undone by `undo()`, which refuses and changes nothing (it never
    /// undoes a saved action under unsaved changes); `rollback()` takes it back, and the save then saves.
    @Test func anUnsavedValueIsTakenBackByRollbackNotUndo() throws {
        let c = Context(store: try Store(inMemoryWith: Self.model))
        let shelf = try c.insert("Shelf")
        let book = try c.insert("Book")
        book.setObject(shelf, for: "shelf")
        try c.save(actionName: "Add")
        book["pages"] = 0
        #expect(storeError { try c.undo() }?.code == .conflict)
        #expect(book["pages"] as Int64 == 0 && c.undoHistory.undoActionName == "Add")
        c.rollback()
        try c.save()
        #expect(book["pages"] as Int64 == 1 && !c.hasChanges)
    }
}
