import Synchronization

/// Runs work that may never end (a query to a server that stopped answering) with a time limit: past it,
/// the caller gets `error()` at once and `expired` runs (it closes the connection, which ends the work);
/// the work's own answer, if it ever comes, is dropped.
///
/// ```swift
/// let rows = try await Deadline.run(.seconds(30), expired: { await connection.close() }, error: { Timeout() }) {
///     try await query()
/// }
/// ```
enum Deadline {
    /// The caller's continuation, resumed by whichever comes first, the answer or the deadline.
    private final class Waiter<T: Sendable>: Sendable {
        private let slot = Mutex<CheckedContinuation<T, any Error>?>(nil)

        func set(_ c: CheckedContinuation<T, any Error>) { slot.withLock { $0 = c } }

        /// False when the other came first.
        func finish(_ result: Result<T, any Error>) -> Bool {
            guard
                let c = slot.withLock({ s -> CheckedContinuation<T, any Error>? in
                    defer { s = nil }
                    return s
                })
            else { return false }
            c.resume(with: result)
            return true
        }
    }

    static func run<T: Sendable>(
        _ limit: Duration, expired: @escaping @Sendable () async -> Void, error: @escaping @Sendable () -> any Error,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let waiter = Waiter<T>()
        return try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            waiter.set(c)
            let timer = Task {
                // A sleep cancelled (the work finished first) throws and ends the timer.
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                if waiter.finish(.failure(error())) { await expired() }
            }
            Task {
                let result: Result<T, any Error>
                do { result = .success(try await body()) } catch { result = .failure(error) }
                timer.cancel()
                _ = waiter.finish(result)
            }
        }
    }
}
