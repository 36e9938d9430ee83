import Foundation

/// A task executor with a thread of its own: async work that computes for long (a simulation whose fake
/// server never suspends) runs there, not on the concurrency pool's few threads, where it would starve other
/// tests' tasks (a sync loop waiting on a socket) for minutes.
///
/// ```swift
/// let executor = ThreadExecutor(name: "simulation")
/// try await withTaskExecutorPreference(executor) { try await simulate() }
/// executor.finish()  // or keep it for the process's life
/// ```
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `finishing` and `ended` are read and written under `condition` only.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finishing = false
    private var ended = false

    /// A thread named `name`, with a stack of `stackSize` bytes when given (a test of stack depth on a small
    /// stack reaches the depth where a recursive walk runs out with a fraction of the items 8 MiB needs).
    public init(name: String, stackSize: Int? = nil) {
        // The thread holds the executor until it ends (`finish()`).
        let thread = Thread { [self] in run() }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        if ended {
            // Nothing is to come after `finish()`; should something come, it runs rather than waits forever.
            condition.unlock()
            Thread { unowned.runSynchronously(on: self.asUnownedTaskExecutor()) }.start()
            return
        }
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs already given have run.
    public func finish() {
        condition.lock()
        finishing = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finishing { condition.wait() }
            if jobs.isEmpty {
                ended = true
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
