import Foundation

/// Whole rows being read on another thread and connection (``PersistentStore/rowsAside(of:ids:)``), handed
/// over by ``rows()``, which waits for them. Why: a cascade down a tree needs the rows it deletes for its
/// undo step only when the step is recorded, after the store has deleted them; reading them meanwhile on the
/// second core takes that read off the save's path.
final class PendingRows: @unchecked Sendable {
    // Safe to share: `result` is written once, by the reading thread, and read only after `done` is set;
    // both are touched only while `condition` is locked.
    private let condition = NSCondition()
    private var result: Result<[[Value]], StoreError>?

    /// Called once by the reading thread.
    func finish(_ outcome: Result<[[Value]], StoreError>) {
        condition.lock()
        result = outcome
        condition.broadcast()
        condition.unlock()
    }

    /// The rows, in the order their IDs were given, once read; the read's error otherwise.
    func rows() throws(StoreError) -> [[Value]] {
        condition.lock()
        while result == nil { condition.wait() }
        let outcome = result!
        condition.unlock()
        return try outcome.get()
    }
}
