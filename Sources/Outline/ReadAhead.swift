import Foundation

/// Runs a reader on a thread of its own and hands what it emits to the calling thread a batch at a time,
/// at most `capacity` batches ahead: an import parses its file and makes its rows on one core while the
/// other writes them. The reader's error comes out of ``next()``; ``finish()`` stops the reader when the
/// caller gives up first, and always waits for its thread to end.
///
/// ```swift
/// let ahead = ReadAhead<Int, Void> { emit in for i in 0..<1_000_000 { try emit(i) } }
/// defer { ahead.finish() }
/// while var batch = try ahead.next() { total += batch.count }
/// ```
public final class ReadAhead<Element: Sendable, Outcome: Sendable>: @unchecked Sendable {
    // @unchecked: `ready`, `ended`, `failure`, `stopped` and `result` are touched only under `condition`;
    // `joined` only by the caller's thread.
    private let condition = NSCondition()
    private var ready: [[Element]] = []
    private var ended = false
    private var failure: (any Error)?
    private var stopped = false
    private var result: Outcome?
    private let capacity: Int
    private let exited = DispatchSemaphore(value: 0)
    private var joined = false

    /// What the reader returned, once ``next()`` has said the end (nil before, or when it failed).
    public var outcome: Outcome? {
        condition.lock()
        defer { condition.unlock() }
        return result
    }

    /// Starts `reader` on its own thread (a 16 MiB stack, twice the main thread's: readers may recurse as
    /// deep as they do there); `emit` blocks while `capacity` batches wait, and throws once the caller has
    /// stopped.
    public init(batch: Int = 4096, capacity: Int = 4, reader: @escaping @Sendable (_ emit: (Element) throws -> Void) throws -> Outcome) {
        precondition(batch > 0 && capacity > 0, "a batch and the room for one")
        self.capacity = capacity
        let thread = Thread { [self] in
            var pending: [Element] = []
            pending.reserveCapacity(batch)
            do {
                let outcome = try reader { element in
                    pending.append(element)
                    if pending.count >= batch {
                        try hand(pending)
                        pending = []
                        pending.reserveCapacity(batch)
                    }
                }
                if !pending.isEmpty { try hand(pending) }
                end(outcome: outcome, error: nil)
            } catch {
                // What was emitted before the error is handed over first, as it would have been without it.
                if !(error is Stopped) && !pending.isEmpty { try? hand(pending) }  // fails only if the caller stopped
                end(outcome: nil, error: error)
            }
            exited.signal()
        }
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// The next batch, in the order emitted; nil after the last. Throws what the reader threw, after the
    /// batches it emitted before.
    public func next() throws -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !ended { condition.wait() }
        if !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the reader if it is still going (its `emit` throws) and waits for its thread to end. Call it
    /// once the batches are taken or the caller fails (a `defer`); calling it again does nothing.
    public func finish() {
        guard !joined else { return }
        joined = true
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        exited.wait()
    }

    /// The caller stopped taking batches.
    struct Stopped: Error {}

    private func hand(_ batch: [Element]) throws {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !stopped { condition.wait() }
        if stopped { throw Stopped() }
        ready.append(batch)
        condition.broadcast()
    }

    private func end(outcome: Outcome?, error: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        result = outcome
        failure = error
        condition.broadcast()
    }
}
