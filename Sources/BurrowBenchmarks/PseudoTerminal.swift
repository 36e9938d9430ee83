import Foundation

/// Runs a program on a fresh pseudo-terminal and reads what it draws, to time "process start to first full
/// frame" as a user sees it, for Burrow and for hnb alike.
final class PseudoTerminal {
    let master: Int32
    /// Whether `hangUp()` closed `master` already.
    private var hungUp = false
    let pid: pid_t
    let started: UInt64
    /// What was drawn, with escape sequences taken out (attribute changes split words otherwise).
    private var visible = [UInt8]()
    private var state = EscapeState.text
    /// The parameter bytes of the control sequence being read.
    private var csiParameters = [UInt8]()
    /// Whether cursor position requests are answered (as terminals do) or left unanswered (as some do).
    private let answersCursorQueries: Bool
    /// The row the program last moved the cursor to (1-based), to answer a position request with.
    private var cursorRow = 1
    /// Whether answers to cursor position requests are kept in `heldAnswers` for the caller to send when it
    /// chooses (a terminal far away, whose answers come late), rather than written at once.
    var holdsAnswers = false
    /// The answers kept while `holdsAnswers` is set, in the order asked.
    private(set) var heldAnswers = [UInt8]()
    /// The terminal device's name, for a second reader standing for the shell the program returns to.
    let deviceName: String
    /// Whether `exitStatus` saw the program end (its process id may then be another's).
    private var reaped = false

    private enum EscapeState { case text, escape, intermediate, csi }

    /// Starts `executable` as the session leader of a new `rows`×`columns` terminal (TERM=xterm-256color).
    /// `controlling`: the terminal becomes the session's controlling terminal, so that hanging it up sends
    /// SIGHUP; otherwise the program only holds it open, and a hang-up reaches it as reads that fail.
    init(
        _ executable: String, _ arguments: [String], rows: Int = 24, columns: Int = 80, environment: [String: String] = [:],
        answersCursorQueries: Bool = true, controlling: Bool = true
    ) throws {
        self.answersCursorQueries = answersCursorQueries
        // posix_openpt and friends are hidden from Swift's Glibc module (they need _XOPEN_SOURCE); on Linux they
        // are /dev/ptmx plus two ioctls: unlock the pair (TIOCSPTLCK) and get its number (TIOCGPTN).
        let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard fd >= 0, ioctl(fd, 0x4004_5431, &unlock) == 0, ioctl(fd, 0x8004_5430, &number) == 0 else {
            throw Failure("no pseudo-terminal")
        }
        let name = "/dev/pts/\(number)"
        deviceName = name
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(fd, UInt(TIOCSWINSZ), &size)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A new session whose first opened terminal becomes its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, name, controlling ? O_RDWR : O_RDWR | O_NOCTTY, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, fd)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        // POSIX_SPAWN_SETSID (glibc's 0x80) is not visible from Swift either.
        posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGMASK))
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm-256color"
        for (k, v) in environment { env[k] = v }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in envp + argv { free(p) } }
        var child: pid_t = 0
        started = DispatchTime.now().uptimeNanoseconds
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(fd)
            throw Failure("cannot start \(executable): error \(status)")
        }
        master = fd
        pid = child
    }

    /// Seconds from the start until `marker` has been drawn (appears in the output), or nil after `timeout`.
    func time(until marker: String, timeout: Double = 30) -> Double? {
        guard let seen = wait(for: marker, until: started + UInt64(timeout * 1e9)) else { return nil }
        return Double(seen - started) / 1e9
    }

    /// Seconds from writing `keys` to the terminal until `marker` is drawn after them, or nil after `timeout`.
    func time(afterTyping keys: String, until marker: String, timeout: Double = 30) -> Double? {
        let start = DispatchTime.now().uptimeNanoseconds
        send(Array(keys.utf8))
        guard let seen = wait(for: marker, until: start + UInt64(timeout * 1e9)) else { return nil }
        return Double(seen - start) / 1e9
    }

    /// Reads what is drawn until `marker` appears in it (the instant, in uptime nanoseconds), or `deadline`.
    private func wait(for marker: String, until deadline: UInt64) -> UInt64? {
        let needle = Array(marker.utf8)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return nil }
            let from = max(0, visible.count - needle.count)
            for b in buffer[..<n] { take(b) }
            if visible[from...].firstRange(of: needle) != nil { return DispatchTime.now().uptimeNanoseconds }
        }
        return nil
    }

    /// Keeps printable bytes; drops `ESC [ … final`, `ESC ( B`-style and `ESC x` sequences and control bytes.
    private func take(_ b: UInt8) {
        switch state {
        case .text:
            if b == 0x1B { state = .escape } else if b >= 0x20 { visible.append(b) }
        case .escape:
            state = b == UInt8(ascii: "[") ? .csi : (0x20...0x2F).contains(b) ? .intermediate : .text
            csiParameters = []
        case .intermediate:
            if !(0x20...0x2F).contains(b) { state = .text }
        case .csi:
            if b >= 0x40 && b <= 0x7E {
                state = .text
                // A cursor position request (the outliner asks how wide some characters are drawn): answered
                // as a terminal does, at once, with a position two cells along the row last moved to.
                if b == UInt8(ascii: "n") && csiParameters == [UInt8(ascii: "6")] && answersCursorQueries {
                    let reply = Array("\u{1B}[\(cursorRow);3R".utf8)
                    if holdsAnswers { heldAnswers += reply } else { send(reply) }
                } else if b == UInt8(ascii: "H") {
                    let row = csiParameters.prefix { $0 != UInt8(ascii: ";") }
                    cursorRow = Int(String(decoding: row, as: UTF8.self)) ?? 1
                }
                csiParameters = []
            } else {
                csiParameters.append(b)
            }
        }
    }

    /// Writes `bytes` to the program as typed (or answered) by the terminal.
    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The program's exit status once it has ended by itself, or nil if it is still running after `timeout`.
    func exitStatus(timeout: Double = 30) -> Int32? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var status: Int32 = 0
        while DispatchTime.now().uptimeNanoseconds < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                return status
            }
            usleep(2000)
        }
        return nil
    }

    /// Closes the terminal's other end, as a terminal emulator's window closing does.
    func hangUp() {
        guard !hungUp else { return }
        hungUp = true
        close(master)
    }

    /// Kills the program and waits for it (unless it has ended and been waited for already).
    func stop() {
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        hangUp()
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
