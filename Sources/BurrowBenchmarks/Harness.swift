import Foundation

/// Timing and reporting for the benchmark: each figure beside its baseline from the same run.
enum Harness {
    /// Runs `body` `runs` times and returns the median wall time in seconds.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return percentile(times, 0.5)
    }

    /// Runs `ours` and `baseline` alternately, `runs` times each, and returns both median wall times in
    /// seconds. On a shared machine whose speed drifts, alternating puts both sides in the same conditions;
    /// running one side's runs first and the other's after does not.
    /// `between` runs after each of ours (untimed), `afterBaseline` after each baseline: each side frees what it
    /// kept before the other side runs.
    static func interleaved(
        runs: Int, ours: () throws -> Void, baseline: () throws -> Void, between: () -> Void = {}, afterBaseline: () -> Void = {}
    ) rethrows -> (ours: Double, baseline: Double) {
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<runs {
            a.append(try time(ours))
            between()
            b.append(try time(baseline))
            afterBaseline()
        }
        return (percentile(a, 0.5), percentile(b, 0.5))
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }

    /// Wall time of one call, in seconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Peak resident memory of this process so far, in MiB.
    static var peakRSS: Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// Current resident memory, in MiB.
    static var currentRSS: Double {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = s.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// This benchmark's path (`/proc/self/exe`).
    static var me: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The benchmark's sibling executable (built by `swift build -c release`), if it is there.
    static func sibling(_ name: String) -> String? {
        let path = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Seconds from starting `executable` (output discarded) until it exits; nil when it cannot start or
    /// fails.
    static func runProcess(_ executable: String, _ arguments: [String]) -> Double? {
        runMeasured(executable, arguments)?.seconds
    }

    /// `runProcess`, also giving the child's peak resident memory in MiB (from `wait4`).
    static func runMeasured(_ executable: String, _ arguments: [String]) -> (seconds: Double, peakMiB: Double)? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        // As a shell starts a program: no signal blocked, none ignored (a caller's threads may block signals,
        // and a daemon it starts, such as tmux's server, would keep the mask and never end).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&child, executable, &actions, &attributes, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        wait4(child, &status, 0, &usage)
        guard status == 0 else { return nil }
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, Double(usage.ru_maxrss) / 1024)
    }

    static func ms(_ s: Double) -> String { String(format: "%.2f ms", s * 1000) }

    /// Prints one result line: ours, the baseline, the ratio and the goal.
    static func report(_ name: String, ours: Double, baseline: Double, goal: String) {
        let ratio = baseline > 0 ? ours / baseline : 0
        // A longer name pushes its figures right rather than losing its end.
        print(
            (name.count < 46 ? name.padding(toLength: 46, withPad: " ", startingAt: 0) : name + " ")
                + ms(ours).leftPadded(12) + ms(baseline).leftPadded(12)
                + String(format: "%8.2fx", ratio) + "   " + goal)
    }

    static func header() {
        print(
            "scenario".padding(toLength: 46, withPad: " ", startingAt: 0) + "ours".leftPadded(12) + "raw SQLite".leftPadded(12)
                + "ratio".leftPadded(9) + "   goal")
    }

    /// A scratch folder for one scenario.
    static func scratch(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-bench-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: dir)
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
