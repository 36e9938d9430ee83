import Foundation

/// Issue 16's scenario: another process's `burrow add` exits, and the time until its item is on the screen of
/// an outliner running in a pseudo-terminal (read through a `ScreenModel`, as ncurses sends only the cells that
/// changed), for the outliner woken by its store watcher against the same outliner polling every 100 ms
/// (`BURROW_NO_WATCH=1`), adds to each alternating; and the outliner's idle CPU over 10 s, both ways.
struct LiveBenchmarks {
    let adds: Int
    let idleSeconds: Double

    func run(only: Set<String>) throws {
        if only.isEmpty || only.contains("live") { try live() }
    }

    /// One outliner on its own store in a pseudo-terminal, and the screen it draws.
    final class Outliner {
        let pty: PseudoTerminal
        let store: String
        var screen = ScreenModel(width: 80, height: 24)
        var latencies: [Double] = []
        /// From starting `burrow add` to the item on screen, and how long the add ran.
        var fromStart: [Double] = []
        var addDurations: [Double] = []
        /// Everything the outliner wrote, kept when asked (to replay into another terminal and compare).
        var transcript: [UInt8]?

        /// The outliner on an existing store, its first frame drawn.
        init(burrow: String, existing store: String, dir: String) throws {
            self.store = store
            pty = try PseudoTerminal(
                burrow, ["--db", store], environment: ["XDG_CONFIG_HOME": dir + "/config", "XDG_STATE_HOME": dir + "/state"])
            guard wait(timeout: 30, until: { $0.shows("?: help") }) != nil else { throw PseudoTerminal.Failure("no first frame") }
        }

        init(burrow: String, dir: String, name: String, watches: Bool, recording: Bool = false) throws {
            if recording { transcript = [] }
            store = dir + "/\(name).sqlite"
            // The store exists (with its top item) before the outliner opens it.
            guard Harness.runProcess(burrow, ["add", "--db", store, "First"]) != nil else {
                throw PseudoTerminal.Failure("burrow add failed on \(store)")
            }
            var environment = ["XDG_CONFIG_HOME": dir + "/config", "XDG_STATE_HOME": dir + "/state-\(name)"]
            if !watches { environment["BURROW_NO_WATCH"] = "1" }
            pty = try PseudoTerminal(burrow, ["--db", store], environment: environment)
            guard wait(timeout: 30, until: { $0.shows("?: help") }) != nil else { throw PseudoTerminal.Failure("no first frame") }
        }

        /// Reads what the outliner draws until `condition` holds on the screen: the time it did, or nil.
        func wait(timeout: Double, until condition: (ScreenModel) -> Bool) -> UInt64? {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
            if condition(screen) { return DispatchTime.now().uptimeNanoseconds }
            while DispatchTime.now().uptimeNanoseconds < deadline {
                var p = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 20) > 0 else { continue }
                let n = read(pty.master, &buffer, buffer.count)
                guard n > 0 else { return nil }
                screen.feed(buffer[..<n])
                transcript?.append(contentsOf: buffer[..<n])
                for reply in screen.replies { _ = reply.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) } }
                screen.replies = []
                if condition(screen) { return DispatchTime.now().uptimeNanoseconds }
            }
            return nil
        }

        /// Types `keys` into the outliner.
        func send(_ keys: String) {
            _ = Array(keys.utf8).withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
        }

        /// Waits (reading the screen meanwhile) until the outliner has used no CPU for 100 ms, at most 5 s,
        /// then has the kernel write out what is dirty: the next measurement, ours or a baseline's, starts
        /// on a quiet machine, not on the tail of the last one (a checkpoint on another thread, say).
        func settle() {
            var last = cpuSeconds, still = 0
            for _ in 0..<100 where still < 2 {
                _ = wait(timeout: 0.05, until: { _ in false })
                let now = cpuSeconds
                still = now == last ? still + 1 : 0
                last = now
            }
            sync()
        }

        /// CPU time the outliner has used (user and system), in seconds.
        var cpuSeconds: Double {
            guard let stat = try? String(contentsOfFile: "/proc/\(pty.pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return 0 }
            // After the command name: state is field 3, utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
            return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
    }

    func live() throws {
        guard let burrow = Harness.sibling("burrow") else {
            print("live: skipped (build the outliner beside the benchmark: swift build -c release --product burrow)")
            return
        }
        let dir = Harness.scratch("live")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watched = try Outliner(burrow: burrow, dir: dir, name: "watched", watches: true)
        defer { watched.pty.stop() }
        let polled = try Outliner(burrow: burrow, dir: dir, name: "polled", watches: false)
        defer { polled.pty.stop() }
        for i in 0..<adds {
            for outliner in i % 2 == 0 ? [watched, polled] : [polled, watched] {
                let title = "Item \(i)"
                let spawned = DispatchTime.now().uptimeNanoseconds
                guard let ran = Harness.runProcess(burrow, ["add", "--db", outliner.store, title]) else {
                    throw PseudoTerminal.Failure("burrow add failed")
                }
                // The time origin: `waitpid` has returned. What the outliner drew meanwhile is read now.
                let exited = DispatchTime.now().uptimeNanoseconds
                outliner.addDurations.append(ran)
                guard let seen = outliner.wait(timeout: 5, until: { $0.shows(title) }) else {
                    throw PseudoTerminal.Failure("\(title) never appeared:\n" + outliner.screen.rows.joined(separator: "\n"))
                }
                outliner.latencies.append(Double(seen - exited) / 1e9)
                outliner.fromStart.append(Double(seen - spawned) / 1e9)
                // Taken out again (not timed), so the next item is on the first screen too.
                guard Harness.runProcess(burrow, ["rm", "--db", outliner.store, title]) != nil,
                    outliner.wait(timeout: 5, until: { !$0.shows(title) }) != nil
                else { throw PseudoTerminal.Failure("\(title) was not removed") }
            }
        }
        for p in [0.5, 0.99] {
            Harness.report(
                "live: add exits to item on screen, p\(Int(p * 100)) (vs 100 ms poll)", ours: Harness.percentile(watched.latencies, p),
                baseline: Harness.percentile(polled.latencies, p), goal: p == 0.99 ? "p99 <= 20 ms (baseline: 100 ms poll)" : "")
        }
        // The outliner often draws the item before the add has exited (it commits, then checkpoints and ends).
        for p in [0.5, 0.99] {
            Harness.report(
                "live: add starts to item on screen, p\(Int(p * 100))", ours: Harness.percentile(watched.fromStart, p),
                baseline: Harness.percentile(polled.fromStart, p), goal: "")
        }
        Harness.report(
            "live: burrow add, start to exit, p50", ours: Harness.percentile(watched.addDurations, 0.5),
            baseline: Harness.percentile(polled.addDurations, 0.5), goal: "")
        print(
            String(
                format: "    max %.2f ms vs %.2f ms over %d adds each", (watched.latencies.max() ?? 0) * 1000, (polled.latencies.max() ?? 0) * 1000,
                adds))
        // Idle: nothing changes for a while; both outliners at once, over the same seconds.
        let before = (watched.cpuSeconds, polled.cpuSeconds)
        usleep(useconds_t(idleSeconds * 1e6))
        let after = (watched.cpuSeconds, polled.cpuSeconds)
        Harness.report(
            String(format: "live: idle CPU over %.0f s (watcher vs no watcher)", idleSeconds), ours: after.0 - before.0, baseline: after.1 - before.1,
            goal: "~0 (CPU time, not wall time)")
    }
}
