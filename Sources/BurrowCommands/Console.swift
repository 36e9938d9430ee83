import Foundation

/// Where commands write: the real stdout and stderr, or buffers in tests.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Reads standard input whole (for `-` arguments).
    public var input: @Sendable () -> Data
    /// True when stderr is a terminal (progress bars are drawn only then).
    public var errIsTerminal: Bool

    public static let standard = Console(
        out: { s in FileHandle.standardOutput.write(Data(s.utf8)) },
        err: { s in FileHandle.standardError.write(Data(s.utf8)) },
        input: { FileHandle.standardInput.readDataToEndOfFile() },
        errIsTerminal: isatty(2) == 1)

    @TaskLocal public static var current = Console.standard
}

func say(_ s: String) { Console.current.out(s + "\n") }

/// A failure the user caused (bad path, bad file): one line on stderr, exit status 1.
public struct UserError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A progress bar on stderr, only when stderr is a terminal and the work is long.
struct Progress {
    let label: String
    let total: Int?
    private var lastDrawn = Date.distantPast

    init(_ label: String, total: Int?) {
        self.label = label
        self.total = total
    }

    mutating func update(_ done: Int) {
        guard Console.current.errIsTerminal, Date().timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = Date()
        if let total, total > 0 {
            let width = 30, filled = min(width, done * width / total)
            Console.current.err("\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)")
        } else {
            Console.current.err("\r\(label) \(done)")
        }
    }

    func finish() {
        guard Console.current.errIsTerminal, lastDrawn != .distantPast else { return }
        Console.current.err("\r\u{1B}[K")
    }
}
