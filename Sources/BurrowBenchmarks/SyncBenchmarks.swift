import Foundation
import ObjectGraph
import Outline
import OutlineServer
import OutlineSync
import Synchronization

/// Issue 18's figures, on a PostgreSQL server named by `BURROW_BENCH_PG` (a URL whose user may create
/// databases; each run gets a new one): a thousand actions queued offline sent by one `burrow sync now`
/// (beside psql applying a thousand one-row inserts with a notification each in one transaction, process
/// start included both ways), and the time from an action saved on client A (its sync running, as in an
/// outliner) to the item on the screen of client B's outliner in a pseudo-terminal (beside PostgreSQL's own
/// floor: a write, its NOTIFY reaching a listener, and the catch-up read). Runs only when named (`sync`).
struct SyncBenchmarks {
    let queued: Int
    let runs: Int
    let edits: Int
    /// The outline the idle outliners hold, and how long they are watched.
    var idleItems = 100_000
    var idleSeconds = 30.0

    func run(only: Set<String>) throws {
        guard only.contains("sync") else { return }
        guard let admin = ProcessInfo.processInfo.environment["BURROW_BENCH_PG"] else {
            print("sync: skipped (BURROW_BENCH_PG=postgres://user:password@127.0.0.1:5432/postgres, a user that may create databases)")
            return
        }
        guard let burrow = Harness.sibling("burrow") else {
            print("sync: skipped (build the outliner beside the benchmark: swift build -c release --product burrow)")
            return
        }
        // The outliner and `burrow sync now` use the address attach kept, without its password: this one.
        if let password = try ServerAddress(admin).password { setenv("PGPASSWORD", password, 1) }
        try queuedActions(burrow, admin)
        try rebasedRound(burrow, admin)
        try liveEdits(burrow, admin)
        try sharedIdle(burrow, admin)
    }

    /// A new database on the server; its URL.
    private func newDatabase(_ admin: String, _ name: String) throws -> String {
        let database = "burrow_bench_\(getpid())_\(name)"
        try psql(admin, "DROP DATABASE IF EXISTS \(database)")
        try psql(admin, "CREATE DATABASE \(database)")
        guard var url = URLComponents(string: admin) else { throw PseudoTerminal.Failure("BURROW_BENCH_PG is no URL") }
        url.path = "/" + database
        return url.string ?? admin
    }

    private func dropDatabase(_ admin: String, _ url: String) {
        if let name = URLComponents(string: url)?.path.dropFirst() { _ = try? psql(admin, "DROP DATABASE IF EXISTS \(name)") }
    }

    @discardableResult
    private func psql(_ url: String, _ sql: String) throws -> Double {
        guard let seconds = Harness.runProcess("/usr/bin/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql]) else {
            throw PseudoTerminal.Failure("psql failed: \(sql.prefix(80))")
        }
        return seconds
    }

    /// Runs `body` on the concurrency pool and waits for it (the benchmark is synchronous).
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let r: Result<T, any Error>
            do { r = .success(try await body()) } catch { r = .failure(error) }
            result.withLock { $0 = r }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Attaches the store at `path` to the server at `url` (uploading it, or downloading into it).
    private static func attach(_ path: String, _ url: String) throws {
        try blocking {
            let outline = try Outline(path: path)
            let connection = try await ServerConnection.connect(try ServerAddress(url))
            _ = try await Replicator(outline: outline).attach(try ServerAddress(url), through: connection)
            await connection.close()
        }
    }

    private func queuedActions(_ burrow: String, _ admin: String) throws {
        var ours: [Double] = [], floor: [Double] = [], memory: [Double] = []
        for run in 0..<runs {
            let url = try newDatabase(admin, "queued\(run)")
            defer { dropDatabase(admin, url) }
            let dir = Harness.scratch("sync-queued")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let path = dir + "/a.sqlite"
            do {
                let outline = try Outline(path: path)
                _ = try outline.perform("Add") { try outline.append("seed", to: try outline.root().objectID) }
            }
            try Self.attach(path, url)
            do {
                let outline = try Outline(path: path)
                let top = try outline.root().objectID
                for k in 0..<queued { _ = try outline.perform("Add") { try outline.append("queued \(k)", to: top) } }
            }
            guard let sent = Harness.runMeasured(burrow, ["sync", "now", "--db", path]) else {
                throw PseudoTerminal.Failure("burrow sync now failed")
            }
            let count = try Self.blocking {
                let c = try await ServerConnection.connect(try ServerAddress(url))
                defer { Task { await c.close() } }
                let id = try await c.outlines()[0]
                return try await c.itemCount(outline: id)?.count ?? 0
            }
            guard count == queued + 2 else { throw PseudoTerminal.Failure("the server holds \(count) items, not \(queued + 2)") }
            ours.append(sent.seconds)
            memory.append(sent.peakMiB)
            try psql(url, "CREATE TABLE floor (id serial PRIMARY KEY, title text)")
            let inserts = (0..<queued).map { "INSERT INTO floor (title) VALUES ('queued \($0)'); SELECT pg_notify('floor', '\($0)');" }
            floor.append(try psql(url, "BEGIN; " + inserts.joined(separator: " ") + " COMMIT;"))
        }
        Harness.report(
            "sync: \(queued) queued actions, burrow sync now (vs psql inserts)", ours: Harness.percentile(ours, 0.5),
            baseline: Harness.percentile(floor, 0.5), goal: "<= 1 s")
        print(String(format: "    burrow sync now peak memory: %.0f MiB (median of %d)", Harness.percentile(memory, 0.5), runs))
    }

