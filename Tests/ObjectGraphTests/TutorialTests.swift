import Foundation
import ObjectGraph
import Testing

/// docs/OBJECTGRAPH.md, run. Every ```swift block of the tutorial is copied into `TutorialProgram.run` verbatim and in
/// the doc's order, so the snippets run as the one program the tutorial says they are, through the public API
/// only (no `@testable`); `print` there records lines instead of writing them, and
/// `theTutorialRunsAsOneProgram` checks them against what the snippets' comments say, and the prose's claims.
/// `everySnippetIsCopiedHereVerbatim` reads the doc at test time and fails when a block is not found here, in
/// order, so neither can change without the other.
///
/// The adaptations, which the check applies to the doc's text too: `import` lines stand at the top of this
/// file, and `"colors.sqlite"` is a file in a temporary folder (`colorsFile`).
@Suite struct TutorialTests {
    /// What the check replaces in a doc block before looking for it here.
    static let adaptations = [("Store(path: \"colors.sqlite\"", "Store(path: colorsFile")]

    @Test func theTutorialRunsAsOneProgram() throws {
        let folder = try TemporaryFolder()
        let run = try TutorialProgram().run(in: folder.path)
        #expect(
            run.printed == [
                // 3. Open a store and insert
                "\"#FF8000\"",
                // 4. Validation
                "Color #2.red = 1.5 is above the maximum 1.0",
                // 5. Fetch: whole objects, then partial faults, then values
                "\"Orange\" \"#FF8000\"", "\"Unnamed Color\" \"#FF0000\"",
                "\"Orange\"", "\"Unnamed Color\"",
                "#1 \"Orange\" 1.0", "#2 \"Unnamed Color\" 1.0",
                // 7. A batch update: the observer sees it as a save's change set; one commit in the history
                "[] []", "#1 [\"blue\"]", "#2 [\"blue\"]", "2 1 true",
                // 8. Keep a list on screen up to date
                "2 \"Orange\"",
                // A change in the row itself, made where the user sees it: flagged; the difference moves nothing.
                "[] []", "#1 [\"green\"]", "update [0.0->0.0]; user-driven", "true",
                // 9. Undo: a rename, its undo and its redo, each a unit of work: its change set (section 7), then
                // exactly one batch (section 8)
                "[] []", "#2 [\"name\"]", "update [0.1->0.1]",
                "[] []", "#2 [\"name\"]", "update [0.1->0.1]",
                "[] []", "#2 [\"name\"]", "update [0.1->0.1]",
                // The history is the store's: a named action of a program, listed, then undone (“Crimson” sorts
                // before “Orange”, so the row moves and moves back)
                "[] []", "#2 [\"name\"]", "move [0.1->0.0]",
                "Rename “Crimson” palette tool done", "Rename “Red”  done",
                "[] []", "#2 [\"name\"]", "move [0.0->0.1]",
                "Undid Rename “Crimson” made by palette tool",
                // 10. Errors
                "There is no entity called Colour",
                // reset(): the list fetches again (its rows are new objects: one batch of updates), then each
                // observer is told once (section 7's prints an empty change set)
                "update [0.0->0.0, 0.1->0.1]", "[] []", "Everything forgotten: fetch again", "2 2",
                // 11. Work in the background: the three rows saved there arrive at the poll, as one batch
                "insert [0.0, 0.1, 0.4]", "5 5"
            ])
        #expect(run.howMany == 2)
        #expect(run.undoName == "Rename “Red”")
        #expect(run.renamed == .string("Red"))

