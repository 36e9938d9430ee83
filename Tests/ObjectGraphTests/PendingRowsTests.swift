import Dispatch
import Foundation
import Testing

@testable import ObjectGraph

/// `PendingRows` is shared between the thread that reads and the one that waits (`@unchecked Sendable`,
/// guarded by its condition): whichever comes first, the waiter gets exactly what was finished, never
/// nothing, a half-written result or another's, and an error comes back as the error.
@Suite struct PendingRowsTests {
    @Test func eachWaiterGetsExactlyWhatItsReaderFinished() throws {
        let count = 2_000
        let pending = (0..<count).map { _ in PendingRows() }
        let shared = pending
        DispatchQueue.global().async {
            // Finished in another order than waited for, some before and some after the wait begins.
            DispatchQueue.concurrentPerform(iterations: count) { k in
                let i = (k * 7919) % count
                if i % 3 == 0 { usleep(UInt32(i % 50)) }
                if i % 97 == 0 {
                    shared[i].finish(.failure(StoreError(.storage, "row \(i) unreadable")))
                } else {
                    shared[i].finish(.success([[.integer(Int64(i)), .string("row \(i)")]]))
                }
            }
        }
        for (i, p) in pending.enumerated() {
            if i % 97 == 0 {
                #expect(throws: StoreError.self) { try p.rows() }
            } else {
                #expect(try p.rows() == [[.integer(Int64(i)), .string("row \(i)")]])
            }
            // Asked again, the same answer.
            if i % 97 != 0 { #expect(try p.rows().count == 1) }
        }
    }
}
