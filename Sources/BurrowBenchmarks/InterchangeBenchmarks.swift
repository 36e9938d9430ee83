import Foundation
import ObjectGraph
import Outline

/// Issue 6's scenarios: import and export of the generator's 100,000-item OPML, against hnb's load time
/// of the same outline (0.34 s, the figure).
struct InterchangeBenchmarks {
    let size: Int
    let runs: Int

    func run(only: Set<String>) throws {
        guard only.isEmpty || only.contains("interchange") else { return }
        let dir = Harness.scratch("interchange")
        let opml = try GeneratedOutline.make(size: size, in: dir) + "/big.opml"
        let data = try Data(contentsOf: URL(fileURLWithPath: opml))
        let hnbFile = dir + "/big.hnb"
        // Each phase's median over the runs: one run's figures say little on a noisy machine.
        var phases: [(name: String, times: [Double])] = ["open", "parse", "add", "save", "close"].map { ($0, []) }
        var k = 0
        var store = ""
        // Each import alternates with one load by hnb, so both see the same machine (its speed drifts by
        // up to 2× over seconds).
        var ours: [Double] = [], hnb: [Double] = []
        for _ in 0..<runs {
            k += 1
            store = dir + "/import\(k).sqlite"
            ours.append(
                try Harness.time {
                    var outline: Outline?
                    var root: Item?
                    var nodes: [OutlineNode] = []
                    phases[0].times.append(
                        try Harness.time {
                            outline = try Outline(path: store)
                            root = try outline!.root()
                        })
                    phases[1].times.append(try Harness.time { nodes = try OPML.read(bytes: data) })
                    phases[2].times.append(try Harness.time { try outline!.add(nodes, under: root!) })
                    phases[3].times.append(try Harness.time { try outline!.save() })
                    // The store closes: SQLite checkpoints the write-ahead log into the database file.
                    phases[4].times.append(
                        Harness.time {
                            root = nil
                            outline = nil
                        })
                })
            if let t = GeneratedOutline.hnbStartup(hnbFile, runs: 1) { hnb.append(t) }
        }
        let total = Harness.percentile(ours, 0.5)
        if !hnb.isEmpty {
            Harness.report(
                "import \(size)-item OPML (baseline: hnb loading it, measured)", ours: total, baseline: Harness.percentile(hnb, 0.5), goal: "<= hnb")
        } else {
            Harness.report("import \(size)-item OPML (baseline: hnb, the issue's 0.34 s)", ours: total, baseline: 0.34, goal: "<= hnb's 0.34 s")
        }
        print("    medians: " + phases.map { "\($0.name) \(Harness.ms(Harness.percentile($0.times, 0.5)))" }.joined(separator: ", "))
        // The whole program as a user runs it (process start to exit, the store made fresh each time),
        // alternated with hnb's start to first screen on the same outline.
        if let burrow = Harness.sibling("burrow"), GeneratedOutline.hnb != nil {
            var cli: [Double] = [], hnbAgain: [Double] = []
            for run in 0..<runs {
                let path = dir + "/cli\(run).sqlite"
                if let t = Harness.runProcess(burrow, ["import", opml, "--db", path]) { cli.append(t) }
                if let t = GeneratedOutline.hnbStartup(hnbFile, runs: 1) { hnbAgain.append(t) }
            }
            if !cli.isEmpty && !hnbAgain.isEmpty {
                Harness.report(
                    "`burrow import big.opml` process (baseline: hnb)", ours: Harness.percentile(cli, 0.5),
                    baseline: Harness.percentile(hnbAgain, 0.5), goal: "<= hnb")
            }
        }
        var read = 0.0, write = 0.0
        let exportTotal = try Harness.median(runs: runs) {
            let outline = try Outline(path: store)
            var nodes: [OutlineNode] = []
            read = try Harness.time { nodes = try outline.nodes(under: try outline.root()) }
            write = try Harness.time {
                try Data(OutlineFormat.opml.write(nodes).utf8).write(to: URL(fileURLWithPath: dir + "/export.opml"))
            }
        }
        Harness.report("export \(size) items as OPML (vs the goal)", ours: exportTotal, baseline: 0.3, goal: "<= 0.3 s")
        print("    last run: read \(Harness.ms(read)), write \(Harness.ms(write))")
        try? FileManager.default.removeItem(atPath: dir)
    }
}