        // Section 6: the version-1 file opens with `palettes`, migrated in place, its colours kept.
        // The file with its log: the checkpoint is best effort (passive), and one that meets a reader's
        // snapshot copies part of the log, when the file alone is not whole (it failed once as "malformed"
        // in a full run on a loaded machine).
        run.store.checkpoint()
        let copy = folder.path + "/palettes.sqlite"
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: folder.path + "/colors.sqlite" + suffix) {
            try FileManager.default.copyItem(atPath: folder.path + "/colors.sqlite" + suffix, toPath: copy + suffix)
        }
        let migrated = Context(store: try Store(path: copy, model: run.palettes))
        let warm = try migrated.insert("Palette")
        warm["title"] = "Warm"
        let kept = try migrated.fetch(FetchRequest("Color", sortedBy: [SortKey("name")]))
        #expect(kept.map { $0["name"] as String } == ["Navy", "Olive", "Orange", "Red", "Teal"])
        for color in kept { color.setObject(warm, for: "palette") }
        #expect(warm.objects("colors").count == 5)
        try migrated.save()
        migrated.delete(warm)
        try migrated.save()
        #expect(try migrated.count(FetchRequest("Color")) == 0)
    }

    @Test func aChangeThatIsNotAdditiveIsRefusedAndTheFileLeftUntouched() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/colors.sqlite"
        do {
            let context = Context(
                store: try Store(
                    path: file,
                    model: try Model(version: 1) {
                        Entity("Color") {
                            Attribute("red", .double, default: 0, min: 0, max: 1)
                            Attribute("name", default: "Unnamed Color", indexed: true)
                        }
                    }))
            _ = try context.insert("Color")
            try context.save()
            context.store.checkpoint()
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let changedType = try Model(version: 2) {
            Entity("Color") {
                Attribute("red", .string, default: "")
                Attribute("name", default: "Unnamed Color", indexed: true)
            }
        }
        #expect(throws: StoreError.self) { _ = try Store(path: file, model: changedType) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes)
    }

    /// Section 1: mistakes throw a `ModelError` when the model is built; the version hash is a digest of the
    /// declaration.
    @Test func modelMistakesThrowAndTheVersionHashIsDeterministic() throws {
        #expect(throws: ModelError.self) {
            _ = try Model { Entity("Color") { Relationship.toOne("palette", "Palette", inverse: "colors") } }
        }
        #expect(throws: ModelError.self) {
            _ = try Model { Entity("Color") { Attribute("red", .double, default: "zero") } }
        }
        #expect(throws: ModelError.self) {
            _ = try Model { Entity("Color") { Attribute("name", .string, pattern: "[") } }
        }
        func declare() throws -> Model {
            try Model(version: 1) { Entity("Color") { Attribute("name", default: "Unnamed Color", indexed: true) } }
        }
        #expect(try declare().versionHash == declare().versionHash)
    }

    /// Section 9: a group of saves is one step; a step that would overwrite a change made elsewhere throws
    /// `UndoConflict`, changes nothing and is dropped; a step whose work was done elsewhere succeeds.
    /// Section 10: `catch StoreError.conflict` catches by code.
    @Test func undoGroupsConflictsAndCatchingByCode() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/colors.sqlite"
        let model = try Model { Entity("Color") { Attribute("name", default: "Unnamed Color") } }
        let context = Context(store: try Store(path: file, model: model))
        let elsewhere = Context(store: try Store(path: file, model: model))  // as another process
        // The history is the store's, shared by every process; this one's saves are not actions (as a sync
        // bringing other machines' changes), so an undo here can meet them as conflicts.
        elsewhere.undoHistory.recordsActions = false

        let sky = try context.insert("Color")
        sky["name"] = "Sky"
        try context.save(actionName: "Add “Sky”")
        context.undoHistory.beginGroup("Paste")
        _ = try context.insert("Color")
        try context.save()
        _ = try context.insert("Color")
        try context.save()
        try context.undoHistory.endGroup()
        #expect(context.undoHistory.undoCount == 2)
        #expect(context.undoHistory.undoActionName == "Paste")

        // Undoing the paste whose objects were deleted elsewhere: the work is done; it succeeds.
        for object in try elsewhere.fetch(FetchRequest("Color", where: Property("name") == "Unnamed Color")) {
            elsewhere.delete(object)
        }
        try elsewhere.save()
        try context.undo()
        #expect(context.undoHistory.undoActionName == "Add “Sky”")

        // A rename overwritten elsewhere: undoing it would overwrite that change.
        sky["name"] = "Azure"
        try context.save(actionName: "Rename “Azure”")
        let skyThere = try #require(try elsewhere.fetch(FetchRequest("Color")).first)
        skyThere["name"] = "Cyan"
        try elsewhere.save()
        #expect(throws: UndoConflict.self) { try context.undo() }
        #expect(context.undoHistory.undoActionName == "Add “Sky”")  // dropped; the step before it is next
        #expect(try context.fetchValues(FetchRequest("Color"), keys: ["name"]).map { $0.values[0] } == [.string("Cyan")])

        // An update of a row deleted elsewhere is a conflict, caught by its code.
        elsewhere.delete(skyThere)
        try elsewhere.save()
        sky["name"] = "Teal"
        var caught = false
        do {
            try context.save()
        } catch StoreError.conflict {
            caught = true
        }
        #expect(caught)
    }
}

