import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// `burrow export` of 100,000 items while other `burrow` processes move, add and remove items: the file is
/// one state of the outline, never a mix of two (an item moved from a level not read yet to one read already
/// would be missing, one moved the other way written twice).
@Suite(.serialized) struct ExportSnapshotProcessTests {
    /// What the writers' threads and the test share: whether to stop, whether the export runs, and how many
    /// commands started while it ran.
    final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false, exporting = false
        private var started = 0, startedDuring = 0
        var isStopped: Bool { lock.withLock { stopped } }
        var isExporting: Bool {
            get { lock.withLock { exporting } }
            set { lock.withLock { exporting = newValue } }
        }
        var commands: (all: Int, duringExport: Int) { lock.withLock { (started, startedDuring) } }
        func stop() { lock.withLock { stopped = true } }
        func starting() {
            lock.withLock {
                started += 1
                if exporting { startedDuring += 1 }
            }
        }
    }

    @Test
    func anExportIsOneStateWhileOthersWrite() throws {
        let folder = TemporaryDirectory("burrow-export-snapshot")
        let db = folder.path()
        let groups = 100, size = 1_000
        do {
            let o = try Outline(path: db)
            try o.add((0..<groups).map { g in OutlineNode("g\(g)", children: (0..<size).map { OutlineNode("n\(g).\($0)") }) }, under: try o.root())
            try o.save()
            o.checkpoint()
        }
        // Items of the last group move to the top of the first, items of the first to the end of the last, and a
        // group in the middle gains and loses items: three writers, each a process a command. (A writer's
        // checkpoint at its end waits for the export's read to end, so one writer starts one command during it.)
        let shared = Shared()
        let writers = (0..<3).map { w in
            Thread {
                var k = 0
                while !shared.isStopped {
                    let args: [String] =
                        switch w {
                        case 0: ["mv", "g\(groups - 1)/n\(groups - 1).\(k)", "--to", "g0", "--position", "1"]
                        case 1: ["mv", "g0/n0.\(k)", "--to", "g\(groups - 1)"]
                        default: k % 2 == 0 ? ["add", "tmp\(k)", "--under", "g50"] : ["rm", "g50/tmp\(k - 1)"]
                        }
                    shared.starting()
                    _ = BurrowProcess.run(args + ["--db", db])
                    k += 1
                }
            }
        }
        for w in writers { w.start() }
        // Let the writers get going, so they write all through the export.
        #expect(Poll.until(timeout: .seconds(30)) { shared.commands.all >= 6 })
        let file = folder.path("out.json")
        shared.isExporting = true
        let exported = BurrowProcess.run(["export", "-o", file, "--db", db])
        shared.isExporting = false
        let during = shared.commands.duringExport
        shared.stop()
        // The writers' processes end before the folder goes.
        #expect(Poll.until(timeout: .seconds(60)) { writers.allSatisfy(\.isFinished) })
        #expect(during >= 2, "the writers started \(during) commands during the export")
        #expect(exported.status == 0, "\(exported.err)")
        #expect(during >= 2, "the writer ran \(during) commands during the export")
        let top = try OutlineFormat.json.read(String(contentsOfFile: file, encoding: .utf8))
        #expect(top.map(\.title) == (0..<groups).map { "g\($0)" })
        var seen: [String: String] = [:]
        var problems: [String] = []
        for group in top {
            for item in group.children {
                if let other = seen[item.title] { problems.append("\(item.title) under \(other) and \(group.title)") }
                seen[item.title] = group.title
                let g = item.title.hasPrefix("tmp") ? 50 : Int(item.title.dropFirst().prefix { $0 != "." })!
                let allowed = g == 0 || g == groups - 1 ? ["g0", "g\(groups - 1)"] : ["g\(g)"]
                if !allowed.contains(group.title) { problems.append("\(item.title) under \(group.title)") }
            }
        }
        for g in 0..<groups {
            for i in 0..<size where seen["n\(g).\(i)"] == nil { problems.append("n\(g).\(i) missing") }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        let count = top.reduce(0) { $0 + $1.count }
        #expect(exported.err == "Exported \(count) items to \(file) (json)\n")
    }
}
