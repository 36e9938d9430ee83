import Foundation
import TestSupport
import Testing

/// The subcommands' output as a terminal receives it: control characters in stored titles are shown, never
/// obeyed; through a pipe the data is exact.
@Suite(.serialized)
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
}
