import BurrowApp
import Foundation
import ObjectGraph
import Outline
import TerminalKit

/// Issue 15's fold figures: `zR` on the generated outline to its first frame (beside the first frame of the
/// closed level, what the outliner costs without folds), opening an item of 100,000 sub-items in place
/// (beside drilling into it), and key press to frame with every fold open (beside the same keys with them
/// closed), in-process on a null terminal of 80×24, medians of alternated runs; and the keys again as the user
/// meets them, the release `burrow` in a pseudo-terminal.
struct FoldBenchmarks {
    let size: Int
    let hugeLevel: Int
    let runs: Int
    let keyPresses: Int

    func run(only: Set<String>) throws {
        guard only.isEmpty || only.contains("folds") else { return }
        let dir = Harness.scratch("folds")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try openEverything(dir)
        try openHugeItem(dir)
    }

    private func press(_ app: App, _ terminal: Terminal, _ keys: [TerminalKit.Key]) {
        for key in keys { app.handle(.key(key)) }
        terminal.draw { app.render(into: &$0) }
    }

    /// zR, then keys, on the generated outline.
    private func openEverything(_ dir: String) throws {
        let generated = try GeneratedOutline.make(size: size, in: dir + "/gen")
        let store = dir + "/generated.sqlite"
        try GeneratedOutline.importText(from: generated, into: store)
        let terminal = Terminal(backend: NullBackend(width: 80, height: 24))
        var opened = 0
        var zR: [Double] = [], closed: [Double] = []
        for _ in 0..<runs {
            do {
                let app = try App(outline: try Outline(path: store))
                terminal.draw { app.render(into: &$0) }
                zR.append(Harness.time { press(app, terminal, [.character("z"), .character("R")]) })
                opened = app.knownRows
                // Closed again (not timed) for the next run.
                press(app, terminal, [.character("z"), .character("M")])
            }
            closed.append(
                try Harness.time {
                    let app = try App(outline: try Outline(path: store))
                    terminal.draw { app.render(into: &$0) }
                })
        }
        Harness.report(
            "\(size) generated items: zR to first frame (vs opening the closed level)", ours: Harness.percentile(zR, 0.5),
            baseline: Harness.percentile(closed, 0.5), goal: "<= 50 ms")
        print("    rows known after zR's first frame: \(opened) (the rest are read as they come into view)")

        // Keys with everything open, beside the same keys with everything closed.
        let keys = keySequence
        func timeKeys(open: Bool) throws -> [Double] {
            let app = try App(outline: try Outline(path: store))
            if open { press(app, terminal, [.character("z"), .character("R")]) }
            // Warm up: the first jump to the end counts every open list once.
            press(app, terminal, [.character("G")])
            press(app, terminal, [.character("g")])
            var times: [Double] = []
            var slow: [String] = []
            for (i, key) in keys.enumerated() {
                let t = Harness.time { press(app, terminal, [key]) }
                times.append(t)
                if t > 0.001, slow.count < 40 { slow.append("#\(i) \(key.label) \(Harness.ms(t))") }
            }
            if ProcessInfo.processInfo.environment["BURROW_BENCH_SLOW"] != nil { print("    slow keys (\(open ? "open" : "closed")): \(slow)") }
            if open { press(app, terminal, [.character("z"), .character("M")]) }
            return times
        }
        var ours: [Double] = [], base: [Double] = []
        for _ in 0..<max(1, runs / 2) {
            ours += try timeKeys(open: true)
            base += try timeKeys(open: false)
        }
        for (name, p) in [("median", 0.5), ("p99", 0.99)] {
            Harness.report(
                "\(size) generated items, all open: key to frame, \(name) (vs all closed)", ours: Harness.percentile(ours, p),
                baseline: Harness.percentile(base, p), goal: "p99 <= 1 ms")
        }
        print("    \(ours.count) keys; slowest open: \(Harness.ms(ours.max() ?? 0)), closed: \(Harness.ms(base.max() ?? 0))")
        try keysInATerminal(store: store, dir: dir)
    }

