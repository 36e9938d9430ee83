import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// An export of 100,000 items while other `burrow` processes move, add and remove items: the file is one state
/// of the outline, never a mix of two (an item moved from a level not read yet to one read already would be
/// missing, one moved the other way written twice). Deterministic: the other processes' commits are made, and
/// seen by another connection, after the export has handed on its first bytes and before it has read the rest.
@Suite(.serialized, .onAThreadOfItsOwn("processes")) struct ExportSnapshotProcessTests {
    /// Results of the writers' processes, filled from their threads. `@unchecked Sendable` because Swift cannot
    /// see that `results` is only touched under `lock`; the test's four concurrent writers append to it at once.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [BurrowProcess.Result] = []
        func add(_ r: BurrowProcess.Result) { lock.withLock { results.append(r) } }
        var all: [BurrowProcess.Result] { lock.withLock { results } }
    }

    /// The group `title` is under, as another process reads it now (a connection in this process would share
    /// its file locks with the export's, and closing it would drop the export's read lock: SQLite's POSIX locks
    /// are per process).
    static func parent(of title: String, in db: String) -> String? {
        for g in ["g0", "g99", "g50"] where BurrowProcess.run(["ls", g + "/" + title, "--db", db]).status == 0 { return g }
        return nil
    }

    @Test func anExportIsOneStateWhileOthersWrite() throws {
        let folder = TemporaryDirectory("burrow-export-snapshot")
        let db = folder.path()
        let groups = 100, size = 1_000
        do {
            let o = try Outline(path: db)
            try o.add((0..<groups).map { g in OutlineNode("g\(g)", children: (0..<size).map { OutlineNode("n\(g).\($0)") }) }, under: try o.root())
            try o.save()
            o.checkpoint()
        }
        let exporter = try Outline(path: db)
        var bytes: [UInt8] = []
        var writers: [Thread] = []
        let results = Results()
        var seenDuring = false
        let count = try exporter.export(try exporter.root(), as: .json, title: "Burrow") { chunk in
            bytes += chunk
            guard writers.isEmpty else { return }
            // The first group is read; the last is not. Its first item moves to the first group, the first
            // group's first item to the last, and the middle group gains one item and loses another.
            for args in [
                ["mv", "g99/n99.0", "--to", "g0", "--position", "1"], ["mv", "g0/n0.0", "--to", "g99"], ["add", "tmp", "--under", "g50"],
                ["rm", "g50/n50.5"]
            ] {
                let t = Thread { results.add(BurrowProcess.run(args + ["--db", db])) }
                writers.append(t)
                t.start()
            }
            // Committed, all four (a writer's checkpoint does not wait for this read, nor make the others wait).
            seenDuring = Poll.until(timeout: .seconds(60)) {
                Self.parent(of: "n99.0", in: db) == "g0" && Self.parent(of: "n0.0", in: db) == "g99"
                    && Self.parent(of: "tmp", in: db) == "g50" && Self.parent(of: "n50.5", in: db) == nil
            }
        }
        #expect(Poll.until(timeout: .seconds(60)) { writers.allSatisfy(\.isFinished) })
        #expect(seenDuring, "the other processes' commits were seen while the export ran")
        #expect(results.all.count == 4 && results.all.allSatisfy { $0.status == 0 }, "\(results.all.map { "\($0.status) \($0.err)" })")
        // The file is the state before those commits, whole.
        let top = try OutlineFormat.json.read(String(decoding: bytes, as: UTF8.self))
        #expect(top.map(\.title) == (0..<groups).map { "g\($0)" })
        #expect(count == groups * (size + 1))
        var problems: [String] = []
        for (g, group) in top.enumerated() {
            let titles = group.children.map(\.title)
            if titles != (0..<size).map({ "n\(g).\($0)" }) { problems.append("g\(g) holds \(titles.count) items, not its own \(size)") }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        // And the outline now is the state after them.
        #expect(Self.parent(of: "n0.0", in: db) == "g99" && Self.parent(of: "tmp", in: db) == "g50")
    }
}
