import Foundation

/// Standard output gathered into large writes: `ls` of a level of 571 items made 571 `write` calls, about a
/// tenth of its process. Written out when 64 KiB have gathered, before anything goes to standard error or is
/// read from standard input (so what a terminal shows keeps its order), and when the command ends
/// (`BurrowMain.run`). Commands end soon after their output; none waits between lines for long.
final class BufferedOutput: @unchecked Sendable {
    // @unchecked: `pending` is only touched under `lock`.
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private let write: @Sendable (Data) -> Void
    static let limit = 1 << 16

    init(write: @escaping @Sendable (Data) -> Void) {
        self.write = write
    }

    static let standardOutput = BufferedOutput { FileHandle.standardOutput.write($0) }

    func append(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        pending.append(contentsOf: text.utf8)
        if pending.count >= BufferedOutput.limit { flushLocked() }
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