    /// Issue 30's figure: A renamed each of 1,000 items offline while B renamed each of them too and sent
    /// that; then one `burrow sync now` on A sends its 1,000 actions and rebases on the server's 2,000 changes
    /// (B's, then its own as the server applied them), all 1,000 items touched by both.
    private func rebasedRound(_ burrow: String, _ admin: String) throws {
        var ours: [Double] = [], floor: [Double] = [], memory: [Double] = []
        for run in 0..<runs {
            let url = try newDatabase(admin, "rebase\(run)")
            defer { dropDatabase(admin, url) }
            let dir = Harness.scratch("sync-rebase")
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let a = dir + "/a.sqlite", b = dir + "/b.sqlite"
            do {
                let outline = try Outline(path: a)
                _ = try outline.perform("Add") { try outline.append(titles: (0..<queued).map { "item \($0)" }, to: try outline.root().objectID) }
            }
            try Self.attach(a, url)
            try Self.attach(b, url)
            for (path, who) in [(a, "A"), (b, "B")] {
                let outline = try Outline(path: path)
                let rows = try outline.subtree(under: try outline.root())
                for (k, row) in rows.enumerated() { try outline.perform("Rename") { try outline.rename(row.id, to: "\(who) \(k)") } }
            }
            guard Harness.runMeasured(burrow, ["sync", "now", "--db", b]) != nil else { throw PseudoTerminal.Failure("burrow sync now on B failed") }
            guard let round = Harness.runMeasured(burrow, ["sync", "now", "--db", a]) else {
                throw PseudoTerminal.Failure("burrow sync now on A failed")
            }
            // A's renames went up last: the server, and A, have them all.
            let titles = try Self.blocking {
                let c = try await ServerConnection.connect(try ServerAddress(url))
                defer { Task { await c.close() } }
                let id = try await c.outlines()[0]
                return try await c.items(outline: id).items.map(\.title)
            }
            let local = try Outline(path: a)
            let here = try local.subtree(under: try local.root()).map(\.title)
            guard titles.filter({ $0.hasPrefix("A ") }).count == queued, Set(here) == Set(titles.filter { !$0.isEmpty }) else {
                throw PseudoTerminal.Failure("A and the server differ after the rebase")
            }
            ours.append(round.seconds)
            memory.append(round.peakMiB)
            try psql(url, "CREATE TABLE floor (id serial PRIMARY KEY, title text)")
            let inserts = (0..<queued).map { "INSERT INTO floor (title) VALUES ('queued \($0)'); SELECT pg_notify('floor', '\($0)');" }
            floor.append(try psql(url, "BEGIN; " + inserts.joined(separator: " ") + " COMMIT;"))
        }
        Harness.report(
            "sync: \(queued) pending actions rebased over \(queued) server changes, burrow sync now (vs psql inserts)",
            ours: Harness.percentile(ours, 0.5), baseline: Harness.percentile(floor, 0.5), goal: "<= 1 s")
        print(String(format: "    burrow sync now peak memory: %.0f MiB (median of %d)", Harness.percentile(memory, 0.5), runs))
    }

    private func liveEdits(_ burrow: String, _ admin: String) throws {
        let url = try newDatabase(admin, "live")
        defer { dropDatabase(admin, url) }
        let dir = Harness.scratch("sync-live")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = dir + "/a.sqlite", b = dir + "/b.sqlite"
        do {
            let outline = try Outline(path: a)
            _ = try outline.perform("Add") { try outline.append("seed", to: try outline.root().objectID) }
        }
        try Self.attach(a, url)
        try Self.attach(b, url)
        // B: the outliner in a pseudo-terminal (it adds "First" to its store before it starts, then syncs).
        let outliner = try LiveBenchmarks.Outliner(burrow: burrow, dir: dir, name: "b", watches: true)
        defer { outliner.pty.stop() }
        guard outliner.wait(timeout: 30, until: { $0.shows("synced") }) != nil else {
            throw PseudoTerminal.Failure("B never synced:\n" + outliner.screen.rows.joined(separator: "\n"))
        }
        // A: its sync running in this process, as in an outliner; actions saved by a connection of their own.
        let sync = SyncLoop(path: a, url: url)
        sync.start()
        defer { sync.stop() }
        let editor = try Outline(path: a)
        let top = try editor.root().objectID
        var latencies: [Double] = []
        for k in 0..<edits {
            let title = "Edit \(k)"
            let start = DispatchTime.now().uptimeNanoseconds
            let id = try editor.perform("Add") { try editor.append(title, to: top) }
            guard let seen = outliner.wait(timeout: 10, until: { $0.shows(title) }) else {
                throw PseudoTerminal.Failure("\(title) never reached B:\n" + outliner.screen.rows.joined(separator: "\n"))
            }
            latencies.append(Double(seen - start) / 1e9)
            // Taken out again (not timed), so the next one is on B's first screen too.
            try editor.perform("Delete") { try editor.delete(id) }
            guard outliner.wait(timeout: 10, until: { !$0.shows(title) }) != nil else { throw PseudoTerminal.Failure("\(title) stayed on B") }
        }
        let floor = try Self.floor(url, edits)
        for p in [0.5, 0.99] {
            Harness.report(
                "sync: action on A to B's screen, p\(Int(p * 100)) (vs write+NOTIFY+read)", ours: Harness.percentile(latencies, p),
                baseline: Harness.percentile(floor, p), goal: p == 0.99 ? "p99 <= 50 ms" : "")
        }
        print(String(format: "    max %.2f ms over %d actions", (latencies.max() ?? 0) * 1000, edits))
    }

