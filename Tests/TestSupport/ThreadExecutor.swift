import Foundation

/// A task executor with a thread of its own: async work that computes for long (a simulation whose fake
/// server never suspends) runs there, not on the concurrency pool's few threads, where it would starve other
/// tests' tasks (a sync loop waiting on a socket) for minutes.
///
/// ```swift
/// let executor = ThreadExecutor(name: "simulation")
/// try await withTaskExecutorPreference(executor) { try await simulate() }
/// ```
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is read and written under `condition` only.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    public init(name: String) {
        let thread = Thread { [unowned self] in run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