    /// As the user meets it: the release `burrow` on the generated outline in a pseudo-terminal, the same keys
    /// as above written one at a time, each timed from its write to the last byte of its frame, with every fold
    /// open (`zR` first); beside them, in alternated blocks, the same keys on a level of as many siblings with
    /// no folds (the outline's closed top level is ten rows, where most of the keys change nothing to time).
    private func keysInATerminal(store: String, dir: String) throws {
        guard let burrow = Harness.sibling("burrow") else {
            print("  keys with every fold open in a terminal: skipped (needs the release burrow beside the benchmark)")
            return
        }
        // The sequence of `keySequence`, as a terminal sends it: Page Down, Page Up, Ctrl-D.
        let sequence =
            Array(repeating: "j", count: 20) + ["\u{1B}[6~", "\u{1B}[6~", "\u{04}"] + Array(repeating: "k", count: 10)
            + ["\u{1B}[5~", "G", "k", "g"]
        let presses = min(keyPresses, 600)
        let environment = ["XDG_STATE_HOME": dir + "/state"]
        let (flatDir, flat) = AppBenchmarks.levelStore("folds-flat", size)
        defer { try? FileManager.default.removeItem(atPath: flatDir) }
        var open: [Double] = [], closed: [Double] = []
        for _ in 0..<max(3, runs) {
            // The first jump to the end counts every open list once: made before the keys are timed.
            open += try AppBenchmarks.pressing(
                sequence, presses, burrow, ["--db", store], ready: "?: help", environment: environment, setup: ["zR", "G", "g"])
            closed += try AppBenchmarks.pressing(
                sequence, presses, burrow, ["--db", flat], ready: "?: help", environment: environment, setup: ["G", "g"])
        }
        for (name, p) in [("median", 0.5), ("p99", 0.99)] {
            Harness.report(
                "in a terminal: \(size) generated items, all open: key to frame, \(name) (vs as many siblings)", ours: Harness.percentile(open, p),
                baseline: Harness.percentile(closed, p), goal: "p99 <= 1 ms")
        }
        if ProcessInfo.processInfo.environment["BURROW_BENCH_SLOW"] != nil {
            // Each key of the sequence by itself (blocks start at its first key).
            for (side, times) in [("open", open), ("siblings", closed)] {
                var byKey: [String: [Double]] = [:]
                for (i, t) in times.enumerated() { byKey[sequence[(i % presses) % sequence.count].debugDescription, default: []].append(t) }
                let each = byKey.sorted { $0.key < $1.key }.map {
                    "\($0.key) \(Harness.ms(Harness.percentile($0.value, 0.5)))/\(Harness.ms(Harness.percentile($0.value, 0.99)))"
                }
                print("    \(side), median/p99 by key: \(each.joined(separator: ", "))")
            }
        }
        print("    \(open.count) keys a side; slowest open: \(Harness.ms(open.max() ?? 0)), siblings: \(Harness.ms(closed.max() ?? 0))")
    }

    /// An item with `hugeLevel` sub-items: opened in place (zo) against drilled into (Enter); and zo on an item
    /// of 10 sub-items, the fixed cost of storing the fold (one write transaction) whatever the item's size.
    private func openHugeItem(_ dir: String) throws {
        let store = dir + "/huge.sqlite"
        do {
            let outline = try Outline(path: store)
            let titles = StorageBenchmarks(levelSize: 0, hugeLevel: 0, runs: 1, edits: 0).titles(hugeLevel)
            _ = try outline.add(
                [
                    OutlineNode("Big", children: titles.map { OutlineNode($0) }),
                    OutlineNode("Small", children: titles.prefix(10).map { OutlineNode($0) })
                ],
                under: try outline.root())
            try outline.save()
        }
        let terminal = Terminal(backend: NullBackend(width: 80, height: 24))
        var zoTimes: [Double] = [], drillTimes: [Double] = [], smallTimes: [Double] = []
        for _ in 0..<runs {
            do {
                let app = try App(outline: try Outline(path: store))
                terminal.draw { app.render(into: &$0) }
                zoTimes.append(Harness.time { press(app, terminal, [.character("z"), .character("o")]) })
                press(app, terminal, [.character("z"), .character("c")])
            }
            do {
                let app = try App(outline: try Outline(path: store))
                terminal.draw { app.render(into: &$0) }
                drillTimes.append(Harness.time { press(app, terminal, [.enter]) })
            }
            do {
                let app = try App(outline: try Outline(path: store))
                press(app, terminal, [.character("j")])
                smallTimes.append(Harness.time { press(app, terminal, [.character("z"), .character("o")]) })
                press(app, terminal, [.character("z"), .character("c")])
            }
        }
        Harness.report(
            "an item of \(hugeLevel) sub-items: zo to frame (vs Enter, drilling in)", ours: Harness.percentile(zoTimes, 0.5),
            baseline: Harness.percentile(drillTimes, 0.5), goal: "reads as drilling does")
        print("    zo on an item of 10 sub-items (the write of the fold alone, nearly): \(Harness.ms(Harness.percentile(smallTimes, 0.5)))")
    }

    /// Mostly j and k, with page and jump keys mixed in (as the keys scenario).
    private var keySequence: [TerminalKit.Key] {
        var keys: [TerminalKit.Key] = []
        while keys.count < keyPresses {
            keys +=
                Array(repeating: .character("j"), count: 20) + [.pageDown, .pageDown, .ctrl("d")]
                + Array(repeating: .character("k"), count: 10) + [.pageUp, .character("G"), .character("k"), .character("g")]
        }
        return Array(keys.prefix(keyPresses))
    }
}
