import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// Jepsen-style, with real processes: three outline files attached to one server, three threads each
/// running 120 random `burrow` commands on its own file at once (333 under `BURROW_TEST_SCALE=big`) (add, rename, done, move — cross-moves
/// of items the others move too — rm, undo), with `burrow sync now` between them that sometimes cannot
/// reach the server and sometimes is SIGKILLed part way, while the server itself is stopped (as a crash:
/// `pg_ctl -m immediate`) and started again every few seconds. After the network heals and every client syncs:
/// nothing waits to be sent anywhere, no item a change put on the server is missing unless a later change
/// deleted it, the three outlines and a fourth downloaded fresh from the server are alike, and `burrow check` is clean everywhere (no cycle, no orphan, counts right). (It found a client
/// ending without an item it had deleted locally that the server kept, and another with an item under the
/// top for want of a parent it had deleted; now such an outline is replaced by the server's whole one.)
/// Two seeds; a tenth of the commands move the three seed items across each other (crossing moves the server
/// refuses as cycles); any repair fails it, and every outline's digest must be the server's at the end.
/// Over 10 s: a thousand real processes (480 at CI's size, both seeds) and a server crashed and started again every
/// few seconds. It prints how often the cases it is for happened (outages, killed syncs, refused moves).
@Suite(.onAThreadOfItsOwn("sync processes")) struct SyncJepsenTests {
    @Test(arguments: TestSeed.seeds([7, 8]))
    func threeClientsRandomOperationsCutsAndKillsEndAlike(seed: UInt64) throws {
        // A cluster of its own: it is stopped and started again under the clients.
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let url = try cluster.newDatabase()
        let nowhere = url.replacingOccurrences(of: #":\d+/"#, with: ":1/", options: .regularExpression)
        let folder = TemporaryDirectory("burrow-jepsen")
        let dbs = (0..<3).map { folder.path("c\($0).sqlite") }
        func burrow(_ args: [String], _ db: String) -> BurrowProcess.Result { BurrowProcess.run(args + ["--db", db]) }
        #expect(burrow(["add", "seed 1", "seed 2", "seed 3"], dbs[0]).status == 0)
        #expect(burrow(["sync", "attach", url], dbs[0]).status == 0)
        for db in dbs.dropFirst() { #expect(burrow(["sync", "attach", url], db).status == 0) }

        let failures = Mutex<[String]>([])
        // How often each case it is for happened: printed, since a run where none did proves little.
        let tally = Mutex<[String: Int]>([:])
        @Sendable func count(_ what: String) { tally.withLock { $0[what, default: 0] += 1 } }
        let commands = TestScale.size(ci: 80, big: 333)
        let clientsDone = Atomic<Int>(0)
        let outages = Atomic<Int>(0)
        let chaos = Thread {
            var rng = SeededRandom(seed: seed &+ 99)
            while clientsDone.load(ordering: .acquiring) < 3 {
                usleep(UInt32(1_000_000 + rng.below(2_000_000)))
                guard clientsDone.load(ordering: .acquiring) < 3, (try? cluster.stop()) != nil else { continue }
                outages.add(1, ordering: .relaxed)
                usleep(UInt32(200_000 + rng.below(1_000_000)))
                do { try cluster.restart() } catch { failures.withLock { $0.append("the server did not start again: \(error)") } }
            }
        }
        chaos.start()
        DispatchQueue.concurrentPerform(iterations: 3) { client in
            defer { clientsDone.add(1, ordering: .releasing) }
            var rng = SeededRandom(seed: seed &+ UInt64(client) &* 1_000_003)
            let db = dbs[client]
            var known: [String] = []
            // The three seed items (never renamed): the ones all clients move across each other.
            var seeds: [String] = []
            func refresh() {
                let ls = BurrowProcess.run(["ls", "--tree", "--ids", "--db", db]).out
                let lines = ls.split(separator: "\n")
                func id(_ line: Substring) -> String? { line.split(separator: " ").first { $0.hasPrefix("#") }.map(String.init) }
                known = lines.compactMap(id)
                seeds = lines.filter { $0.contains(" seed ") }.compactMap(id)
            }
            refresh()
            for n in 0..<commands {
                if n % 25 == 0 { refresh() }
                let some = rng.pick(known) ?? "#1"
                let other = rng.pick(known) ?? "#1"
                let roll = rng.below(100)
                var args: [String]
                switch roll {
                case 0..<25: args = rng.below(2) == 0 ? ["add", "c\(client)-\(n)"] : ["add", "c\(client)-\(n)", "--under", some]
                case 25..<38: args = ["rename", rng.pick(known.filter { !seeds.contains($0) }) ?? some, "r\(client)-\(n)"]
                case 38..<45: args = ["done", some]
                case 45..<57: args = ["mv", some, "--to", other]
                case 57..<63: args = ["rm", rng.pick(known.filter { !seeds.contains($0) }) ?? some]
                case 63..<70: args = ["undo"]
                case 70..<80:
                    // Cross-moves: every client moves the seed items under each other, so that one client's
                    // move meets another's the other way round at the server.
                    // Half of them put one back at the top, so that the next ones are not refused here.
                    let a = rng.pick(seeds) ?? some, b = rng.pick(seeds) ?? other
                    args = ["mv", a, "--to", rng.below(2) == 0 ? "/" : b]
                    count("seed moves")
                default:
                    let kind = rng.below(10)
                    if kind < 6 {
                        args = ["sync", "now", "--url", url]
                    } else if kind < 8 {
                        args = ["sync", "now", "--url", nowhere]
                    } else {
                        // Killed part way: its answers lost, its outbox half sent.
                        if let p = try? BurrowProcess.start(["sync", "now", "--url", url, "--db", db]) {
                            usleep(UInt32(rng.below(300_000)))
                            p.signal(SIGKILL)
                            p.waitUntilExit()
                            if p.terminationReason == .uncaughtSignal { count("syncs killed") }
                        }
                        continue
                    }
                }
                let r = BurrowProcess.run(args + ["--db", db])
                if args.first == "sync" { count(r.status == 0 ? "syncs through" : "syncs refused or cut off") }
                if r.err.contains("it would go inside itself") { count("moves refused by the server as cycles") }
                // A repair hides what went wrong: the digests must agree without one.
                if r.out.contains("gone its own way") {
                    failures.withLock { $0.append("client \(client) had to be repaired: \(r.out)") }
                }
                if r.status == 1 && r.err.contains("into itself") { count("moves into itself refused") }
                if args.first == "mv" && r.status == 0 { count("moves") }
                if r.out.contains("Recovered") || r.err.contains("Recovered") { count("sent under Recovered") }
                // Refusals (a gone item, a move into itself, nothing to undo, no server) exit 1; anything
                // else is a crash.
                if r.status != 0 && r.status != 1 {
                    failures.withLock { $0.append("client \(client): burrow \(args.joined(separator: " ")) exited \(r.status): \(r.err)") }
                }
                if args.first == "add", let id = r.out.split(separator: " ").first(where: { $0.hasPrefix("#") }) { known.append(String(id)) }
            }
        }
        #expect(failures.withLock { $0 } == [], "\(rng(seed).note)")
        // The chaos thread ends within one pause and leaves the server running.
        Poll.until(timeout: .seconds(60)) { chaos.isFinished }
        #expect(outages.load(ordering: .relaxed) > 0, "the server was stopped at least once")
        print(
            "SyncJepsenTests: \(commands) commands a client, \(outages.load(ordering: .relaxed)) outages; "
                + tally.withLock { $0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))

        // The network heals: every client syncs until nothing moves.
        for _ in 0..<3 {
            for db in dbs {
                let r = burrow(["sync", "now", "--url", url], db)
                #expect(r.status == 0, "\(r.err)")
                #expect(!r.out.contains("gone its own way"), "\(r.out)")
            }
        }
        // No acknowledged operation lost, across the server's crashes: every item a change put on the server is
        // there still, unless a later change deleted it; every operation answered is kept with its answer.
        let database = String(url.split(separator: "/").last!.split(separator: "?")[0])
        let lost = try cluster.sql(
            """
            SELECT count(*) FROM burrow.change c, jsonb_array_elements(c.body->'rows') r
            WHERE c.body->>'kind' = 'upsert'
              AND NOT EXISTS (SELECT 1 FROM burrow.item i WHERE i.outline = c.outline AND i.id = (r->>'id')::uuid)
              AND NOT EXISTS (SELECT 1 FROM burrow.change d, jsonb_array_elements_text(d.body->'ids') x
                              WHERE d.outline = c.outline AND d.body->>'kind' = 'delete' AND d.seq > c.seq AND x::uuid = (r->>'id')::uuid)
            """, database: database)
        #expect(lost.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "items acknowledged and then missing: \(lost)")
        let unanswered = try cluster.sql(
            "SELECT count(*) FROM burrow.change c WHERE NOT EXISTS (SELECT 1 FROM burrow.op o WHERE o.outline = c.outline AND o.id = c.op_id)",
            database: database)
        #expect(unanswered.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let fresh = folder.path("fresh.sqlite")
        #expect(burrow(["sync", "attach", url], fresh).status == 0)
        let outlines = (dbs + [fresh]).map { burrow(["ls", "--tree"], $0).out }
        #expect(Set(outlines).count == 1, "the outlines differ; \(rng(seed).note)")
        #expect(outlines[0].split(separator: "\n").count > 3)
        for db in dbs + [fresh] {
            // `status` reaches the server at the address attach kept, without its password.
            let password = URLComponents(string: url)?.password ?? ""
            let status = BurrowProcess.run(["sync", "status", "--db", db], environment: ["PGPASSWORD": password]).out
            #expect(status.contains("0 actions waiting"), "\(db)")
            // The digests: every item's place, key, title, note and done, not only what `ls` shows.
            #expect(status.contains("in step with the server"), "\(db): \(status)")
            let check = burrow(["check"], db)
            #expect(check.status == 0, "\(db): \(check.out) \(check.err)")
        }
    }

    private func rng(_ seed: UInt64) -> SeededRandom { SeededRandom(seed: seed) }
}
