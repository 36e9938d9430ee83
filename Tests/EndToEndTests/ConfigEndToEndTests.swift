import Foundation
import TestSupport
import Testing

/// The real `burrow` in tmux with a config file that is good, bad or missing.
@Suite(.serialized, .onAThreadOfItsOwn("end-to-end"))
struct ConfigEndToEndTests {
    /// Writes `config` (when given) to `$TEST_DIR/config/burrow/config.toml`, adds Milk and Eggs, and starts the
    /// outliner, printing its exit status when it ends.
    private func start(config: String?, height: Int = 8) throws -> Tmux {
        var environment: [String: String] = [:]
        var write = ""
        if let config {
            environment["CONFIG_TEXT"] = config
            write = #"mkdir -p "$TEST_DIR/config/burrow" && printf '%s' "$CONFIG_TEXT" > "$TEST_DIR/config/burrow/config.toml""#
        }
        return try Tmux(
            width: 72, height: height,
            shellCommand: """
                export BURROW_DB="$TEST_DIR/outline.sqlite" BURROW_LOG="$TEST_DIR/burrow.log"
                \(write)
                \(Binaries.path("burrow")) add Milk Eggs > /dev/null
                \(Binaries.path("burrow")); echo "exit=$?"; exec sleep infinity
                """,
            environment: environment)
    }

    private static func row(_ screen: [String], _ prefix: String) -> Bool { screen.contains { $0.hasPrefix(prefix) } }

    @Test func aReboundKeyWorks() throws {
        let tmux = try start(config: "[keys]\ndelete = \"X\"\nmoveDown = [\"<C-n>\", \"<Down>\"]\n[colors]\nselection = \"cyan\"\n", height: 40)
        try #require(tmux.waitFor { Self.row($0, " [ ] Eggs") } != nil, "\(tmux.screen())")
        #expect(tmux.screen().last?.hasPrefix("config.toml") == false)
        try tmux.send("x")
        #expect(tmux.waitFor { $0.last?.hasPrefix("x does nothing here") == true } != nil, "\(tmux.screen())")
        try tmux.send("C-n", "X")
        #expect(tmux.waitFor { $0.last?.hasPrefix("Deleted “Eggs”") == true } != nil, "\(tmux.screen())")
        #expect(tmux.screen().contains { $0.hasPrefix(" [ ] Eggs") } == false)
        // The help overlay shows the user's keys in the default's places.
        try tmux.send("?")
        let help = tmux.waitFor { Self.row($0, "   X                     Delete the item and its sub-items") }
        #expect(help != nil, "\(tmux.screen())")
        #expect(Self.row(tmux.screen(), "   Ctrl-N ↓              Move down"))
        try tmux.send("Escape")
        try #require(tmux.waitFor { $0.last?.trimmingCharacters(in: .whitespaces) == "?: help" } != nil, "\(tmux.screen())")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil, "\(tmux.screen())")
    }

    @Test func aBadConfigStartsWithDefaultsAndSaysWhere() throws {
        let tmux = try start(config: "# keys\n[keys]\n  mveDown = \"j\"\ndelete = \"j\"\n")
        let first = tmux.waitFor { $0.last?.hasPrefix("config.toml:3:3: unknown command “mveDown”") == true }
        try #require(first != nil, "\(tmux.screen())")
        // The keys are the defaults: j moves, d deletes.
        try tmux.send("j", "d", "d")
        #expect(tmux.waitFor { $0.last?.hasPrefix("Deleted “Eggs”") == true } != nil, "\(tmux.screen())")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil, "\(tmux.screen())")
    }

    @Test func aSyntaxErrorStartsWithDefaults() throws {
        let tmux = try start(config: "hide-done = true\n[keys\n")
        let first = tmux.waitFor { $0.last?.hasPrefix("config.toml:2:6: ") == true }
        try #require(first != nil, "\(tmux.screen())")
        #expect(Self.row(tmux.screen(), " [ ] Milk"))
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil, "\(tmux.screen())")
    }

    @Test func withoutAConfigItStartsAsUsual() throws {
        let tmux = try start(config: nil)
        let screen = try #require(tmux.waitFor { Self.row($0, " [ ] Eggs") }, "\(tmux.screen())")
        #expect(screen.last?.trimmingCharacters(in: .whitespaces) == "?: help")
        try tmux.send("j", "d", "d")
        #expect(tmux.waitFor { $0.last?.hasPrefix("Deleted “Eggs”") == true } != nil, "\(tmux.screen())")
        try tmux.send("q")
        #expect(tmux.waitFor(text: "exit=0") != nil)
    }
}
