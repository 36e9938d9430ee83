import Foundation

/// Reads a result's row IDs on a background thread (a store type's own connection, one consistent
/// snapshot), handing over the first rows as soon as they are read. It lets a results controller on a
/// million rows show its first screen without waiting for the whole list.
final class IDScan: @unchecked Sendable {
    private let condition = NSCondition()
    private var ids: [Int64] = []
    private var finished = false
    private var failure: StoreError?

    /// Starts `read` on a thread of its own; it hands IDs over with ``publish(_:done:)``, the last chunk
    /// with `done`.
    init(_ read: @escaping @Sendable (IDScan) throws(StoreError) -> Void) {
        Thread.detachNewThread { [self] in
            do throws(StoreError) {
                try read(self)
            } catch {
                condition.lock()
                failure = error
                finished = true
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Hands over IDs read so far, in order.
    func publish(_ chunk: [Int64], done: Bool) {
        condition.lock()
        ids += chunk
        finished = done
        condition.broadcast()
        condition.unlock()
    }

    /// At least the first `count` IDs (fewer only when the result is shorter), and whether that is all.
    func prefix(_ count: Int) throws(StoreError) -> (ids: [Int64], complete: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while ids.count < count && !finished { condition.wait() }
        if let failure { throw failure }
        return (ids, finished)
    }

    /// True once the scan has read every ID (or failed); never waits.
    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Every ID, once the scan is done.
    func all() throws(StoreError) -> [Int64] {
        try prefix(Int.max).ids
    }
}