/// The tutorial as a program whose `print` records lines instead of writing them (a method, so that the
/// snippets' own `print` calls, closures included, reach it unchanged).
struct TutorialProgram {
    final class Transcript {
        var lines: [String] = []
    }

    let transcript = Transcript()

    func print(_ items: Any...) { transcript.lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    /// What the checks need from a run of the tutorial.
    struct Run {
        let printed: [String]
        let howMany: Int
        let undoName: String?
        let renamed: Value
        let store: Store
        let palettes: Model
    }

    /// The tutorial's snippets in order, as one program. (Section 10's last `catch` is needed: without it, Swift
    /// 6.3.1 crashes compiling `catch StoreError.unknownEntity` after the typed throw of `insert`.)
    func run(in folder: String) throws -> Run {
        let colorsFile = folder + "/colors.sqlite"

        // 1. Declare the model (2. A derived value: its `hex`)
        let model = try Model(version: 1) {
            Entity("Color") {
                Attribute("red", .double, default: 0, min: 0, max: 1)
                Attribute("green", .double, default: 0, min: 0, max: 1)
                Attribute("blue", .double, default: 0, min: 0, max: 1)
                Attribute("name", default: "Unnamed Color", indexed: true)
                Attribute.transient("hex", .string) { color in
                    let parts = ["red", "green", "blue"].map { key -> String in
                        let s = String(Int(((color[key] as Double) * 255).rounded()), radix: 16, uppercase: true)
                        return s.count == 1 ? "0" + s : s
                    }
                    return .string("#" + parts.joined())
                }
            }
        }

        // 3. Open a store and insert
        let store = try Store(path: colorsFile, model: model)  // created, or opened and migrated
        let context = Context(store: store)

        let orange = try context.insert("Color")  // defaults applied, permanent ID assigned
        orange["name"] = "Orange"
        orange["red"] = 1
        orange["green"] = 0.5
        print(orange["hex"])  // "#FF8000"
        try context.save()  // one SQLite transaction

        // 4. Validation
        let bad = try context.insert("Color")
        bad["red"] = 1.5
        do {
            try context.save()
        } catch let failure as ValidationFailure {
            print(failure.errors[0])  // Color #2.red = 1.5 is above the maximum 1.0
        }
        bad["red"] = 1
        try context.save()

        // 5. Fetch
        let byName = FetchRequest("Color", where: Property("red") > 0.5, sortedBy: [SortKey("name")])
        let colors = try context.fetch(byName)  // IDs in order; objects are made as you touch them
        for color in colors { print(color["name"], color["hex"]) }  // "Orange" "#FF8000", "Unnamed Color" "#FF0000"
        let howMany = try context.count(FetchRequest("Color"))  // 2

        var names = byName
        names.propertiesToFetch = ["name"]
        for color in try context.fetch(names) { print(color["name"]) }

        for (id, values) in try context.fetchValues(byName, keys: ["name", "red"]) { print(id, values[0], values[1]) }

        // 6. Relationships and delete rules (`TutorialTests` opens the file with `palettes`)
        let palettes = try Model(version: 2) {
            Entity("Palette") {
                Attribute("title", .string)
                Relationship.toMany("colors", "Color", inverse: "palette", deleteRule: .cascade)
            }
            Entity("Color") {
                Attribute("red", .double, default: 0, min: 0, max: 1)
                Attribute("green", .double, default: 0, min: 0, max: 1)
                Attribute("blue", .double, default: 0, min: 0, max: 1)
                Attribute("name", default: "Unnamed Color", indexed: true)
                Relationship.toOne("palette", "Palette", inverse: "colors")
            }
        }

        // 7. Observe what a save changed
        let colorEntity = model.entity("Color")!
        context.observeChanges { changes in
            let colorChanges = changes[colorEntity.index]
            print(colorChanges.inserted, colorChanges.deleted)
            for (id, keys) in colorChanges.updated { print(id, keys.names(in: colorEntity)) }
        }

        let token = try store.currentChangeToken()
        let dimmed = try context.batchUpdate(FetchRequest("Color", where: Property("red") == 1.0), set: ["blue": 0.25])
        let history = try store.changeHistory(after: token, entities: ["Color"])
        print(dimmed.count, history.commits.count, history.isComplete)  // 2 1 true

        // 8. Keep a list on screen up to date
        let request = FetchRequest("Color", sortedBy: [SortKey("name")])
        let list = ResultsController(context: context, request: request)
        list.onChange = { batch in
            // batch.deletes / moves' sources: old indexes; batch.inserts / moves' destinations: new indexes;
            // batch.updates: rows that changed but did not move, old index -> new index.
            print(batch)
        }
        try list.performFetch()
        print(list.count, list.object(at: 0)["name"])  // 2 "Orange"

        var shown = list.snapshot().items  // [ObjectID], for a diffable data source
        list.onDifference = { [unowned list] difference in shown = shown.applying(difference) ?? list.objectIDs }
        try list.performUserDrivenChange {  // edited in the row itself: the batch comes back `isUserDriven`
            orange["green"] = 0.55
            try context.save()
        }
        print(shown == list.objectIDs)

        // 9. Undo
        bad["name"] = "Red"
        try context.save(actionName: "Rename “Red”")
        let undoName = context.undoHistory.undoActionName  // "Rename “Red”"
        try context.undo()  // one new unit of work: the previous state, same object IDs
        try context.redo()

        context.undoHistory.origin = "palette tool"  // recorded with each action this context saves
        context.setActionPlace(ActionPlace(focus: bad.objectID))
        bad["name"] = "Crimson"
        try context.save(actionName: "Rename “Crimson”")
        for e in try context.undoHistory.entries(limit: 2) { print(e.name, e.origin, e.state) }
        if let done = try context.undoAction() { print("Undid", done.name, "made by", done.origin) }
        context.undoHistory.limits = HistoryLimits(actions: 1_000, bytes: 8 << 20)  // past either, the oldest go

        // 10. Errors
        do {
            _ = try context.insert("Colour")
        } catch StoreError.unknownEntity {
            print("There is no entity called Colour")
        } catch {
            print(error.userMessage)
        }
        // Read before the reset below, which leaves `bad` stale.
        let renamed = bad["name"]

        let draft = try context.insert("Color")  // never saved
        draft["name"] = "Draft"
        let resetWatcher = context.observeChanges { changes in
            if changes.invalidatesAll { print("Everything forgotten: fetch again") }
        }
        context.reset()  // the draft is gone; objects held from before are stale, so fetch them again
        print(try context.count(FetchRequest("Color")), list.count)  // 2 2
        context.removeObserver(resetWatcher)

        // 11. Work in the background
        let background = try BackgroundContext(sharingFileOf: store)
        let imported = try background.performAndWait { context in
            for name in ["Teal", "Olive", "Navy"] {
                let color = try context.insert("Color")
                color["name"] = .string(name)
            }
            try context.saveWithoutUndo()
            return try context.count(FetchRequest("Color"))
        }
        try store.poll()  // the list of section 8 delivers the three new rows, as one batch
        print(imported, list.count)

        return Run(printed: transcript.lines, howMany: howMany, undoName: undoName, renamed: renamed, store: store, palettes: palettes)
    }
}

/// A folder of its own under the temporary directory, removed with everything in it when released.
private final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tutorial-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The check that keeps docs/OBJECTGRAPH.md and `TutorialTests` the same program.
@Suite struct TutorialDocumentTests {
    @Test func everySnippetIsCopiedHereVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/OBJECTGRAPH.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map(String.init))
        let blocks = Self.swiftBlocks(in: doc)
        #expect(!blocks.isEmpty, "docs/OBJECTGRAPH.md has no swift blocks")
        let code = Self.normalised(source)
        var from = code.startIndex
        for (n, block) in blocks.enumerated() {
            var lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for line in lines where line.hasPrefix("import ") {
                #expect(sourceLines.contains(line), "snippet \(n + 1): `\(line)` is not an import of TutorialTests.swift")
            }
            lines.removeAll { $0.hasPrefix("import ") }
            var text = Self.normalised(lines.joined(separator: "\n"))
            for (inDoc, inTest) in TutorialTests.adaptations { text = text.replacingOccurrences(of: inDoc, with: inTest) }
            guard let found = code.range(of: text, range: from..<code.endIndex) else {
                Issue.record(
                    "snippet \(n + 1) of docs/OBJECTGRAPH.md is not in TutorialTests.swift after snippet \(n) (copy it there verbatim, and run it):\n\(block)"
                )
                continue
            }
            from = found.upperBound
        }
    }

    /// The text of every ```swift block, in order.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line.trimmingCharacters(in: .whitespaces) == "```swift" { current = [] }
            } else if line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Every run of whitespace as one space, none at the ends.
    static func normalised(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
