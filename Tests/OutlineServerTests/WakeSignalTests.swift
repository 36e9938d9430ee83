import Foundation
import Synchronization
import TestSupport
import Testing

@testable import OutlineServer
@testable import OutlineSync

/// The sync loop's doorbell and the connection's deadline, alone: a ring before the wait is kept (once),
/// a ring from another thread wakes the waiter, a wait nobody rings ends at its timeout; work that never
/// ends gives the caller an error at the deadline and runs the clean-up once, and work that ends in time
/// gives its answer and no clean-up.
@Suite(.onAThreadOfItsOwn("sync processes")) struct WakeSignalTests {
    @Test func ringsAreKeptOnceAndWakeTheWaiter() async {
        let bell = WakeSignal()
        bell.ring()
        bell.ring()
        #expect(await bell.wait(for: .seconds(60)), "a ring before the wait is kept")
        #expect(await !bell.wait(for: .milliseconds(200)), "two rings count as one: the second wait times out")
        // Rung from another thread once the wait has begun.
        let thread = Thread {
            Poll.until(timeout: .seconds(60)) { bell.hasWaiter }
            bell.ring()
        }
        thread.start()
        #expect(await bell.wait(for: .seconds(60)), "rung from another thread")
    }

    @Test func workPastItsDeadlineFailsAndIsCleanedUpOnce() async throws {
        struct Late: Error {}
        let cleanups = Mutex(0)
        let never = AsyncStream<Int> { _ in }
        await #expect(throws: Late.self) {
            _ = try await Deadline.run(
                .milliseconds(100), expired: { cleanups.withLock { $0 += 1 } }, error: { Late() },
                {
                    for await n in never { return n }
                    return 0
                })
        }
        // The clean-up runs just after the caller is answered.
        for _ in 0..<500 where cleanups.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(cleanups.withLock { $0 } == 1)
        let answer = try await Deadline.run(.seconds(60), expired: { cleanups.withLock { $0 += 1 } }, error: { Late() }, { 42 })
        #expect(answer == 42)
        #expect(cleanups.withLock { $0 } == 1)
    }
}
