import Foundation
import Synchronization

/// How far a store has taken in the change log, readable from any thread: a background context paced to a
/// drawing thread's store waits on it (see ``BackgroundContext/init(sharingFileOf:paced:whenSaved:)``).
final class TakenInMark: Sendable {
    /// The newest log entry the store has taken in (merged into its contexts, or written itself).
    private let newest = Atomic<Int64>(0)
    /// The last entry the store itself wrote.
    private let written = Atomic<Int64>(0)
    /// False once the store is gone: nobody will take anything in, so nobody waits.
    private let open = Atomic<Bool>(true)

    func takeIn(through seq: Int64) { newest.store(seq, ordering: .releasing) }
    func wrote(_ seq: Int64) { written.store(seq, ordering: .releasing) }
    func close() { open.store(false, ordering: .releasing) }

    /// The last entry the store wrote.
    var lastWritten: Int64 { written.load(ordering: .acquiring) }

    /// Waits until the store has taken in entry `seq` (or everything after it), is gone, or `timeout`
    /// seconds have passed; true when it took it in.
    func wait(until seq: Int64, timeout: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while newest.load(ordering: .acquiring) < seq {
            guard open.load(ordering: .acquiring), DispatchTime.now().uptimeNanoseconds < deadline else { return false }
            // A drawing thread polls every frame or so: a fraction of a millisecond late costs nothing.
            usleep(200)
        }
        return true
    }
}
