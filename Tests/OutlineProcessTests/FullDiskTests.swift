import Foundation
import TestSupport
import Testing

@testable import Outline

/// A write that fails for lack of room (here: a file-size limit, which fails writes as a full disk does)
/// says so, exits 1 and leaves the outline as it was, checked and listed by the next commands.
@Suite(.serialized, .onAThreadOfItsOwn("processes")) struct FullDiskTests {
    @Test func aWriteThatRunsOutOfRoomLosesNothing() throws {
        let folder = TemporaryDirectory("burrow-outline")
        let db = folder.path()
        #expect(BurrowProcess.run(["add", "Keep", "these", "--db", db]).status == 0)
        let file = folder.url.appendingPathComponent("big.txt").path
        try Data((0..<20_000).map { "item \($0) with a title long enough to take some room\n" }.joined().utf8)
            .write(to: URL(fileURLWithPath: file))
        // 400 KiB per file at most; SIGXFSZ ignored, so a write past it fails with EFBIG instead of a kill.
        let shell = "trap '' XFSZ; ulimit -f 400; exec \"$0\" \"$@\""
        let r = BurrowProcess.run(tool: "/bin/sh", ["-c", shell, BurrowProcess.path, "import", file, "--db", db])
        #expect(r.status == 1, "\(r)")
        #expect(r.err.hasPrefix("burrow: cannot save: the disk is full or refused to write (") && r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(r.err.contains("nothing was changed"))
        #expect(BurrowProcess.run(["ls", "--db", db]).out == "[ ] Keep\n[ ] these\n")
        #expect(BurrowProcess.run(["check", "--db", db]).status == 0)
        // And with room again, the same import goes through whole.
        let again = BurrowProcess.run(["import", file, "--db", db])
        #expect(again.status == 0, "\(again.err)")
        #expect(try Outline(readingAt: db).context.count(.init("Item")) == 1 + 2 + 20_000)
    }

    /// A full disk met by an import into a new outline (written aside, `Store.makeNew`) leaves no outline and
    /// names the path the user gave, not the hidden file it was written in, which is gone by then (found by
    /// review); the ordinary way (an empty file at the path) says the same of its path.
    @Test func aFullDiskInANewOutlineNamesThePathGiven() throws {
        let folder = TemporaryDirectory("burrow-outline")
        let db = folder.path("new.sqlite")
        let file = folder.path("big.txt")
        try Data((0..<20_000).map { "item \($0) with a title long enough to take some room\n" }.joined().utf8)
            .write(to: URL(fileURLWithPath: file))
        let shell = "trap '' XFSZ; ulimit -f 1000; exec \"$0\" \"$@\""
        let r = BurrowProcess.run(tool: "/bin/sh", ["-c", shell, BurrowProcess.path, "import", file, "--db", db])
        #expect(r.status == 1, "\(r)")
        #expect(r.err.hasPrefix("burrow: cannot save: the disk is full or refused to write ("), "\(r.err)")
        #expect(r.err.hasSuffix("[\(db)]\n"), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["big.txt"])
        let ordinary = folder.path("ordinary.sqlite")
        #expect(FileManager.default.createFile(atPath: ordinary, contents: nil))
        let o = BurrowProcess.run(tool: "/bin/sh", ["-c", shell, BurrowProcess.path, "import", file, "--db", ordinary])
        #expect(o.status == 1 && o.err.hasSuffix("[\(ordinary)]\n"), "\(o.err)")
    }
}
