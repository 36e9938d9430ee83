import Foundation
import GRDB

/// Reads a result's row IDs on a background thread through a separate read-only connection, in one read
/// transaction (one consistent snapshot), handing over the first rows as soon as they are read. It lets a
/// results controller on a million rows show its first screen without waiting for the whole list.
final class IDScan: @unchecked Sendable {
    private let condition = NSCondition()
    private var ids: [Int64] = []
    private var finished = false
    private var failure: StoreError?

    /// Starts reading `sql` (which selects one ID column) with `arguments` on `reader`.
    init(reader: DatabaseQueue, sql: String, arguments: [Value]) {
        let args = arguments
        Thread.detachNewThread { [self] in
            do {
                try reader.read { db in
                    let stmt = RawStatement(try db.makeStatement(sql: sql))
                    for (i, a) in args.enumerated() { stmt.bind(a, at: Int32(i + 1)) }
                    var chunk: [Int64] = []
                    chunk.reserveCapacity(4096)
                    var size = 256  // the first chunk is a screenful: hand it over at once
                    while try stmt.step(db) {
                        chunk.append(stmt.int64(at: 0))
                        if chunk.count >= size {
                            publish(chunk, done: false)
                            chunk.removeAll(keepingCapacity: true)
                            size = 65536
                        }
                    }
                    publish(chunk, done: true)
                }
            } catch {
                condition.lock()
                failure = StoreError.wrap(error, "cannot read the result")
                finished = true
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    private func publish(_ chunk: [Int64], done: Bool) {
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
