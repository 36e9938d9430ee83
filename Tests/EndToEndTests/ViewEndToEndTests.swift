import Foundation
import TestSupport
import Testing

/// The views in the real `burrow` in tmux, while other `burrow` processes change the outline: the agenda and
/// a tag's items take what they add, tag and finish at once, and a saved search opens live again after a
/// restart; the command line shows the same items.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct ViewEndToEndTests {
    /// The outliner on `$TEST_DIR/outline.sqlite` in a 60×12 pane, started after the database is seeded.
    private func start() throws -> (Tmux, String) {
        let tmux = try Tmux(
            width: 60, height: 12,
            shellCommand: """
                export BURROW_DB="$TEST_DIR/outline.sqlite" BURROW_LOG="$TEST_DIR/burrow.log"
                ulimit -c 0
                read go
                while :; do \(Binaries.path("burrow")); echo "exit=$?"; stty sane; read line; done
                """)
        return (tmux, tmux.directory.appendingPathComponent("outline.sqlite").path)
    }

    @discardableResult
    private func burrow(_ db: String, _ arguments: String...) throws -> (Int32, String) {
        let (status, out, err) = try Binaries.run("burrow", arguments + ["--db", db])
        return (status, out + err)
    }

    /// The pane's rows' titles (without box and state), from the third line, up to the first empty one.
    private static func titles(_ lines: [String]) -> [String] {
        lines.dropFirst(2).prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func viewsTakeOtherProcessesChangesLive() throws {
        let (tmux, db) = try start()
        #expect(try burrow(db, "add", "Work").0 == 0)
        #expect(try burrow(db, "add", "TODO Call Bob #work due:today", "TODO Review #work sched:tomorrow", "--under", "Work").0 == 0)
        #expect(try burrow(db, "add", "TODO Later due:+30d").0 == 0)
        try tmux.send("Enter")
        try #require(tmux.waitFor { Self.titles($0).first?.contains("Work") == true } != nil, "\(tmux.screen())")
        // The agenda: today's and tomorrow's, not the one in 30 days.
        try tmux.send("=")
        try #require(tmux.waitFor { $0.first?.contains("Agenda to") == true && Self.titles($0).count == 2 } != nil, "\(tmux.screen())")
        #expect(Self.titles(tmux.screen())[0].contains("Call Bob"))
        // Another process adds a task due today and finishes Call Bob: the view takes both.
        #expect(try burrow(db, "add", "TODO Pay rent due:today").0 == 0)
        #expect(try burrow(db, "done", "Work/Call Bob").0 == 0)
        let live = tmux.waitFor { s in
            let t = Self.titles(s)
            return t.count == 2 && t.contains { $0.contains("Pay rent") } && !t.contains { $0.contains("Call Bob") }
        }
        #expect(live != nil, "\(tmux.screen())")
        // A search, kept as an item, opens again after a restart and is live there too.
        try tmux.send("h", ":")
        try tmux.type("find state:TODO #work")
        try tmux.send("Enter", ":")
        try tmux.type("save Work to do")
        try tmux.send("Enter")
        try #require(tmux.waitFor { $0.contains { $0.contains("Kept “Work to do”") } } != nil, "\(tmux.screen())")
        try tmux.send("q")
        try #require(tmux.waitFor { $0.contains("exit=0") } != nil, "\(tmux.screen())")
        try tmux.send("Enter")
        try #require(tmux.waitFor { Self.titles($0).contains { $0.contains("Work to do") } } != nil, "\(tmux.screen())")
        try tmux.send("G", "Enter")
        try #require(tmux.waitFor { $0.first?.hasSuffix("Work to do") == true && Self.titles($0).count == 1 } != nil, "\(tmux.screen())")
        #expect(try burrow(db, "tag", "Later", "work").0 == 0)
        #expect(tmux.waitFor { Self.titles($0).count == 2 } != nil, "\(tmux.screen())")
        // The command line finds the same.
        let (status, out) = try burrow(db, "find", "state:TODO #work")
        #expect(status == 0 && out.contains("Review") && out.contains("Later") && !out.contains("Call Bob"), "\(out)")
        try tmux.send("q")
    }
}
