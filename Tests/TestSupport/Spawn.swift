import Foundation

/// Runs programs for tests with `posix_spawn` and `waitpid`. Foundation's `Process` learns that a child ended
/// by polling a run loop, which made every run of `burrow --version` take 79 ms instead of 23 ms (the test
/// suites run thousands of commands, and a test thread waits through all of it), and from a descriptor the
/// child inherits, which a daemon keeps open (tmux's server), so its `waitUntilExit` may never return.
///
/// ```swift
/// let r = try Spawn.run("/bin/echo", ["hi"])   // r.status == 0, r.out == "hi\n"
/// ```
public enum Spawn {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What a program that ran to its end did: its exit status (128 + the signal when a signal ended it), and
    /// what it wrote to standard output and standard error (empty when not captured).
    public struct Result: Sendable {
        public var status: Int32
        public var out: String
        public var err: String

        public init(status: Int32, out: String, err: String) {
            self.status = status
            self.out = out
            self.err = err
        }
    }

    /// Runs `executable` (a path, or a name looked up in `PATH`) to its end: `input` on its standard input
    /// (else /dev/null), `environment` in place of this process's when given, its output captured unless
    /// `captureOutput` is false (then thrown away).
    public static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String]? = nil,
        captureOutput: Bool = true
    ) throws -> Result {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        var opened: [Int32] = []
        defer { for fd in opened where fd >= 0 { close(fd) } }
        if captureOutput {
            guard closedOnExec(&outPipe), closedOnExec(&errPipe) else { throw Failure(description: "pipe failed: errno \(errno)") }
            opened += outPipe + errPipe
        }
        if input != nil {
            guard closedOnExec(&inPipe) else { throw Failure(description: "pipe failed: errno \(errno)") }
            opened += inPipe
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let pid = try spawn(executable, arguments, environment: environment, actions: &actions)
        // The child's ends are closed here, so that reading sees the end once the child (and whatever it
        // started that kept them) has closed its own.
        for fd in [outPipe[1], errPipe[1], inPipe[0]] where fd >= 0 {
            close(fd)
            opened.removeAll { $0 == fd }
        }
        // `exchange` closes these three, whatever happens: closed twice, a number another thread has opened
        // since (a store's file) would be closed under it.
        opened.removeAll { [inPipe[1], outPipe[0], errPipe[0]].contains($0) }
        var out = Data(), err = Data()
        do {
            try exchange(input: input.map { Array($0.utf8) } ?? [], to: inPipe[1], out: outPipe[0], &out, err: errPipe[0], &err)
        } catch {
            // Not left running nor unreaped.
            kill(pid, SIGKILL)
            _ = Child.wait(pid)
            throw error
        }
        return Result(status: Child.wait(pid), out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self))
    }

    /// Starts `executable` with its output thrown away and stdin from /dev/null, and does not wait: for tests
    /// that watch it, kill it mid-write, or wait for it themselves. `environment` replaces this process's.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Child {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        return Child(pid: try spawn(executable, arguments, environment: environment, actions: &actions))
    }

    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]?, actions: inout posix_spawn_file_actions_t
    ) throws -> pid_t {
        // Started as a shell would start it: no signal blocked, none ignored (test threads block most signals,
        // and a blocked mask is inherited across exec).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let variables = environment ?? ProcessInfo.processInfo.environment
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in envp { free(p) } }
        // Nothing else this process has open reaches the child: another test's pipe inherited by a program that
        // outlives it (a server's watchdog) would keep that test reading forever. (The pipes here are opened
        // close-on-exec too, against programs other code starts meanwhile.)
        addCloseFrom(&actions, 3)
        var pid: pid_t = 0
        let spawned =
            executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
            : posix_spawnp(&pid, executable, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw Failure(description: "cannot run \(executable): error \(spawned)") }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time because Swift's
    /// Glibc module does not declare it.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Closes every descriptor from `first` on in the child: with `closefrom` where glibc has it, else each one
    /// open here now.
    private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ first: Int32) {
        if let closeFrom {
            _ = closeFrom(&actions, first)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd >= first { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    /// A pipe whose ends a program started later does not inherit (`pipe2` is not in Swift's Glibc).
    private static func closedOnExec(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Writes `input` to `inFD` (then closes it) while reading `outFD` and `errFD` to their ends, so that a
    /// child filling one pipe while this side waits on another never blocks both. Closes all three, whatever
    /// happens. Negative descriptors are not there.
    private static func exchange(input: [UInt8], to inFD: Int32, out outFD: Int32, _ out: inout Data, err errFD: Int32, _ err: inout Data) throws {
        var written = 0
        var writing = inFD
        var reading = [outFD, errFD]
        defer { for fd in reading + [writing] where fd >= 0 { close(fd) } }
        if writing >= 0 {
            _ = fcntl(writing, F_SETFL, fcntl(writing, F_GETFL) | O_NONBLOCK)
            if input.isEmpty {
                close(writing)
                writing = -1
            }
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while reading.contains(where: { $0 >= 0 }) || writing >= 0 {
            var fds = reading.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + [pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)]
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "poll failed: errno \(errno)")
            }
            for k in 0..<2 where reading[k] >= 0 && fds[k].revents != 0 {
                let got = read(reading[k], &chunk, chunk.count)
                if got > 0 {
                    if k == 0 { out.append(contentsOf: chunk[..<got]) } else { err.append(contentsOf: chunk[..<got]) }
                } else if got == 0 || errno != EINTR && errno != EAGAIN {
                    close(reading[k])
                    reading[k] = -1
                }
            }
            if writing >= 0 && fds[2].revents != 0 {
                let sent = input[written...].withUnsafeBytes { Glibc.write(writing, $0.baseAddress, $0.count) }
                if sent > 0 { written += sent }
                // Done, or the child closed its end (EPIPE, or POLLERR/POLLHUP with nothing written).
                if written == input.count || sent < 0 && errno != EINTR && errno != EAGAIN || fds[2].revents & Int16(POLLERR | POLLHUP) != 0 {
                    close(writing)
                    writing = -1
                }
            }
        }
    }
}

/// A program `Spawn.start` started: watched (`isRunning`, `processIdentifier`), killed, waited for. Reaped
/// once; its status kept.
public final class Child: @unchecked Sendable {
    // @unchecked: `status` is written under `lock`; the pid is constant.
    public let processIdentifier: pid_t
    private let lock = NSLock()
    private var status: Int32?

    init(pid: pid_t) { processIdentifier = pid }

    /// How a child's life ended.
    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    /// False once it has ended (and been reaped here).
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if status != nil { return false }
        var raw: Int32 = 0
        var got = waitpid(processIdentifier, &raw, WNOHANG)
        while got == -1 && errno == EINTR { got = waitpid(processIdentifier, &raw, WNOHANG) }
        guard got == processIdentifier else { return got == 0 }
        status = raw
        return false
    }

    /// Waits for its end.
    public func waitUntilExit() {
        // Waited for without reaping (WNOWAIT) and outside the lock, so that another thread can still send it
        // a signal meanwhile; reaped under the lock, so that a signal never reaches a reused pid.
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        lock.lock()
        defer { lock.unlock() }
        if status == nil { status = Self.rawWait(processIdentifier) }
    }

    /// Sends `signal` while it has not been reaped (never to a pid the system may have given another process).
    public func signal(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if status == nil { kill(processIdentifier, signal) }
    }

    /// Its exit status, or the signal that ended it; after `waitUntilExit`.
    public var terminationStatus: Int32 {
        let raw = reaped()
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : raw & 0x7F
    }

    public var terminationReason: TerminationReason { reaped() & 0x7F == 0 ? .exit : .uncaughtSignal }

    private func reaped() -> Int32 {
        waitUntilExit()
        lock.lock()
        defer { lock.unlock() }
        return status ?? 0
    }

    private static func rawWait(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        return raw
    }

    /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it.
    static func wait(_ pid: pid_t) -> Int32 {
        let raw = rawWait(pid)
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
