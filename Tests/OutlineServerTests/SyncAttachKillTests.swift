import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import Outline

/// `burrow sync attach` killed at any point and run again: an upload of 3,000 items and a download of them,
/// each SIGKILLed after a random pause until one try finishes. However many tries it took, the outline ends
/// in step with the server (digests), nothing waits to be sent after one `sync now`, and the download holds
/// what the upload sent. Before, a cut upload left an outline the server held and this one did not know it
/// shared ("holds an outline already and this one is not empty"), and a cut download the same. Prints how many
/// kills landed with the attach under way.
@Suite(.onAThreadOfItsOwn("sync processes")) struct SyncAttachKillTests {
    @Test func anAttachKilledAnywhereFinishesWhenRunAgain() throws {
        let url = try PostgresCluster.shared().newDatabase()
        let password = try #require(URLComponents(string: url)?.password)
        let folder = TemporaryDirectory("burrow-attach-kill")
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite")
        do {
            let outline = try Outline(path: a)
            let root = try outline.root()
            try outline.perform("Add") {
                let tops = try outline.append(titles: (0..<300).map { "item \($0)" }, to: root)
                for (k, top) in tops.enumerated() { _ = try outline.append(titles: (0..<9).map { "item \(k).\($0)" }, to: top) }
            }
        }
        var rng = SeededRandom(seed: TestSeed.seed(30))
        var underWay = 0
        /// Runs `attach` on `db`, killed after a random pause, until a try exits 0; how many tries.
        func attach(_ db: String) throws -> Int {
            for attempt in 1...40 {
                let child = try BurrowProcess.start(["sync", "attach", url, "--db", db])
                // Early pauses land in start-up, later ones in the upload or download, the last ones after it.
                usleep(UInt32(attempt > 30 ? 5_000_000 : rng.below(400_000)))
                child.signal(SIGKILL)
                child.waitUntilExit()
                if child.terminationReason == .exit {
                    if child.terminationStatus != 0 {
                        // Its output was thrown away: what the same command and the status say now.
                        let again = BurrowProcess.run(["sync", "attach", url, "--db", db])
                        let status = BurrowProcess.run(["sync", "status", "--db", db])
                        Issue.record(
                            "try \(attempt) on \(db) exited \(child.terminationStatus); again: \(again.status) \(again.out) \(again.err); status: \(status.out) \(status.err)"
                        )
                    }
                    return attempt
                }
                // The sync state (one JSON value) names its phase only while an attach is under way.
                if try Store(path: db, model: OutlineModel.model).appValue("sync.state")?.contains("\"attaching\"") == true { underWay += 1 }
            }
            Issue.record("attach never finished on \(db)")
            return 0
        }
        let up = try attach(a)
        let down = try attach(b)
        print("SyncAttachKillTests: upload finished at try \(up), download at try \(down); \(underWay) kills landed with an attach under way")
        for db in [a, b] {
            let now = BurrowProcess.run(["sync", "now", "--url", url, "--db", db])
            #expect(now.status == 0, "\(db): \(now.out) \(now.err)")
            #expect(!now.out.contains("gone its own way"), "\(db): \(now.out)")
            let status = BurrowProcess.run(["sync", "status", "--db", db], environment: ["PGPASSWORD": password]).out
            #expect(status.contains("0 actions waiting") && status.contains("in step with the server"), "\(db): \(status)")
        }
        let listing = BurrowProcess.run(["ls", "--tree", "--db", a]).out
        #expect(listing.split(separator: "\n").count == 3000)
        #expect(BurrowProcess.run(["ls", "--tree", "--db", b]).out == listing)
    }
}
