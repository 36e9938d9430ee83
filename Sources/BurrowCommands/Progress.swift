import Foundation

/// A progress bar on stderr, only when stderr is a terminal and the work has run past ``delay``: quick work,
/// and output to a file or a pipe, get nothing at all. Redrawn at most every ``interval``, erased at the end.
struct Progress {
    /// How long work runs before its bar appears.
    static let delay = 0.5
    /// The least time between two drawings.
    static let interval = 0.1

    let label: String
    let total: Int?
    private let started: Double
    private var lastDrawn: Double?

    init(_ label: String, total: Int?) {
        self.label = label
        self.total = total
        started = Console.current.now()
    }

    mutating func update(_ done: Int) {
        let console = Console.current
        guard console.errIsTerminal else { return }
        let now = console.now()
        guard now - started >= Progress.delay, lastDrawn.map({ now - $0 >= Progress.interval }) ?? true else { return }
        lastDrawn = now
        console.errControl("\r")
        if let total, total > 0 {
            let width = 30, filled = max(0, min(width, done * width / total))
            console.err(
                "\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)")
        } else {
            console.err("\(label) \(done)")
        }
    }

    /// Erases the bar, if one was drawn.
    func finish() {
        guard lastDrawn != nil else { return }
        Console.current.errControl("\r\u{1B}[K")
    }
}
