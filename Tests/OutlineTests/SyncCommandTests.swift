import Foundation
import TestSupport
import Testing

/// `burrow sync` as a user runs it, real processes on two outline files and the throwaway PostgreSQL
/// cluster: attach uploads and downloads, an edit on one reaches the other after `sync now` on each, status
/// says what waits, the password is never printed nor kept in the outline, a second outline with items of
/// its own is refused, and detach stops sharing with the items kept.
@Suite struct SyncCommandTests {
    @Test func twoOutlinesShareThroughTheCommands() throws {
        let url = try PostgresCluster.shared().newDatabase()
        let password = try #require(URLComponents(string: url)?.password)
        let folder = TemporaryDirectory("burrow-sync-cli")
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite"), c = folder.path("c.sqlite")
        func burrow(_ args: String..., db: String) -> BurrowProcess.Result { BurrowProcess.run(args + ["--db", db]) }

        #expect(burrow("add", "milk", db: a).status == 0)
        #expect(burrow("add", "bread", db: a).status == 0)
        let up = burrow("sync", "attach", url, db: a)
        #expect(up.status == 0 && up.out.hasPrefix("Shared 2 items to postgres://"), "\(up.out) \(up.err)")
        let down = burrow("sync", "attach", url, db: b)
        #expect(down.status == 0 && down.out.hasPrefix("Downloaded 2 items"), "\(down.out) \(down.err)")
        #expect(burrow("export", "--format", "json", db: b).out == burrow("export", "--format", "json", db: a).out)

        #expect(burrow("rename", "milk", "oat milk", db: a).status == 0)
        #expect(burrow("add", "eggs", db: a).status == 0)
        let status = burrow("sync", "status", db: a)
        #expect(status.out.contains("2 actions waiting to be sent") && !status.out.contains(password), "\(status.out)")
        let now = BurrowProcess.run(["sync", "now", "--url", url, "--db", a])
        #expect(now.status == 0 && now.out.hasPrefix("Sent 2 changes"), "\(now.out) \(now.err)")
        let received = BurrowProcess.run(["sync", "now", "--url", url, "--db", b])
        #expect(received.status == 0, "\(received.err)")
        #expect(burrow("ls", db: b).out == "[ ] oat milk\n[ ] bread\n[ ] eggs\n")

        // The password is in no output and not in the outline's files.
        for file in [a, b] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file) holds the password")
        }
        #expect(![up, down, now, received].contains { $0.out.contains(password) || $0.err.contains(password) })

        #expect(burrow("add", "c's own", db: c).status == 0)
        let refused = burrow("sync", "attach", url, db: c)
        #expect(refused.status == 1 && refused.err.contains("holds an outline already"), "\(refused.err)")
        #expect(burrow("sync", "status", db: c).out == "not shared\n")

        let off = burrow("sync", "detach", db: b)
        #expect(off.status == 0 && off.out.hasPrefix("No longer shared"), "\(off.err)")
        #expect(burrow("sync", "status", db: b).out == "not shared\n")
        #expect(burrow("ls", db: b).out == "[ ] oat milk\n[ ] bread\n[ ] eggs\n")
    }
}
