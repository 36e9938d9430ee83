import BurrowApp
import Foundation
import ObjectGraph
import Outline
import TerminalKit

/// Issue 5's scenarios: process start to first frame (against hnb on the same outline), key press to frame
/// on a level of 100,000 items (against the same frame drawn from an array), and resident memory with a
/// level of 1,000,000 items open.
struct AppBenchmarks {
    let sizes: [Int]
    let keysLevel: Int
    let memoryLevel: Int
    let runs: Int
    let keyPresses: Int

    func run(only: Set<String>) throws {
        if only.isEmpty || only.contains("startup") { try startup() }
        if only.isEmpty || only.contains("keys") { try keys() }
        if only.isEmpty || only.contains("memory") { try memory() }
    }

    /// A new store in a scratch folder whose top level holds `n` items (written by raw SQL), and the folder.
    static func levelStore(_ name: String, _ n: Int) -> (dir: String, path: String) {
        let storage = StorageBenchmarks(levelSize: 0, hugeLevel: 0, runs: 1, edits: 0)
        let dir = Harness.scratch(name)
        let path = storage.emptyStore(dir, name)
        storage.fill(path, n)
        return (dir, path)
    }

    // MARK: - Start to first frame

    func startup() throws {
        guard let burrow = Harness.sibling("burrow") else {
            print("startup: skipped (build the outliner beside the benchmark: swift build -c release)")
            return
        }
        let dir = Harness.scratch("startup")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var figures: [Int: Double] = [:]
        for n in sizes {
            let generated = try GeneratedOutline.make(size: n, in: dir + "/gen\(n)")
            // Setup: the generator's outline (its indented-text form) imported through the object graph.
            let store = dir + "/outline\(n).sqlite"
            try GeneratedOutline.importText(from: generated, into: store)
            // Alternated: a terminal that answers cursor queries at once, and one that never answers them.
            var times: [Double] = [], silent: [Double] = []
            for _ in 0..<runs {
                for answers in [true, false] {
                    let pty = try PseudoTerminal(
                        burrow, ["--db", store], environment: ["BURROW_LOG": dir + "/burrow.log"], answersCursorQueries: answers)
                    defer { pty.stop() }
                    // The status line is drawn last.
                    guard let t = pty.time(until: "?: help") else { throw PseudoTerminal.Failure("burrow drew no frame") }
                    if answers { times.append(t) } else { silent.append(t) }
                }
            }
            let ours = Harness.percentile(times, 0.5)
            figures[n] = ours
            let goal = "<= 25 ms at every size"
            if let hnb = GeneratedOutline.hnbStartup(generated + "/big.hnb", runs: runs) {
                Harness.report("\(n) items: start to first frame (vs hnb)", ours: ours, baseline: hnb, goal: goal)
            } else {
                Harness.report("\(n) items: start to first frame (no hnb)", ours: ours, baseline: 0, goal: goal)
            }
            Harness.report(
                "\(n) items: same, terminal never answers (vs answering)", ours: Harness.percentile(silent, 0.5), baseline: ours,
                goal: "<= 25 ms, waits for no answer")
        }
        if let small = figures[sizes.first ?? 0], let large = figures[sizes.last ?? 0], sizes.count > 1 {
            print(String(format: "    %d items vs %d items: %.2fx (goal <= 1.5x)", sizes.last!, sizes.first!, large / small))
        }
        // Where the time goes, in-process, on the largest outline (process start-up itself is the rest).
        let store = dir + "/outline\(sizes.last ?? 0).sqlite"
        var open = 0.0, make = 0.0, draw = 0.0
        let backend = NullBackend(width: 80, height: 24)
        let total = try Harness.median(runs: runs) {
            var outline: Outline!
            var app: App!
            open = try Harness.time { outline = try Outline(path: store) }
            make = try Harness.time { app = try App(outline: outline) }
            draw = Harness.time { Terminal(backend: backend).draw { app.render(into: &$0) } }
        }
        print(
            "    in-process, \(sizes.last ?? 0) items: \(Harness.ms(total)) = open the store \(Harness.ms(open)) + root level \(Harness.ms(make)) + first frame \(Harness.ms(draw))"
        )
    }

    // MARK: - Key press to frame

