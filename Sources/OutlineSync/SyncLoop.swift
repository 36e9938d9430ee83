import Foundation
import ObjectGraph
import Outline
import OutlineServer
import Synchronization

/// Keeps a shared outline in step with its server for as long as a program runs (the outliner): a round
/// (``Replicator/syncOnce(through:)``) whenever this store's files change (an action saved by any process
/// here), whenever the server's doorbell rings (another client's change), and every `fallback` besides,
/// because a notification is lost with its connection. Offline it keeps trying, more slowly each time, and
/// says so in ``state``; nothing is lost meanwhile, as every action waits in the outbox.
///
/// It works on its own connection to the store (its own ``Outline``), so what it applies reaches the
/// program's views the way another process's commits do.
///
/// ```swift
/// let sync = SyncLoop(path: databasePath)
/// sync.start()
/// sync.state.pending   // 2: two actions not acknowledged yet
/// sync.stop()
/// ```
public final class SyncLoop: Sendable {
    /// What the program may show of the sharing.
    public struct State: Equatable, Sendable {
        /// True once a round reached the server, until a connection fails.
        public var online = false
        /// Actions saved here and not yet acknowledged by the server.
        public var pending = 0
        /// Why the server cannot be reached or the sharing stopped, while that lasts.
        public var problem: String?
        /// Rounds completed since the start.
        public var rounds = 0
        /// True once the loop has ended (stopped, or the outline is no longer shared).
        public var ended = false
    }

    private struct Shared {
        var state = State()
        var notes: [String] = []
        var stopped = false
    }

    private let path: String
    private let url: String?
    private let fallback: Duration
    /// Where the loop's tasks run: the concurrency pool when nil.
    private let executor: (any TaskExecutor)?
    private let shared = Mutex(Shared())
    private let bell = WakeSignal()
    private let finished = DispatchSemaphore(value: 0)
    /// Wakes the watcher thread at `stop` (-1 when no pipe could be made: it then wakes every 250 ms to look).
    private let stopPipe: (read: Int32, write: Int32)