    /// Issue 30's "an idle shared outliner near 0 CPU": two outliners on copies of one outline of
    /// `idleItems` items, one shared (its sync's round every 5 s: the server's changes and digest, the local
    /// digest compared), one not, CPU time over the same `idleSeconds` once both have settled.
    private func sharedIdle(_ burrow: String, _ admin: String) throws {
        let url = try newDatabase(admin, "idle")
        defer { dropDatabase(admin, url) }
        let dir = Harness.scratch("sync-idle")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let shared = dir + "/shared.sqlite", alone = dir + "/alone.sqlite"
        for path in [shared, alone] {
            let outline = try Outline(path: path)
            let lists = (0..<(idleItems / 100)).map { k in OutlineNode("List \(k)", children: (0..<99).map { OutlineNode("Item \(k).\($0)") }) }
            _ = try outline.perform("Import") { try outline.add(lists, under: try outline.root().objectID) }
        }
        try Self.attach(shared, url)
        let sharing = try LiveBenchmarks.Outliner(burrow: burrow, dir: dir, name: "shared", watches: true)
        defer { sharing.pty.stop() }
        let single = try LiveBenchmarks.Outliner(burrow: burrow, dir: dir, name: "alone", watches: true)
        defer { single.pty.stop() }
        guard sharing.wait(timeout: 60, until: { $0.shows("synced") }) != nil else {
            throw PseudoTerminal.Failure("the shared outliner never synced:\n" + sharing.screen.rows.joined(separator: "\n"))
        }
        // Past the first rounds (the add each outliner's set-up made goes up, and is checked).
        usleep(12_000_000)
        let before = (sharing.cpuSeconds, single.cpuSeconds)
        usleep(useconds_t(idleSeconds * 1e6))
        let after = (sharing.cpuSeconds, single.cpuSeconds)
        Harness.report(
            String(format: "sync: idle CPU over %.0f s, %d items (shared vs not)", idleSeconds, idleItems), ours: after.0 - before.0,
            baseline: after.1 - before.1, goal: "~0 (CPU time, not wall time)")
    }

    /// PostgreSQL's own floor for a change reaching another client, `count` times: `burrow.apply` of an
    /// insert (its write and its NOTIFY) on one connection, the notification arriving on a listening one,
    /// then the read of the change after the last number.
    private static func floor(_ url: String, _ count: Int) throws -> [Double] {
        try blocking {
            let address = try ServerAddress(url)
            let writer = try await ServerConnection.connect(address), reader = try await ServerConnection.connect(address)
            let listener = try await ServerConnection.connect(address)
            let outline = try await writer.outlines()[0]
            let rung = AsyncStream<Int64>.makeStream()
            let ready = AsyncStream<Void>.makeStream()
            let listening = Task {
                try await listener.listen(outline, ready: { ready.continuation.yield() }) { seq in
                    rung.continuation.yield(seq)
                    return true
                }
            }
            var readyIterator = ready.stream.makeAsyncIterator()
            _ = await readyIterator.next()
            var rings = rung.stream.makeAsyncIterator()
            var seq = try await reader.changes(outline: outline, after: 0, limit: 100_000).last?.seq ?? 0
            var times: [Double] = []
            for k in 0..<count {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await writer.apply(
                    .insert(ServerItem(id: UUID(), parent: outline, ord: "z\(k)", title: "floor \(k)")), outline: outline, opID: UUID(),
                    client: "floor")
                var heard: Int64 = 0
                while heard <= seq { heard = await rings.next() ?? .max }
                let changes = try await reader.changes(outline: outline, after: seq)
                seq = changes.last?.seq ?? heard
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            listening.cancel()
            for c in [writer, reader, listener] { await c.close() }
            return times
        }
    }
}