    /// The keys pressed: mostly j and k, with page and jump keys mixed in.
    private var keySequence: [TerminalKit.Key] {
        var keys: [TerminalKit.Key] = []
        while keys.count < keyPresses {
            keys +=
                Array(repeating: .character("j"), count: 20) + [.pageDown, .pageDown, .ctrl("d")]
                + Array(repeating: .character("k"), count: 10) + [.pageUp, .character("G"), .character("k"), .character("g")]
        }
        return Array(keys.prefix(keyPresses))
    }

    func keys() throws {
        let (dir, path) = Self.levelStore("keys", keysLevel)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outline = try Outline(path: path)
        let app = try App(outline: outline)
        let terminal = Terminal(backend: NullBackend(width: 80, height: 24))
        terminal.draw { app.render(into: &$0) }
        // Warm up: the whole level's IDs are read in the background; the first jump to the end waits for them.
        for key in [TerminalKit.Key.character("G"), .character("g")] {
            app.handle(.key(key))
            terminal.draw { app.render(into: &$0) }
        }
        let keys = keySequence
        var ours: [Double] = []
        for key in keys {
            ours.append(
                Harness.time {
                    app.handle(.key(key))
                    terminal.draw { app.render(into: &$0) }
                })
        }
        // Baseline: the same keys on the same list held as an array of titles, drawn with the same widgets.
        let titles = StorageBenchmarks(levelSize: 0, hugeLevel: 0, runs: 1, edits: 0).titles(keysLevel)
        var state = ListState(selected: 0)
        let baselineTerminal = Terminal(backend: NullBackend(width: 80, height: 24))
        var base: [Double] = []
        for key in keys {
            base.append(
                Harness.time {
                    switch key {
                    case .character("j"): state.move(by: 1, count: titles.count)
                    case .character("k"): state.move(by: -1, count: titles.count)
                    case .pageDown: state.move(by: 21, count: titles.count)
                    case .pageUp: state.move(by: -21, count: titles.count)
                    case .ctrl("d"): state.move(by: 11, count: titles.count)
                    case .character("G"): state.select(titles.count - 1, count: titles.count)
                    default: state.select(0, count: titles.count)
                    }
                    baselineTerminal.draw { frame in
                        ListView(count: titles.count).render(into: &frame.buffer, area: Rect(x: 0, y: 2, width: 80, height: 21), state: &state) {
                            row, buffer in
                            buffer.write(" [ ] " + titles[row.index], at: row.area.origin, maxWidth: row.area.width)
                        }
                        StatusBar(left: "", right: "\((state.selected ?? 0) + 1)/\(titles.count) · ?: help").render(
                            into: &frame.buffer, area: Rect(x: 0, y: 23, width: 80, height: 1))
                    }
                })
        }
        for (name, p) in [("median", 0.5), ("p99", 0.99)] {
            Harness.report(
                "\(keysLevel) items: key to frame, \(name) (vs array)",
                ours: Harness.percentile(ours, p), baseline: Harness.percentile(base, p), goal: "p99 <= 1 ms")
        }
        print("    \(keys.count) keys; slowest: \(Harness.ms(ours.max() ?? 0))")
        // Edits commit a transaction each: toggling done on the selected item, there and back.
        var edits: [Double] = []
        for _ in 0..<(Int(ProcessInfo.processInfo.environment["EDITS"] ?? "") ?? max(10, keyPresses / 10)) {
            edits.append(
                Harness.time {
                    app.handle(.key(.character(" ")))
                    terminal.draw { app.render(into: &$0) }
                })
        }
        print(
            "    an edit (toggle done, one commit) to frame: median \(Harness.ms(Harness.percentile(edits, 0.5))), p99 \(Harness.ms(Harness.percentile(edits, 0.99))) top \(edits.sorted().suffix(8).map { Harness.ms($0) })"
        )
        try keysInATerminal(path: path, titles: titles, dir: dir)
    }

