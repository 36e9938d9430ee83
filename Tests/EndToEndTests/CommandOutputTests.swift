import Foundation
import TestSupport
import Testing

/// The subcommands' output as a terminal receives it: control characters in stored titles are shown, never
/// obeyed; through a pipe the data is exact.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct CommandOutputTests {
    static let evil = "evil \u{1B}]0;pwned\u{07} \u{1B}[2J title"

    @Test func noCommandRetitlesOrClearsTheTerminal() throws {
        let dir = TemporaryDirectory("burrow-e2e")
        defer { withExtendedLifetime(dir) {} }
        let db = dir.path()
        #expect(try Binaries.run("burrow", ["add", Self.evil, "--db", db]).0 == 0)
        #expect(try Binaries.run("burrow", ["add", "child", "--under", "#2", "--db", db]).0 == 0)
        // Through a pipe: the exact title.
        let piped = try Binaries.run("burrow", ["export", "--format", "markdown", "--db", db])
        #expect(piped.1 == "- \(Self.evil)\n  - child\n")

        let burrow = "\(Binaries.path("burrow")) --db \(Tmux.quote(db))"
        let commands = [
            "export --format markdown", "export --format text", "export", "export --format json",
            "ls --tree", "rename \"$(printf 'evil \\033]0;pwned\\007 \\033[2J title/child')\" \"$(printf 'kid \\033]0;pwned2\\007')\"",
            "done '#2'", "rm '#2'"
        ]
        let tmux = try Tmux(
            width: 100, height: 40,
            shellCommand: """
                printf 'before\\n'
                \(commands.map { "\(burrow) \($0)" }.joined(separator: "\n"))
                echo "done=$?"
                exec sleep infinity
                """)
        let screen = try #require(tmux.waitFor(text: "done="), "\(tmux.screen())")
        #expect(screen.first == "before", "the screen was cleared: \(screen)")
        #expect(screen.contains("- evil ^[]0;pwned^G ^[[2J title"), "\(screen)")
        #expect(screen.contains("evil ^[]0;pwned^G ^[[2J title"), "\(screen)")
        #expect(screen.contains("Renamed “child” to “kid ^[]0;pwned2^G”"), "\(screen)")
        #expect(screen.contains("done=0"))
        #expect(try !tmux.display("#{pane_title}").contains("pwned"))
    }

    /// Every command leaves the file complete on its own: the process closes its connections before it
    /// exits (and keeps their objects to the exit), and a close that failed would leave the log. A command
    /// that writes leaves nothing beside the file; one that reads leaves at most an empty log and the shared
    /// index (SQLite's read-only connections make them and may not remove them). A copy of the file alone
    /// lists every item.
    @Test func everyCommandLeavesTheFileWholeAndNoLog() throws {
        let dir = TemporaryDirectory("burrow-e2e")
        defer { withExtendedLifetime(dir) {} }
        let db = dir.path()
        let commands: [(arguments: [String], writes: Bool)] = [
            (["add", "Groceries"], true), (["add", "Milk", "--under", "Groceries"], true), (["ls", "--tree"], false),
            (["find", "milk"], false), (["rename", "Groceries/Milk", "Oat milk"], true), (["done", "Groceries/Oat milk"], true),
            (["export", "--format", "text"], false), (["undo"], true), (["agenda"], false), (["add", "Work"], true),
            (["check"], false), (["history"], false), (["tag", "Work", "office"], true)
        ]
        for (arguments, writes) in commands {
            let (status, _, err) = try Binaries.run("burrow", arguments + ["--db", db])
            #expect(status == 0, "\(arguments): \(err)")
            // The log is gone, or kept with its header cleared (`Store.keepLogFilesWhenClosing()`): either way
            // SQLite reads no log.
            #expect(LogFile.holdsNothing(besides: db), "\(arguments) left a log that holds something")
            if writes { #expect(!FileManager.default.fileExists(atPath: db + "-shm"), "\(arguments) left the shared index") }
        }
        let copy = dir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        let ls = try Binaries.run("burrow", ["ls", "--tree", "--db", copy])
        #expect(ls.1 == "[ ] Groceries (1)\n  [ ] Oat milk\n[ ] Work #office\n", "\(ls.2)")
    }

    /// `due:today` is today where the user is, read from `TZ` as every program reads it (`date`, `ls -l`): a
    /// zone's name or a POSIX rule (`<+14>-14` is UTC+14; Foundation's `TimeZone.current` took such a rule for
    /// the system's zone). 25 hours apart at UTC+14 and UTC−11, so the two days always differ.
    @Test func todayIsTheDayOfTheZoneInTZ() throws {
        let dir = TemporaryDirectory("burrow-e2e")
        defer { withExtendedLifetime(dir) {} }
        var days: [String] = []
        let zones = [("Pacific/Kiritimati", 14), ("Pacific/Pago_Pago", -11), ("<+14>-14", 14), ("<-11>11", -11)]
        for (zone, hours) in zones {
            var environment = ProcessInfo.processInfo.environment
            environment["TZ"] = zone
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: hours * 3_600)!
            formatter.dateFormat = "yyyy-MM-dd"
            let before = formatter.string(from: Date())
            let r = try Binaries.run("burrow", ["add", "Call Bob due:today", "--db", dir.path()], environment: environment)
            let after = formatter.string(from: Date())
            let day = r.1.split(separator: "due ").last.map { String($0.prefix(10)) } ?? ""
            // A run across midnight there may give either day.
            #expect(r.0 == 0 && (day == before || day == after), "\(zone): \(r)")
            days.append(day)
        }
        #expect(days[0] != days[1] && days[2] != days[3])
    }
}
