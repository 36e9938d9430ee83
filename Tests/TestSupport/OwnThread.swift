import Testing

/// Runs each test of a suite with a ``ThreadExecutor`` of its own as its task executor, so that the test's
/// async work (a PostgreSQL set-up's transaction among it) does not wait for the concurrency pool, whose
/// threads (two on two cores) tests that wait on processes can all hold; and so that a test which blocks its
/// thread while it waits (polling a tmux screen, a child process, a command's task) does not take one of
/// those two threads from the tests that compute: in a full run, tests blocked so left a core idle for a
/// minute and more (2026-12-02; every suite that waits on a process or a terminal has it). A PostgreSQL client in this process
/// waiting there for a thread while its transaction holds a lock is a deadlock when the process such a test
/// waits for needs that lock: a full run hung so (2026-12-02: in-process set-ups held the lock on the role
/// `burrow_client`, which every database's set-up makes, mid-transaction; `burrow sync attach` processes
/// waited for it; the tests waiting for those processes held both of the pool's threads). A thread per test,
/// not per suite: a test that blocks its thread (a `psql` waiting for a lock) must not stop another test of
/// the suite from committing what it waits for. Unstructured tasks do not follow the preference: the
/// connection's queries under a time limit (`Deadline`) still run on the pool, where starved they time out
/// (they hold no lock while they wait).
///
/// ```swift
/// @Suite(.onAThreadOfItsOwn("server apply")) struct ServerApplyTests { … }
/// ```
public struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    let name: String

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadExecutor(name: name)
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Each test on a thread of its own, named `name` (see ``OwnThread``).
    public static func onAThreadOfItsOwn(_ name: String) -> Self { OwnThread(name: name) }
}
