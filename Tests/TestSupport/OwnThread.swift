import Testing

/// Runs each test of a suite with a ``ThreadExecutor`` of the suite's as its task executor, so that the
/// suite's async work never waits for the concurrency pool, whose threads (two on two cores) tests that wait on
/// processes can all hold. A PostgreSQL client in this process waiting there for a thread while its
/// transaction holds a lock is a deadlock when the process such a test waits for needs that lock: a full run
/// hung so (2026-12-02: in-process set-ups held the lock on the role `burrow_client`, which every database's
/// set-up makes, mid-transaction; `burrow sync attach` processes waited for it; the tests waiting for those
/// processes held both of the pool's threads).
///
/// ```swift
/// @Suite(.onAThreadOfItsOwn("server apply")) struct ServerApplyTests { … }
/// ```
public struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    let executor: ThreadExecutor

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// A thread named `name` for the suite's async work (see ``OwnThread``).
    public static func onAThreadOfItsOwn(_ name: String) -> Self { OwnThread(executor: ThreadExecutor(name: name)) }
}
