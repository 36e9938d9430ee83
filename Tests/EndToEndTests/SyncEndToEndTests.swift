import Foundation
import TestSupport
import Testing

/// Two real outliners (`burrow` in tmux) on two outline files shared through a PostgreSQL cluster of the
/// test's own: an item captured in one appears in the other without a key press, and a rename goes back the
/// other way; with the server stopped, an item added waits and the status line says "offline · 1 pending",
/// and once the server is back it arrives and both say "synced" again. The outliners get the password from
/// `PGPASSWORD` alone: no screen shows it and no outline file keeps it. After `q`, both files check intact and
/// export the same outline.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct SyncEndToEndTests {
    @Test func twoOutlinersStayInStepThroughTheServerAndAcrossAnOutage() throws {
        // A cluster of its own, so that stopping it disturbs no other test.
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let password = cluster.adminPassword
        let withPassword = try cluster.newDatabase()
        let bare = withPassword.replacingOccurrences(of: ":\(password)@", with: "@")
        try #require(bare != withPassword && !bare.contains(password))
        let folder = TemporaryDirectory("burrow-sync-e2e")
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite")
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = password
        let commandEnvironment = environment
        func burrow(_ arguments: String..., db: String) throws -> (status: Int32, out: String, err: String) {
            try Binaries.run("burrow", arguments + ["--db", db], environment: commandEnvironment)
        }

        // A uploads with the password in the URL; B downloads with it from PGPASSWORD.
        #expect(try burrow("add", "Seed", db: a).status == 0)
        let up = try burrow("sync", "attach", withPassword, db: a)
        try #require(up.status == 0 && up.out.hasPrefix("Shared 1 item to postgres://"), "\(up)")
        let down = try burrow("sync", "attach", bare, db: b)
        try #require(down.status == 0 && down.out.hasPrefix("Downloaded 1 item from postgres://"), "\(down)")
        #expect(![up, down].contains { $0.out.contains(password) || $0.err.contains(password) })

        let one = try Outliner("A", on: a, password: password)
        let two = try Outliner("B", on: b, password: password)
        // Both panes live to the end; their tmux servers (and the outliners in them) go with them, however the
        // test ends.
        defer { withExtendedLifetime((one, two)) {} }
        try #require(one.waitForStatus("synced") != nil, "\(one.tmux.screen())")
        try #require(two.waitForStatus("synced") != nil, "\(two.tmux.screen())")
        try #require(two.waitFor { $0.contains(Self.row("Seed")) } != nil, "\(two.tmux.screen())")

        // Captured in A: B shows it without a key press.
        try one.capture("Typed in A")
        try #require(two.waitFor { $0.contains(Self.row("Typed in A")) } != nil, "\(two.tmux.screen())")

        // Renamed in B: A shows the new title.
        let listed = try #require(two.waitFor { $0.contains(Self.row("Seed")) && $0.contains(Self.row("Typed in A")) })
        let target = try #require(listed.firstIndex(of: Self.row("Typed in A")))
        let first = try #require(listed.firstIndex(of: Self.row("Seed")))
        // Quick capture appends: the new item is below the first.
        try #require(first < target, "\(listed)")
        try two.tmux.send("g")
        for _ in first..<target { try two.tmux.send("j") }
        try two.tmux.send("e")
        try #require(two.waitForStatus("Enter: keep · Ctrl-G: cancel") != nil, "\(two.tmux.screen())")
        try two.tmux.send("C-u")
        try two.tmux.type("Renamed in B")
        try two.tmux.send("Enter")
        try #require(two.waitFor { $0.contains(Self.row("Renamed in B")) } != nil, "\(two.tmux.screen())")
        let renamed = one.waitFor { $0.contains(Self.row("Renamed in B")) && !$0.contains(Self.row("Typed in A")) }
        try #require(renamed != nil, "\(one.tmux.screen())")

        // The server stops: an item added in A waits, and A's status line says so.
        try cluster.stop()
        try one.capture("Written offline")
        try #require(one.waitForStatus("offline · 1 pending") != nil, "\(one.tmux.screen())")
        #expect(!two.tmux.screen().contains(Self.row("Written offline")))

        // The server is back: the item arrives in B and A is in step again.
        try cluster.restart()
        try #require(two.waitFor(timeout: .seconds(30)) { $0.contains(Self.row("Written offline")) } != nil, "\(two.tmux.screen())")
        try #require(one.waitForStatus("synced", timeout: .seconds(30)) != nil, "\(one.tmux.screen())")
        try #require(two.waitForStatus("synced", timeout: .seconds(30)) != nil, "\(two.tmux.screen())")
        // Both show the same outline: every row above the status line is the same.
        let same = Poll.until(timeout: .seconds(20)) { one.tmux.screen().dropLast() == two.tmux.screen().dropLast() }
        #expect(same, "A: \(one.tmux.screen())\nB: \(two.tmux.screen())")

        // Both quit; each file is intact, holds no password, and exports what the other does.
        try one.tmux.send("q")
        try two.tmux.send("q")
        #expect(one.waitFor { $0.contains { $0.contains("exit=0") } } != nil, "\(one.tmux.screen())")
        #expect(two.waitFor { $0.contains { $0.contains("exit=0") } } != nil, "\(two.tmux.screen())")
        for db in [a, b] {
            let check = try burrow("check", db: db)
            #expect(check.status == 0 && check.out == "The outline is intact.\n", "\(db): \(check)")
            let status = try burrow("sync", "status", db: db)
            #expect(status.out.contains("0 actions waiting to be sent") && !status.out.contains(password), "\(db): \(status)")
            for file in [db, db + "-wal"] where FileManager.default.fileExists(atPath: file) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file) holds the password")
            }
        }
        let exportA = try burrow("export", "--format", "json", db: a)
        let exportB = try burrow("export", "--format", "json", db: b)
        #expect(exportA.status == 0 && exportB.status == 0, "\(exportA.err) \(exportB.err)")
        #expect(exportA.out == exportB.out)
        #expect(try burrow("ls", db: a).out == "[ ] Seed\n[ ] Renamed in B\n[ ] Written offline\n")
    }

    @Test func aMoveRefusedAsACycleLeavesBothOutlinersShowingTheServersOutline() throws {
        // Issue 30's script with two outliners: A moves X under Y while its outliner is closed (nothing can
        // send it); B's outliner, running, takes B's move of Y under X to the server. A's outliner then opens:
        // its move is refused, and A must show X ▸ Y and Z (not Z alone, X and Y hidden in a cycle) and say so.
        let cluster = try PostgresCluster()
        defer { try? cluster.stop() }
        let password = cluster.adminPassword
        let url = try cluster.newDatabase()
        let folder = TemporaryDirectory("burrow-sync-crossing")
        let a = folder.path("a.sqlite"), b = folder.path("b.sqlite")
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = password
        let commandEnvironment = environment
        func burrow(_ arguments: String..., db: String) throws -> (status: Int32, out: String, err: String) {
            try Binaries.run("burrow", arguments + ["--db", db], environment: commandEnvironment)
        }
        #expect(try burrow("add", "X", "Y", "Z", db: a).status == 0)
        try #require(try burrow("sync", "attach", url, db: a).status == 0)
        try #require(try burrow("sync", "attach", url, db: b).status == 0)

        let two = try Outliner("B", on: b, password: password)
        defer { withExtendedLifetime(two) {} }
        try #require(two.waitForStatus("synced") != nil, "\(two.tmux.screen())")
        #expect(try burrow("mv", "X", "--to", "Y", db: a).status == 0)
        #expect(try burrow("mv", "Y", "--to", "X", db: b).status == 0)
        // B's outliner sends it: the server has Y under X.
        try #require(two.waitFor { Self.hasParent("X", $0) && $0.last?.contains("synced") == true } != nil, "\(two.tmux.screen())")

        let one = try Outliner("A", on: a, password: password)
        defer { withExtendedLifetime(one) {} }
        let told = one.waitFor { $0.joined(separator: "\n").contains("it would go inside itself") }
        try #require(told != nil, "A's user is told: \(one.tmux.screen())")
        let shown = one.waitFor { Self.hasParent("X", $0) && $0.contains(Self.row("Z")) && !$0.contains(Self.row("Y")) }
        #expect(shown != nil, "A shows X ▸ Y and Z: \(one.tmux.screen())")
        try #require(one.waitForStatus("synced") != nil, "\(one.tmux.screen())")

        try one.tmux.send("q")
        try two.tmux.send("q")
        #expect(one.waitFor { $0.contains { $0.contains("exit=0") } } != nil, "\(one.tmux.screen())")
        #expect(two.waitFor { $0.contains { $0.contains("exit=0") } } != nil, "\(two.tmux.screen())")
        for db in [a, b] {
            #expect(try burrow("ls", "--tree", db: db).out == "[ ] X (1)\n  [ ] Y\n[ ] Z\n", "\(db)")
            #expect(try burrow("check", db: db).status == 0, "\(db)")
            #expect(try burrow("sync", "status", db: db).out.contains("in step with the server"), "\(db)")
        }
    }

    /// Whether `screen` shows `title` with one sub-item, closed ("1 ›" at the right).
    private static func hasParent(_ title: String, _ screen: [String]) -> Bool {
        screen.contains { $0.hasPrefix(" [ ] \(title) ") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("1 ›") }
    }

    /// An item's row as the outliner draws it (a leaf: nothing after the title).
    private static func row(_ title: String) -> String { " [ ] " + title }

    /// `burrow` on one outline file in a tmux pane of its own, with `PGPASSWORD` set, and the password that no
    /// screen of it may show: every screen a wait looks at is checked for it.
    private struct Outliner {
        let name: String
        let tmux: Tmux
        let password: String

        init(_ name: String, on db: String, password: String) throws {
            self.name = name
            self.password = password
            tmux = try Tmux(
                width: 60, height: 12,
                shellCommand: """
                    export BURROW_LOG="$TEST_DIR/burrow.log"
                    \(Binaries.path("burrow")) --db \(Tmux.quote(db)); echo "exit=$?"; exec sleep infinity
                    """,
                environment: ["PGPASSWORD": password])
        }

        /// Polls the screen until `condition` holds; the screen then, or nil after `timeout`.
        func waitFor(
            timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([String]) -> Bool
        ) -> [String]? {
            var shown = false
            let screen = tmux.waitFor(timeout: timeout) { screen in
                if screen.joined().contains(password) { shown = true }
                return condition(screen)
            }
            #expect(!shown, "\(name)'s screen showed the password", sourceLocation: sourceLocation)
            return screen
        }

        /// Polls until the status line (the last row) contains `text`.
        func waitForStatus(_ text: String, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation) -> [String]? {
            waitFor(timeout: timeout, sourceLocation: sourceLocation) { $0.count == tmux.height && $0.last?.contains(text) == true }
        }

        /// Adds `title` through quick capture and waits until the capture line is closed with the item shown.
        func capture(_ title: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try tmux.send("a")
            try tmux.type(title)
            try tmux.send("Enter", "Escape")
            // The placeholder is back once the Esc was taken (a key sent before would read as Alt and that key).
            let added = waitFor(sourceLocation: sourceLocation) {
                $0.contains(SyncEndToEndTests.row(title)) && $0.contains { $0.hasPrefix("+ Add to Burrow…") }
            }
            try #require(added != nil, "\(name): \(tmux.screen())", sourceLocation: sourceLocation)
        }
    }
}
