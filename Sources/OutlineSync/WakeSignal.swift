import Synchronization

/// A doorbell for one waiting task: `ring` from anywhere (another thread, a notification, a timer) wakes
/// the task in `wait`, or makes its next `wait` return at once; rings while nobody waits count as one.
///
/// ```swift
/// let bell = WakeSignal()
/// Thread { bell.ring() }.start()
/// await bell.wait(for: .seconds(5))   // rung, or five seconds passed
/// ```
final class WakeSignal: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    func ring() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let w = s.waiter else {
                s.rung = true
                return nil
            }
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }

    /// Returns when rung (now or since the last wait) or after `timeout`, whichever comes first. One task
    /// waits at a time.
    func wait(for timeout: Duration) async {
        // A sleep cancelled (the bell rang first) throws and rings nothing.
        let timer = Task { [self] in if (try? await Task.sleep(for: timeout)) != nil { ring() } }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.rung {
                    s.rung = false
                    return true
                }
                s.waiter = c
                return false
            }
            if now { c.resume() }
        }
        timer.cancel()
    }
}
