import ArgumentParser
import BurrowConfig
import Foundation
import TerminalKit

/// `burrow config check|path|default`
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", _superCommandName: Burrow.toolName,
        abstract: "Check the config file, or say where it goes, or print a default one.",
        discussion: """
            The config file is $XDG_CONFIG_HOME/burrow/config.toml (~/.config/burrow/config.toml), in TOML. \
            It sets database (the outline when neither --db nor $BURROW_DB names one), hide-done (start with \
            done items hidden), osc52 (copying also sets the system clipboard), [keys] (command = "key" or a \
            list of keys, replacing that command's keys) and [colors] (role = "colour" or { fg = "white", bg = "blue" }; \
            NO_COLOR turns colours off). A missing file is fine. The outliner starts with the defaults for \
            whatever is wrong in the file and shows the first problem on its status line; other commands \
            ignore the file but for its database. To start one: mkdir -p ~/.config/burrow, then \
            burrow config default > "$(burrow config path)".
            """,
        subcommands: [CheckFile.self, ShowPath.self, PrintDefault.self])

    /// `burrow config check [FILE]`
    struct CheckFile: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check the config file: one line per problem, PATH:LINE:COLUMN: what is wrong.",
            discussion: "Exits 0 when the file is fine or missing, 1 when it has problems.")

        @Argument(help: "The file to check (default: the config file).")
        var file: String?

        func run() throws {
            let environment = Console.current.environment
            let path = file ?? Configuration.path(environment: environment)
            let config = Configuration.load(from: path, environment: environment)
            guard config.problems.isEmpty else {
                for problem in config.problems { say(problem.located(in: path)) }
                throw ExitCode(1)
            }
            let exists = FileManager.default.fileExists(atPath: path)
            say(exists ? "No problems in \(Sanitizer.visible(path))" : "No config file at \(Sanitizer.visible(path)): the defaults are used")
        }
    }

    /// `burrow config path`
    struct ShowPath: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "path", abstract: "Print where the config file goes (whether or not it exists).")

        func run() {
            say(Configuration.path(environment: Console.current.environment))
        }
    }

    /// `burrow config default`
    struct PrintDefault: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "default", abstract: "Print a complete config file that changes nothing, to start one from.")

        func run() {
            Console.current.out(Configuration.defaultFile)
        }
    }
}