    /// As the user meets it: the release `burrow` on the same level in a pseudo-terminal, the key that moves
    /// down pressed one at a time, each timed from its write to the last byte of the frame it caused;
    /// beside it hnb on the same titles with its own key for it, in alternated blocks.
    private func keysInATerminal(path: String, titles: [String], dir: String) throws {
        guard let burrow = Harness.sibling("burrow"), let hnb = GeneratedOutline.hnb else {
            print("  keys in a terminal: skipped (needs the release burrow beside the benchmark, and hnb)")
            return
        }
        let file = dir + "/level.hnb"
        var xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<tree>\n"
        for title in titles { xml += "<node><data>\(title)</data></node>\n" }
        try (xml + "</tree>\n").write(toFile: file, atomically: true, encoding: .isoLatin1)
        let presses = min(keyPresses, 300)
        // At the top of the list, and from the row a tenth of the way down (reached by pages first): hnb walks
        // its list from the top to find the row it is on, so its key costs grow with the row's place.
        let deep = titles.count / 10
        for start in [0, deep] where start < titles.count {
            // Paged down to the row: `burrow` says which row is selected on its status line (its store's titles
            // repeat); each of hnb's titles holds its index. Past it counts too: pages sent while hnb still draws
            // are taken together, and a page jumped over the row itself paged on to the end of the list.
            let ourTarget = start == 0 ? nil : PagingTarget(key: "\u{1B}[6~") { Self.selectedRow(on: $0) ?? 0 > start }
            let theirTarget = start == 0 ? nil : PagingTarget(key: "\u{1B}[6~") { Self.largestIndex(on: $0) ?? 0 >= start }
            var ours: [Double] = [], theirs: [Double] = []
            for _ in 0..<max(3, runs) {
                ours += try Self.pressing(
                    ["j"], presses, burrow, ["--db", path], ready: "?: help", environment: ["XDG_STATE_HOME": dir + "/state"], pagingTo: ourTarget)
                // hnb's down arrow, as its terminal (keypad mode) sends it.
                theirs += try Self.pressing(
                    ["\u{1B}OB"], presses, hnb, [file], ready: "ESC menu", environment: ["HOME": dir], pagingTo: theirTarget)
            }
            let place = start == 0 ? "from the top" : "from row \(start)"
            for (name, p) in [("median", 0.5), ("p99", 0.99)] {
                Harness.report(
                    "in a terminal: \(titles.count) siblings, key to frame \(place), \(name) (vs hnb)", ours: Harness.percentile(ours, p),
                    baseline: Harness.percentile(theirs, p), goal: "<= hnb")
            }
        }
    }

