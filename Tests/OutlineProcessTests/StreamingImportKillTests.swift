import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// `burrow import` of Markdown and JSON (read after a first pass, written a batch at a time into one
/// transaction, issue 17) killed with SIGKILL while it writes: the store holds each import whole or not at
/// all, and checks clean. Kills land where the import has written a random share of what a whole one writes
/// (its own count of bytes written, `/proc/PID/io`), so most fall between batches, not only before or after.
@Suite(.serialized, .onAThreadOfItsOwn("processes")) struct StreamingImportKillTests {
    /// A file of more than two batches of items whose notes (Markdown) or members (JSON) come after their
    /// sub-items now and then: the first pass must have found them before the first batch is written.
    static func document(_ ext: String, items: Int) -> String {
        var text = ext == "json" ? "{\"items\": [\n" : ""
        var i = 0
        var first = true
        while i < items {
            if ext == "json" {
                text +=
                    (first ? "" : ",\n") + "{\"children\": [{\"title\": \"sub \(i)\"}, {\"title\": \"sub \(i + 1)\"}], \"title\": \"item \(i + 2)\""
                text += i % 3 == 0 ? ", \"note\": \"late \(i)\", \"done\": true}" : "}"
            } else {
                text += "- item \(i + 2)\n  - sub \(i)\n  - sub \(i + 1)\n" + (i % 3 == 0 ? "\n  late \(i)\n" : "")
            }
            first = false
            i += 3
        }
        return text + (ext == "json" ? "\n]}\n" : "")
    }

    @Test(arguments: ["md", "json"])
    func importsKilledWhileWritingAreWholeOrAbsent(ext: String) throws {
        let folder = TemporaryDirectory("burrow-kill")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "P", "--db", db]).status == 0)
        let file = folder.path("items.\(ext)")
        let text = Self.document(ext, items: OutlineLoader.batchSize * 2 + 1500)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let expected = try (ext == "json" ? OutlineFormat.json : .markdown).read(text)
        let seed = TestSeed.seed(ext == "json" ? 61 : 62)
        var random = SeededRandom(seed: seed)

        let args = ["import", file, "--under", "P", "--db", db]
        // What a whole import writes, seen as it runs.
        let whole = try BurrowProcess.measured(args)
        #expect(whole.status == 0 && whole.written > 0, "a whole import wrote \(whole.written) bytes")

        // The case that matters is a kill in the middle of the write (the transaction is bigger than SQLite's
        // page cache, so its pages go to the log batch by batch): how often it happened is printed.
        let kills = try BurrowProcess.killRuns(args, whole: whole.written, wanted: 4, rng: &random)
        let note = TestSeed.note(seed)
        print("StreamingImportKillTests \(ext): \(kills)")
        #expect(kills.killed >= 4, "\(kills); \(note)")
        let check = BurrowProcess.run(["check", "--db", db])
        #expect(check.status == 0, "\(check.out)\(check.err); \(note)")
        // P's sub-items are whole copies of the file's outline, one after another.
        let exported = BurrowProcess.run(["export", "P", "--format", "json", "--db", db])
        let p = try #require(try JSONOutline.read(exported.out).first)
        let copies = p.children.count / expected.count
        #expect(copies >= 1 && p.children.count % expected.count == 0, "\(p.children.count) items under P; \(note)")
        #expect(p.children == Array(repeating: expected, count: copies).flatMap { $0 }, "\(note)")
        // The history holds one import for each copy, undone whole.
        for _ in 0..<copies { #expect(BurrowProcess.run(["undo", "--db", db]).status == 0) }
        let left = BurrowProcess.run(["export", "--format", "json", "--db", db])
        #expect(try JSONOutline.read(left.out) == [OutlineNode("P")], "\(note)")
    }

    /// An import into a new outline (written aside and named when complete, `Store.makeNew`) killed while it
    /// writes leaves no outline or a whole one under the name, never a part; the next import there makes it
    /// and removes what the killed one left beside it.
    @Test func importsIntoANewOutlineKilledLeaveNoneOrAWholeOne() throws {
        let folder = TemporaryDirectory("burrow-kill")
        let file = folder.path("items.md")
        let text = Self.document("md", items: OutlineLoader.batchSize * 2 + 1500)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let expected = try OutlineFormat.markdown.read(text)
        let seed = TestSeed.seed(63)
        var random = SeededRandom(seed: seed)
        let note = TestSeed.note(seed)
        let whole = try BurrowProcess.measured(["import", file, "--db", folder.path("whole.sqlite")])
        #expect(whole.status == 0 && whole.written > 0, "a whole import wrote \(whole.written) bytes")
        func outline(_ db: String) throws -> [OutlineNode] {
            let check = BurrowProcess.run(["check", "--db", db])
            #expect(check.status == 0, "\(check.out)\(check.err); \(note)")
            return try JSONOutline.read(BurrowProcess.run(["export", "--format", "json", "--db", db]).out)
        }
        var absent = 0, k = 0
        func afterKill(_: String) throws {
            let db = folder.path("new\(k).sqlite")
            defer { k += 1 }
            if FileManager.default.fileExists(atPath: db) {
                #expect(try outline(db) == expected, "\(note)")
            } else {
                absent += 1
                #expect(BurrowProcess.run(["import", file, "--db", db]).status == 0)
                #expect(try outline(db) == expected, "\(note)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.path(".new\(k).sqlite.new")), "\(note)")
        }
        let kills = try BurrowProcess.killRuns(
            { ["import", file, "--db", folder.path("new\($0).sqlite")] }, whole: whole.written, wanted: 4, rng: &random, after: afterKill)
        print("StreamingImportKillTests new outline: \(kills), \(absent) left no outline")
        #expect(kills.killed >= 4, "\(kills); \(note)")
    }
}
