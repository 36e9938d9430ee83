import Foundation

/// Runs the real `burrow` executable, built beside the test bundle by every test target that depends on
/// `BurrowCLI` (OutlineProcessTests, OutlineServerTests, BurrowBenchmarksTests).
public enum BurrowProcess {
    public static let path: String = {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("burrow").path
    }()

    public typealias Result = Spawn.Result

    /// Starts `burrow ARGS` with its output thrown away and does not wait: for tests that kill it mid-write.
    /// `environment` is added to this process's.
    public static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Child {
        try Spawn.start(path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// Bytes process `pid` has written so far (its own count: `wchar` in `/proc/PID/io`), or nil once it is
    /// gone. What a kill test waits for: a share of what the whole command writes, not a time.
    public static func written(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("wchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
    }

    /// Runs `burrow ARGS` to its end; the most bytes it was seen to have written, and its status.
    public static func measured(_ args: [String], environment: [String: String] = [:]) throws -> (written: Int, status: Int32) {
        let p = try start(args, environment: environment)
        var most = 0
        // Every millisecond: what a command writes at its end (a commit) is most of what it writes, and a
        // child that has ended is not reaped until `isRunning` says so, so its last count is read first.
        let deadline = ContinuousClock.now + .seconds(120)
        repeat {
            if let n = written(p.processIdentifier) { most = max(most, n) }
            usleep(1000)
        } while p.isRunning && ContinuousClock.now < deadline
        p.waitUntilExit()
        return (most, p.terminationStatus)
    }

    /// Starts `burrow ARGS` and kills it with SIGKILL once it has written `threshold` bytes (or when it ends
    /// first): whether the kill landed, the exit status when it did not, and the bytes it had written when
    /// last looked at (so a test can count the kills that landed in the middle of a write).
    public static func killed(
        _ args: [String], after threshold: Int, environment: [String: String] = [:]
    ) throws -> (killed: Bool, status: Int32, written: Int) {
        let p = try start(args, environment: environment)
        // Every millisecond, not `Poll`'s ten: a commit writes for a few milliseconds, and a kill meant for its
        // middle should not land after it.
        let deadline = ContinuousClock.now + .seconds(120)
        var seen = 0
        while let n = written(p.processIdentifier), n < threshold, p.isRunning, ContinuousClock.now < deadline {
            seen = n
            usleep(1000)
        }
        seen = written(p.processIdentifier) ?? seen
        p.signal(SIGKILL)
        p.waitUntilExit()
        return (p.terminationReason == .uncaughtSignal, p.terminationStatus, seen)
    }

    /// Runs `burrow ARGS` with stdin from /dev/null (or `input`) and waits for it. `environment` is added to
    /// this process's.
    public static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) -> Result {
        run(tool: path, arguments, input: input, environment: environment)
    }

    /// Runs the program at `tool` the same way (`setpriv … burrow …`, say).
    public static func run(tool: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:]) -> Result {
        do {
            return try Spawn.run(tool, arguments, input: input, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        } catch {
            return Result(status: -1, out: "", err: "cannot run \(tool): \(error)")
        }
    }

    /// Runs `count` workers at once, each on a thread of its own (not a pool sized by the cores), and
    /// returns what each returned. `meanwhile` runs on the calling thread every few milliseconds until
    /// they are all done (a watcher polling the store, say).
    public static func concurrently<T: Sendable>(
        _ count: Int, meanwhile: () throws -> Void = {}, _ work: @escaping @Sendable (Int) -> T
    ) throws -> [T] {
        let results = Results<T>(count)
        let group = DispatchGroup()
        for i in 0..<count {
            group.enter()
            Thread.detachNewThread {
                results.set(i, work(i))
                group.leave()
            }
        }
        while group.wait(timeout: .now() + .milliseconds(20)) == .timedOut { try meanwhile() }
        return results.values.map { $0! }
    }

    // @unchecked Sendable: every write takes the lock, and `values` is read only after every worker has
    // left the group (`DispatchGroup.wait` orders their writes before that read).
    private final class Results<T>: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var values: [T?]
        init(_ n: Int) { values = Array(repeating: nil, count: n) }
        func set(_ i: Int, _ v: T) {
            lock.lock()
            values[i] = v
            lock.unlock()
        }
    }
}