    /// The loop for the outline at `path`, with the server's address as attached (the password from
    /// `PGPASSWORD` or `~/.pgpass`) or `url` instead. A program whose other work may hold the concurrency
    /// pool's few threads for long (a test suite running blocking tests beside it) gives the loop an
    /// `executor` of its own, so that going offline or a doorbell is not noticed a minute late.
    public init(path: String, url: String? = nil, fallback: Duration = .seconds(5), executor: (any TaskExecutor)? = nil) {
        self.path = path
        self.url = url
        self.fallback = fallback
        self.executor = executor
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            // Not inherited by a note editor the outliner starts.
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            stopPipe = (fds[0], fds[1])
        } else {
            stopPipe = (-1, -1)
        }
    }

    deinit {
        // The watcher thread holds the loop until it has left, so both ends are free here.
        for fd in [stopPipe.read, stopPipe.write] where fd >= 0 { close(fd) }
    }

    /// What the program may show now.
    public var state: State { shared.withLock { $0.state } }

    /// The messages of actions the server refused or put under "Recovered" since the last call.
    public func takeNotes() -> [String] {
        shared.withLock { s in
            defer { s.notes = [] }
            return s.notes
        }
    }

    /// Asks for a round now (after an action, for one).
    public func poke() { bell.ring() }

    /// Starts the loop and its watcher of the store's files.
    public func start() {
        Task.detached(executorPreference: executor) { [self] in
            await run()
            shared.withLock { $0.state.ended = true }
            finished.signal()
        }
        let path = self.path
        let stopRead = stopPipe.read
        let watching = Thread { [self] in
            guard let watcher = StoreWatcher(path: path) else { return }
            // Waits on the store's files and on `stop`'s byte, with no timeout: an idle outliner stays asleep.
            var fds = [
                pollfd(fd: watcher.fileDescriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)
            ]
            while !isStopped {
                guard Glibc.poll(&fds, 2, stopRead >= 0 ? -1 : 250) > 0 else { continue }
                if fds[0].revents != 0, watcher.drain() { bell.ring() }
            }
        }
        watching.name = "burrow sync watcher"
        watching.start()
    }

    /// Ends the loop: waits up to `grace` for a round in progress to finish (its answer is then kept).
    public func stop(grace: Duration = .seconds(2)) {
        shared.withLock { $0.stopped = true }
        bell.ring()
        if stopPipe.write >= 0 {
            var byte: UInt8 = 1
            _ = Glibc.write(stopPipe.write, &byte, 1)
        }
        let ms = Int(grace.components.seconds) * 1000 + Int(grace.components.attoseconds / 1_000_000_000_000_000)
        _ = finished.wait(timeout: .now() + .milliseconds(ms))
    }

    private var isStopped: Bool { shared.withLock { $0.stopped } }

    private func run() async {
        let outline: Outline
        do {
            outline = try Outline(path: path)
            _ = try outline.root()
        } catch {
            return publish { $0.problem = "cannot open the outline: \(error)" }
        }
        let sync = Replicator(outline: outline)
        var backoff: Duration = .milliseconds(500)
        while !isStopped {
            // Only for the status line and the log: a count that cannot be read is shown as none waiting.
            let pending = (try? outline.context.store.outboxCount()) ?? 0
            publish { $0.pending = pending }
            let status: Replicator.Status
            do {
                status = try sync.status()
            } catch {
                // The file could not be read this time (busy, full disk): tried again, never taken for a detach.
                await pause(after: error, &backoff)
                continue
            }
            guard let stored = status.address, let id = status.outline else {
                return publish { $0 = State(online: false, pending: pending, problem: "no longer shared", rounds: $0.rounds) }
            }
            let connection: ServerConnection
            let address: ServerAddress
            do {
                address = try ServerAddress(url ?? stored)
                connection = try await ServerConnection.connect(address, timeout: .seconds(3))
            } catch {
                await pause(after: error, &backoff)
                continue
            }
            backoff = .milliseconds(500)
            let listener = Task.detached(executorPreference: executor) { [self] in await listen(address, id) }
            do {
                while !isStopped {
                    try outline.context.store.poll()
                    // A server that stops answering fails the round (`ServerConnection.answerLimit`).
                    let round = try await sync.syncOnce(through: connection)
                    let pending = try outline.context.store.outboxCount()
                    publish { s in
                        s.online = true
                        s.problem = nil
                        s.pending = pending
                        s.rounds += 1
                    }
                    var notes = round.notes
                    if let why = round.repaired { notes.append("This outline had gone its own way (\(why)): it is now the server's outline, whole") }
                    if !notes.isEmpty { shared.withLock { $0.notes += notes } }
                    await bell.wait(for: fallback)
                }
            } catch {
                wentOffline(error)
            }
            listener.cancel()
            await connection.close()
            if !isStopped { await bell.wait(for: backoff) }
        }
    }

    /// Rings the bell at each of the server's notifications for outline `id`, on a connection of its own,
    /// until cancelled or the connection fails (the rounds' timer then still brings the changes).
    private func listen(_ address: ServerAddress, _ id: UUID) async {
        // Listening only wakes rounds early: without it the rounds' timer brings the changes.
        guard let connection = try? await ServerConnection.connect(address, timeout: .seconds(3)) else { return }
        await withTaskCancellationHandler {
            // Listening from now on: one round more catches what arrived before.
            _ = try? await connection.listen(id, ready: { [self] in bell.ring() }) { [self] _ in
                bell.ring()
                return !isStopped
            }
        } onCancel: {
            Task { await connection.close() }
        }
        await connection.close()
    }

    private func wentOffline(_ error: any Error) {
        publish {
            $0.online = false; $0.problem = "\(error)"
        }
    }

    /// After a failure: says so, then waits (or a ring ends the wait), each time twice as long up to 10 s.
    private func pause(after error: any Error, _ backoff: inout Duration) async {
        wentOffline(error)
        await bell.wait(for: backoff)
        backoff = min(backoff * 2, .seconds(10))
    }

    private func publish(_ change: (inout State) -> Void) {
        shared.withLock { change(&$0.state) }
    }
}
