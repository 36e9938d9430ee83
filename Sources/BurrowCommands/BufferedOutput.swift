import Foundation

/// Standard output gathered into large writes, as C's stdio does: `ls` of a level of 571 items made 571
/// `write` calls, about a tenth of its process. To a file or a pipe it is written when 64 KiB have gathered;
/// to a terminal, at the end of each line. Either way it is written before anything goes to standard error
/// or is read from standard input (so what a terminal shows keeps its order), before a command's checkpoint
/// and close (`DatabaseOptions`), and when the command ends (`BurrowMain.run`).
final class BufferedOutput: @unchecked Sendable {
    // @unchecked: `pending` is only touched under `lock`.
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private let write: @Sendable (Data) -> Void
    private let byLine: Bool
    static let limit = 1 << 16

    init(byLine: Bool = false, write: @escaping @Sendable (Data) -> Void) {
        self.byLine = byLine
        self.write = write
    }

    static let standardOutput = BufferedOutput(byLine: isatty(1) == 1) { FileHandle.standardOutput.write($0) }

    func append(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if text.utf8.count >= BufferedOutput.limit {
            // Written as it is, not copied in first (a million items' JSON in one piece).
            flushLocked()
            var text = text
            write(text.withUTF8 { Data(buffer: $0) })
            return
        }
        pending.append(contentsOf: text.utf8)
        if pending.count >= BufferedOutput.limit || (byLine && text.utf8.contains(UInt8(ascii: "\n"))) { flushLocked() }
    }

    func flush() {
        lock.lock()
        defer { lock.unlock() }
        flushLocked()
    }

    private func flushLocked() {
        guard !pending.isEmpty else { return }
        let data = pending.withUnsafeBufferPointer { Data(buffer: $0) }
        pending.removeAll(keepingCapacity: true)
        write(data)
    }
}
