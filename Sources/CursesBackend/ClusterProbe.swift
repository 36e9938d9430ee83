import Foundation

/// How wide the terminal draws characters made of several visible code points, which neither the C library
/// nor ncurses can measure: ZWJ sequences (a family), flags (two regional indicators) and emoji with a skin
/// tone. Terminals differ (tmux 3.3a joins the first two into two cells but draws a skin tone as two more), so
/// it is asked once at start: each sample is written at the start of a row, then the cursor position is
/// requested (`ESC [ 6 n`) and read back.
struct ClusterProbe: Sendable {
    /// The kinds of cluster a terminal may or may not draw as one character.
    enum Kind: CaseIterable, Sendable {
        case joined, flag, modified

        var sample: String {
            switch self {
            case .joined: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
            case .flag: "\u{1F1EB}\u{1F1F7}"
            case .modified: "\u{1F44D}\u{1F3FD}"
            }
        }

        /// The kind of a character with several visible code points; nil for any other.
        init?(_ scalars: String.UnicodeScalarView) {
            if scalars.contains(where: { $0.value == 0x200D }) {
                self = .joined
            } else if let first = scalars.first, (0x1F1E6...0x1F1FF).contains(first.value) {
                self = .flag
            } else if scalars.contains(where: { (0x1F3FB...0x1F3FF).contains($0.value) }) {
                self = .modified
            } else {
                return nil
            }
        }
    }

    /// The cells the terminal took for each kind's sample; a kind it did not answer for is missing.
    var widths: [Kind: Int] = [:]

    /// Asks the terminal on standard output, reading its answers from standard input (already in raw mode),
    /// for at most `timeout`. Writes on the screen: the caller repaints it after.
    static func ask(timeout: Duration = .milliseconds(300)) -> ClusterProbe {
        var request = ""
        for (row, kind) in Kind.allCases.enumerated() { request += "\u{1B}[\(row + 1);1H\(kind.sample)\u{1B}[6n" }
        FileHandle.standardOutput.write(Data(request.utf8))
        var reply: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var answers: [(row: Int, column: Int)] = []
        while answers.count < Kind.allCases.count {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ms = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&poller, 1, max(1, ms)) > 0 else { break }
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            guard n > 0 else { break }
            reply += buffer[..<n]
            answers = cursorReports(in: reply)
        }
        var probe = ClusterProbe()
        for (kind, answer) in zip(Kind.allCases, answers) { probe.widths[kind] = answer.column - 1 }
        return probe
    }

    /// The `ESC [ row ; column R` reports in `bytes`, in order (anything else, such as a key typed meanwhile,
    /// is skipped).
    static func cursorReports(in bytes: [UInt8]) -> [(row: Int, column: Int)] {
        var out: [(row: Int, column: Int)] = []
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") else {
                i += 1
                continue
            }
            var j = i + 2
            var numbers = [0]
            while j < bytes.count, bytes[j] == UInt8(ascii: ";") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) {
                if bytes[j] == UInt8(ascii: ";") {
                    numbers.append(0)
                } else {
                    numbers[numbers.count - 1] = min(10_000, numbers[numbers.count - 1] * 10 + Int(bytes[j] - UInt8(ascii: "0")))
                }
                j += 1
            }
            if j < bytes.count, bytes[j] == UInt8(ascii: "R"), numbers.count == 2 {
                out.append((numbers[0], numbers[1]))
            }
            i = j
        }
        return out
    }
}
