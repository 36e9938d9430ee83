import Synchronization

/// A doorbell for one waiting task: `ring` from anywhere (another thread, a notification, a timer) wakes
/// the task in `wait`, or makes its next `wait` return at once; rings while nobody waits count as one.
///
/// ```swift
/// let bell = WakeSignal()
/// Thread { bell.ring() }.start()
/// let rung = await bell.wait(for: .seconds(5))   // true when rung, false when five seconds passed
/// ```
final class WakeSignal: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Bool, Never>?
        /// Numbers the waits, so that the timer of a wait that has ended cannot end a later one.
        var wait = 0
    }
    private let state = Mutex(State())

    func ring() {
        let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            guard let w = s.waiter else {
                s.rung = true
                return nil
            }
            s.waiter = nil
            return w
        }
        waiter?.resume(returning: true)
    }

    /// Whether a task is waiting now (for tests that ring during a wait, not before it).
    var hasWaiter: Bool { state.withLock { $0.waiter != nil } }

    /// Returns when rung (now or since the last wait: true) or after `timeout` (false), whichever comes
    /// first. One task waits at a time.
    @discardableResult
    func wait(for timeout: Duration) async -> Bool {
        let number = state.withLock { s in
            s.wait += 1
            return s.wait
        }
        // A sleep cancelled (the bell rang first) throws and ends nothing.
        let timer = Task { [self] in if (try? await Task.sleep(for: timeout)) != nil { expire(number) } }
        let rung = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            let now = state.withLock { s -> Bool in
                if s.rung {
                    s.rung = false
                    return true
                }
                s.waiter = c
                return false
            }
            if now { c.resume(returning: true) }
        }
        timer.cancel()
        return rung
    }

    /// Ends wait `number` with false, if it is still waiting.
    private func expire(_ number: Int) {
        let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            guard s.wait == number, let w = s.waiter else { return nil }
            s.waiter = nil
            return w
        }
        waiter?.resume(returning: false)
    }
}
