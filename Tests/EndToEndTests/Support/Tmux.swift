import Foundation
import TestSupport

/// A private tmux server running one program in a pane of a fixed size, for end-to-end tests: send keys, read
/// the screen with `capture-pane`, resize, signal.
///
/// Waiting is always for a condition on the screen (polled), never a fixed sleep. A command whose last screen
/// a test reads ends with `exec sleep infinity`: the pane stays until the server is killed, however slow the
/// machine.
final class Tmux {
    let socket: String
    /// `$TEST_DIR`: held here so it lives as long as the server that writes into it.
    private let folder: TemporaryDirectory
    var directory: URL { folder.url }
    private(set) var width: Int
    private(set) var height: Int

    /// Starts `shellCommand` (run by `sh -c`) in a new pane of `width`×`height` cells; `$TEST_DIR` in it is a
    /// fresh temporary directory (the `directory` property), removed with the server, and `$XDG_CONFIG_HOME` is
    /// `$TEST_DIR/config`.
    init(width: Int = 80, height: Int = 24, shellCommand: String, environment: [String: String] = [:]) throws {
        socket = "burrow-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        folder = TemporaryDirectory(socket)
        self.width = width
        self.height = height
        let config = directory.appendingPathComponent("tmux.conf")
        try "set -g default-terminal tmux-256color\nset -g status off\nset -g history-limit 0\n"
            .write(to: config, atomically: true, encoding: .utf8)
        // The config file is the test's own (none unless it writes one), never the user's.
        var command = "TEST_DIR=\(Self.quote(directory.path)) XDG_CONFIG_HOME=\(Self.quote(directory.appendingPathComponent("config").path)) "
        for (k, v) in environment.sorted(by: { $0.key < $1.key }) { command += "\(k)=\(Self.quote(v)) " }
        command += "sh -c \(Self.quote(shellCommand))"
        // The server this starts keeps its inherited descriptors: capturing its output would wait for ever.
        try run(["-f", config.path, "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", command], capture: false)
    }

    deinit {
        // Before the folder goes: the program in the pane may still be writing into it.
        _ = try? run(["kill-server"])
    }

    /// The pane's rows as text, trailing spaces removed.
    func screen() -> [String] {
        let text = (try? run(["capture-pane", "-p", "-t", "t"])) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var s = Substring(line)
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Polls the screen until `condition` holds; returns the screen then, or nil after `timeout`.
    @discardableResult
    func waitFor(timeout: Duration = .seconds(15), _ condition: ([String]) -> Bool) -> [String]? {
        Poll.value(timeout: timeout) {
            let s = screen()
            return condition(s) ? s : nil
        }
    }

    /// Polls until some row contains `text`.
    @discardableResult
    func waitFor(text: String, timeout: Duration = .seconds(15)) -> [String]? {
        waitFor(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Sends keys by tmux name (`Enter`, `C-z`, `S-Up`, `M-x`) or as literal text with `literal`.
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", "t"] + keys)
    }

    func type(_ text: String) throws {
        try run(["send-keys", "-t", "t", "-l", text])
    }

    /// Pastes `text` as a terminal would: bracketed when the program asked for it.
    func paste(_ text: String) throws {
        try run(["set-buffer", "-b", "p", text])
        try run(["paste-buffer", "-p", "-b", "p", "-t", "t"])
    }

    func resize(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        try run(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    }

    /// A tmux format about the pane: `#{alternate_on}`, `#{cursor_flag}`, `#{pane_title}`, …
    func display(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", "t", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let r = try Spawn.run("tmux", ["-L", socket] + arguments, captureOutput: capture)
        guard r.status == 0 else { throw TmuxError(arguments: arguments, status: r.status) }
        return r.out
    }

    static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    var description: String { "tmux \(arguments.joined(separator: " ")) failed with status \(status)" }
}
