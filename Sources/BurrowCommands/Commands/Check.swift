import ArgumentParser
import Outline
import TerminalKit

/// `burrow check [--repair]`
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", _superCommandName: Burrow.toolName,
        abstract: "Verify the outline (and repair what can be derived with --repair).",
        discussion: """
            Checks SQLite's integrity, that every item can be reached from the top (no orphans, no cycles), \
            that stored sub-item counts are right, that order keys are valid and distinct within each level, \
            and that the ID allocator is above every ID. Prints one line per problem and exits 1, or exits 0 \
            when the outline is intact. --repair counts again, re-keys, moves unreachable items under \
            “Recovered” and fixes the allocator, in one transaction, and says what it did.
            """)

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Repair what can be derived, in one transaction.")
    var repair = false

    func run() throws {
        // Checking only reads; repairing writes, in one transaction.
        let problems =
            try repair
            ? database.write(creatingRoot: false) { o in
                for line in try o.repair() { say("Repaired: " + Sanitizer.visible(line)) }
                return try o.check()
            } : database.read { try $0.check() }
        for p in problems { say(Sanitizer.visible(p)) }
        if problems.isEmpty {
            if !repair { say("The outline is intact.") } else { say("The outline is intact now.") }
            return
        }
        throw ExitCode(1)
    }
}
