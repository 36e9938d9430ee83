import Foundation
import TestSupport
import Testing

/// `burrow sync` as a user runs it, real processes on two outline files and the throwaway PostgreSQL
/// cluster: attach uploads and downloads, an edit on one reaches the other after `sync now` on each, status
/// says what waits, the password is never printed nor kept in the outline, a second outline with items of
/// its own is refused, and detach stops sharing with the items kept.
@Suite(.onAThreadOfItsOwn("sync processes")) struct SyncCommandTests {
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

extension SyncCommandTests {
    /// Actions saved while the server cannot be reached wait in the outline, and arrive in order once it can;
    /// a `burrow sync now` killed with SIGKILL part way (its answers lost, its outbox half sent) loses and
    /// repeats nothing when run again: the other outline ends equal, with each item once.
    @Test func offlineActionsAndAKilledSyncLoseAndRepeatNothing() throws {
        let url = try PostgresCluster.shared().newDatabase()
        let folder = TemporaryDirectory("burrow-sync-kill")
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite")
        func burrow(_ args: [String], db: String) -> BurrowProcess.Result { BurrowProcess.run(args + ["--db", db]) }
        #expect(burrow(["add", "first"], db: a).status == 0)
        #expect(burrow(["sync", "attach", url], db: a).status == 0)
        #expect(burrow(["sync", "attach", url], db: b).status == 0)

        // Offline: nothing listens on port 1.
        let nowhere = url.replacingOccurrences(of: #":\d+/"#, with: ":1/", options: .regularExpression)
        for k in 0..<5 { #expect(burrow(["add", "offline \(k)"], db: a).status == 0) }
        let failed = burrow(["sync", "now", "--url", nowhere], db: a)
        #expect(failed.status == 1 && failed.err.contains("cannot reach"), "\(failed.err)")
        #expect(burrow(["sync", "status"], db: a).out.contains("5 actions waiting"))
        #expect(burrow(["sync", "now", "--url", url], db: a).status == 0)
        #expect(burrow(["sync", "now", "--url", url], db: b).status == 0)
        #expect(burrow(["ls"], db: b).out == "[ ] first\n" + (0..<5).map { "[ ] offline \($0)\n" }.joined())

        // Many actions, a sync killed part way, then run again.
        let titles = (0..<300).map { "item \($0)" }
        #expect(burrow(["add"] + titles, db: a).status == 0)
        for k in stride(from: 0, to: 60, by: 3) { #expect(burrow(["rename", "item \(k)", "renamed \(k)"], db: a).status == 0) }
        let sync = try BurrowProcess.start(["sync", "now", "--url", url, "--db", a])
        usleep(400_000)
        sync.signal(SIGKILL)
        sync.waitUntilExit()
        #expect(burrow(["check"], db: a).status == 0)
        let again = burrow(["sync", "now", "--url", url], db: a)
        #expect(again.status == 0, "\(again.err)")
        #expect(burrow(["sync", "now", "--url", url], db: b).status == 0)
        let mine = burrow(["ls"], db: a).out, theirs = burrow(["ls"], db: b).out
        #expect(theirs == mine)
        #expect(theirs.split(separator: "\n").count == 1 + 5 + 300, "each item once")
        #expect(burrow(["sync", "status"], db: a).out.contains("0 actions waiting"))
        #expect(burrow(["check"], db: b).status == 0)
    }
}

extension SyncCommandTests {
    /// The config file's `sync-url` gives the password, but only from a file its owner alone may read; a URL
    /// of a server that does not hold the attached outline is refused and changes nothing (it would have
    /// looked like an empty outline to copy).
    @Test func theConfigsURLOnlyFromAPrivateFileAndNeverAnotherServersOutline() throws {
        let cluster = try PostgresCluster.shared()
        let url = try cluster.newDatabase(), elsewhere = try cluster.newDatabase()
        let folder = TemporaryDirectory("burrow-sync-config")
        let a = folder.path("a.sqlite"), config = folder.path("config/burrow/config.toml")
        try FileManager.default.createDirectory(atPath: folder.path("config/burrow"), withIntermediateDirectories: true)
        try "sync-url = \"\(url)\"\n".write(toFile: config, atomically: false, encoding: .utf8)
        func burrow(_ args: String...) -> BurrowProcess.Result {
            BurrowProcess.run(
                tool: "/usr/bin/env", ["-u", "PGPASSWORD", "XDG_CONFIG_HOME=" + folder.path("config"), BurrowProcess.path] + args + ["--db", a])
        }
        #expect(burrow("add", "milk").status == 0)
        #expect(burrow("sync", "attach", url).status == 0)
        #expect(burrow("add", "bread").status == 0)

        chmod(config, 0o644)
        let refused = burrow("sync", "now")
        #expect(refused.status == 1, "the kept address has no password, and the config's is not used: \(refused.out)")
        #expect(burrow("sync", "status").out.contains("1 action waiting"))
        let check = BurrowProcess.run(tool: "/usr/bin/env", ["XDG_CONFIG_HOME=" + folder.path("config"), BurrowProcess.path, "config", "check"])
        #expect(check.status == 1 && (check.out + check.err).contains("sync-url is not used: others may read this file (mode 644)"), "\(check)")

        chmod(config, 0o600)
        let sent = burrow("sync", "now")
        #expect(sent.status == 0 && sent.out.hasPrefix("Sent 1 change"), "\(sent.out) \(sent.err)")
        #expect(burrow("sync", "status").out.contains("0 actions waiting"))

        #expect(BurrowProcess.run(["sync", "attach", elsewhere, "--db", folder.path("other.sqlite")]).status == 0)
        let wrong = burrow("sync", "now", "--url", elsewhere)
        #expect(wrong.status == 1 && wrong.err.contains("does not hold this outline"), "\(wrong.err)")
        #expect(burrow("ls").out == "[ ] milk\n[ ] bread\n")
        #expect(![refused, sent, wrong].contains { $0.out.contains(cluster.adminPassword) || $0.err.contains(cluster.adminPassword) })
    }
}

extension SyncCommandTests {
    /// Issue 30's script, as a user types it: X, Y, Z shared by A and B; A, offline, moves X under Y; B moves
    /// Y under X and syncs; A syncs. The server refuses A's move (X would go inside itself): A is told, once,
    /// and says where X is now; A, B and the server all end X ▸ Y, Z, with nothing hidden in a cycle.
    @Test func aMoveRefusedAsACycleLeavesEveryOutlineAlikeAndSaysSo() throws {
        let url = try PostgresCluster.shared().newDatabase()
        let folder = TemporaryDirectory("burrow-sync-crossing")
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite")
        func burrow(_ args: [String], db: String) -> BurrowProcess.Result { BurrowProcess.run(args + ["--db", db]) }
        let nowhere = url.replacingOccurrences(of: #":\d+/"#, with: ":1/", options: .regularExpression)
        #expect(burrow(["add", "X", "Y", "Z"], db: a).status == 0)
        #expect(burrow(["sync", "attach", url], db: a).status == 0)
        #expect(burrow(["sync", "attach", url], db: b).status == 0)

        #expect(burrow(["mv", "X", "--to", "Y"], db: a).status == 0)
        #expect(burrow(["sync", "now", "--url", nowhere], db: a).status == 1)
        #expect(burrow(["mv", "Y", "--to", "X"], db: b).status == 0)
        #expect(burrow(["sync", "now", "--url", url], db: b).status == 0)
        let back = burrow(["sync", "now", "--url", url], db: a)
        #expect(back.status == 0, "\(back.err)")
        #expect(back.err == "burrow: Move “X”: it would go inside itself; “X” stays at the top\n", "\(back.err)")
        let again = burrow(["sync", "now", "--url", url], db: a)
        #expect(again.err.isEmpty && again.out.hasPrefix("Sent 0 changes, received 0"), "\(again.out) \(again.err)")

        let tree = "[ ] X (1)\n  [ ] Y\n[ ] Z\n"
        #expect(burrow(["ls", "--tree"], db: a).out == tree)
        #expect(burrow(["ls", "--tree"], db: b).out == tree)
        #expect(burrow(["check"], db: a).status == 0)
        let fresh = folder.path("fresh.sqlite")
        #expect(burrow(["sync", "attach", url], db: fresh).status == 0)
        #expect(burrow(["ls", "--tree"], db: fresh).out == tree)
    }
}