    /// Starts `executable` in a pseudo-terminal, waits for `ready` on its screen, sends each of `setup` once
    /// its screen is quiet, then sends `keys` in turn (from the first again after the last) `presses` times,
    /// each once the frame it caused has been drawn: the seconds from each write to the last byte of that frame.
    static func pressing(
        _ keys: [String], _ presses: Int, _ executable: String, _ arguments: [String], ready: String, environment: [String: String],
        setup: [String] = [], pagingTo target: PagingTarget? = nil
    ) throws -> [Double] {
        let pty = try PseudoTerminal(executable, arguments, environment: environment)
        defer { pty.stop() }
        var screen = ScreenModel(width: 80, height: 24)
        var buffer = [UInt8](repeating: 0, count: 65536)
        func read(until condition: (ScreenModel) -> Bool) throws -> UInt64 {
            let deadline = DispatchTime.now().uptimeNanoseconds + 30_000_000_000
            while DispatchTime.now().uptimeNanoseconds < deadline {
                var p = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 20) > 0 else { continue }
                let n = Glibc.read(pty.master, &buffer, buffer.count)
                guard n > 0 else { break }
                screen.feed(buffer[..<n])
                for reply in screen.replies { _ = reply.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) } }
                screen.replies = []
                if condition(screen) { return DispatchTime.now().uptimeNanoseconds }
            }
            throw PseudoTerminal.Failure("\(executable): the screen did not change in 30 s:\n" + screen.rows.joined(separator: "\n"))
        }
        _ = try read { $0.shows(ready) }
        var p = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
        // Until nothing has come for `quiet` seconds, answering what the program asks.
        func drain(quiet: Int32) {
            while poll(&p, 1, quiet) > 0 {
                let n = Glibc.read(pty.master, &buffer, buffer.count)
                guard n > 0 else { break }
                screen.feed(buffer[..<n])
                for reply in screen.replies { _ = reply.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) } }
                screen.replies = []
            }
        }
        for keys in setup {
            _ = Array(keys.utf8).withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
            _ = try read { _ in true }
            drain(quiet: 300)
        }
        if let target {
            // Paged down, a page once the one before is drawn, until the row is on the screen.
            for _ in 0..<100_000 where !target.reached(screen) {
                _ = Array(target.key.utf8).withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
                _ = try read { _ in true }
            }
            guard target.reached(screen) else { throw PseudoTerminal.Failure("\(executable): paging never reached its row") }
        }
        // What a slow first frame still sends is taken in before the first key.
        usleep(200_000)
        drain(quiet: 0)
        var times: [Double] = []
        for i in 0..<presses {
            let key = keys[i % keys.count]
            let start = DispatchTime.now().uptimeNanoseconds
            _ = Array(key.utf8).withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
            // Until the last byte of the frame the key caused (hnb may change only attributes, which the
            // model leaves out): the first bytes, then whatever follows within 5 ms of the bytes before.
            var last = try read { _ in true }
            while poll(&p, 1, 5) > 0 {
                let n = Glibc.read(pty.master, &buffer, buffer.count)
                guard n > 0 else { break }
                screen.feed(buffer[..<n])
                last = DispatchTime.now().uptimeNanoseconds
            }
            times.append(Double(last - start) / 1e9)
        }
        return times
    }

    /// The selected row's number on `burrow`'s status line (`10001/100000 · ?: help`).
    static func selectedRow(on screen: ScreenModel) -> Int? {
        guard let status = screen.rows.last, let slash = status.firstIndex(of: "/") else { return nil }
        return status[..<slash].split(separator: " ").last.flatMap { Int($0) }
    }

    /// The largest index among the titles the screen shows (`L4 1.2.3.10000 quick brown fox 9`), if any.
    static func largestIndex(on screen: ScreenModel) -> Int? {
        screen.rows.compactMap { row -> Int? in
            guard let range = row.range(of: "1.2.3.") else { return nil }
            return Int(row[range.upperBound...].prefix { $0.isNumber })
        }.max()
    }

    /// Where `pressing` starts: `key` (a page down) pressed until `reached` says the screen is there.
    struct PagingTarget {
        let key: String
        let reached: (ScreenModel) -> Bool
    }

    // MARK: - Memory

    func memory() throws {
        let (dir, path) = Self.levelStore("memory", memoryLevel)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A fresh process, so nothing of this one's setup counts.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Harness.me)
        p.arguments = ["--child-memory", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard fields.count == 3 else {
            print("memory: the child process failed")
            return
        }
        print(
            String(
                format: "  %-72@ %9.1f MiB   (process before opening: %.1f MiB; peak %.1f MiB)   goal <= 100 MB",
                "resident memory with a level of \(memoryLevel) items open" as NSString, fields[1], fields[0], fields[2]))
    }

    /// The child of `memory()`: opens the outliner on a huge level, draws, jumps to the end and back, and
    /// prints its resident memory before, after, and at peak (MiB).
    static func childMemory(path: String) throws {
        let before = Harness.currentRSS
        let outline = try Outline(path: path)
        let app = try App(outline: outline)
        let terminal = Terminal(backend: NullBackend(width: 80, height: 24))
        for key in [TerminalKit.Key.character("G"), .character("g"), .pageDown] {
            terminal.draw { app.render(into: &$0) }
            app.handle(.key(key))
        }
        terminal.draw { app.render(into: &$0) }
        print(String(format: "%.1f %.1f %.1f", before, Harness.currentRSS, highWaterMark))
    }

    /// This process's peak resident memory in MiB, from /proc (getrusage's figure survives `execve`, so a
    /// child started by a big parent would report the parent's peak).
    private static var highWaterMark: Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb / 1024
    }
}

/// A terminal that throws frames away: "frame computed", without the cost of any output.
final class NullBackend: TerminalBackend {
    let size: Size
    init(width: Int, height: Int) { size = Size(width: width, height: height) }
    func draw(_ changes: [CellChange]) {}
    func setCursor(_ position: Position?) {}
    func clear() {}
    func flush() {}
}
