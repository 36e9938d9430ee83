import ArgumentParser
import Foundation
import ObjectGraph
import Outline
import Synchronization
import TerminalKit

/// The `burrow` command: with no subcommand, the outliner; subcommands for scripting.
public struct Burrow: ParsableCommand {
    /// The name every usage line starts with; each subcommand carries it as its "super command" (see
    /// `BurrowMain.parse`).
    static let toolName = "burrow"

    public static let configuration = CommandConfiguration(
        commandName: toolName,
        abstract: "A terminal outliner.",
        discussion: """
            With no subcommand, burrow shows your outline. Subcommands add, list, change, import and export \
            items from scripts. A PATH names an item by the titles on the way down (Groceries/Dairy; write \\/ \
            for a slash in a title) or by the ID that `burrow ls --ids` shows (#42). \
            In the outliner, ? lists every key: j/k move, Enter opens an item's sub-items and h goes back, a adds, \
            e renames, d deletes, Space marks done, J/K/>/< move and indent, zo/zc (+/-) open and close an item's \
            sub-items in place and zR/zM everything in the level, v selects a range for d, Space, J/K, >/<, M and \
            y to act on, y/m then p/P copy or cut and paste, M moves to an item found by typing, H hides done \
            items, I shows the details, E and A edit the note, / searches as you type, u/Ctrl-R undo and redo, q quits. \
            The undo history is kept in the outline and shared by the outliner and every command (burrow undo, redo, \
            history): u undoes the newest action, whichever burrow made it, after quitting too.
            """,
        version: "0.1.0",
        subcommands: [
            Add.self, Ls.self, Note.self, Rm.self, Done.self, State.self, Schedule.self, TagCommand.self, AgendaCommand.self, Mv.self, Rename.self,
            Export.self,
            Import.self, Check.self,
            Find.self, Undo.self,
            Redo.self, History.self, Config.self, Sync.self
        ])

    @OptionGroup public var database: DatabaseOptions

    public init() {}

    /// Without the full-screen outliner (in-process tests): the outline as a tree.
    public func run() throws {
        var ls = Ls()
        ls.database = database
        ls.tree = true
        ls.depth = 3
        try database.read { try ls.list($0) }
    }
}

/// Runs `burrow` with `arguments` and returns its exit status: 0 success, 1 a user error (one line on
/// stderr), 2 a usage error.
public enum BurrowMain {
    /// `outliner` runs the full-screen outliner when no subcommand is given; it gets the database path and
    /// returns the exit status. `exitsAfter`: the process exits when this returns (the `burrow` program), so
    /// a command's objects are left to the exit rather than released.
    public static func run(_ arguments: [String], outliner: ((String) throws -> Int32)? = nil, exitsAfter: Bool = false) -> Int32 {
        if exitsAfter {
            KeptToExit.shared.processExitsAfterRun()
            // A command or the outliner that wrote leaves the log file cleared instead of deleting it, which
            // took 2–3 ms of a quick command on file systems that discard freed blocks (LogFileReuse).
            Store.keepLogFilesWhenClosing()
        }
        // What a command printed is gathered (`Console.standard`): out before the process exits.
        defer { Console.current.flush() }
        // Scripts ask for the version to check what is installed: answered without building the parser
        // (which inspects every command's options and costs more than the rest of the process).
        if arguments == ["--version"] {
            Console.current.out(Burrow.configuration.version + "\n")
            return 0
        }
        // `add`, `ls`, `find` and the outliner with plain words: read without ArgumentParser, run without
        // casting to a protocol to learn what kind of command they are (each first cast of a type to a
        // protocol scans every conformance in the binary).
        if var command = QuickParse.command(arguments) {
            do {
                if let root = command as? Burrow, let outliner { return try outliner(try root.database.path()) }
                try command.run()
                return 0
            } catch {
                return report(error)
            }
        }
        // The check reads every option of the command from its help, which costs more than the rest of a
        // quick command's start together, so it runs before parsing only when a word could be misread (one
        // that starts with a single dash, which ArgumentParser would split into letters), and otherwise only
        // when parsing fails: every other word it refuses (an unknown `--option`, a value that starts with a
        // dash) makes ArgumentParser fail too.
        let mayBeMisread = arguments.prefix { $0 != "--" }.contains { $0.hasPrefix("-") && !$0.hasPrefix("--") && $0 != "-" }
        if mayBeMisread, let refusal = Burrow.misreadOption(in: arguments) {
            Console.current.err(refusal + "\n")
            return 2
        }
        var command: any ParsableCommand
        do {
            command = try parse(arguments)
        } catch {
            // Help asked for is no failure: nothing was misread.
            if !mayBeMisread, Burrow.exitCode(for: error) != .success, let refusal = Burrow.misreadOption(in: arguments) {
                Console.current.err(refusal + "\n")
                return 2
            }
            return report(error)
        }
        do {
            if let root = command as? Burrow, let outliner {
                return try outliner(try root.database.path())
            }
            if let command = command as? any AsyncParsableCommand {
                try wait(for: command)
            } else {
                try command.run()
            }
            return 0
        } catch {
            return report(error)
        }
    }

    /// `arguments` parsed as `burrow` parses them. A subcommand named first is parsed on its own first, as a
    /// root: ArgumentParser checks a root's arguments for a request of a completion script by parsing them
    /// as two more commands, a tenth of a quick command's whole process, and a command with a "super
    /// command" (each subcommand names `burrow`) skips that check. Anything that parse refuses (help asked
    /// for, a mistake) is parsed again the whole way, so messages and statuses are `burrow`'s own
    /// (ParseEquivalenceTests compares both ways over every command's options).
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try parseAlone(arguments) ?? Burrow.parseAsRoot(arguments)
    }

    /// The command when the subcommand named first accepts the rest of `arguments` on its own; nil otherwise
    /// (and for help, which the whole parse words).
    static func parseAlone(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let first = arguments.first, !arguments.contains(where: { $0.hasPrefix("--generate-completion") }),
            let sub = Burrow.configuration.subcommands.first(where: { $0.configuration.commandName == first }),
            let command = try? sub.parseAsRoot(Array(arguments.dropFirst())), isOurs(type(of: command), below: sub)
        else { return nil }
        return command
    }

    /// Whether `type` is `command` or one of its subcommands: not the help command ArgumentParser makes for
    /// `-h` and `--help`, whose text names the whole way down from `burrow`.
    private static func isOurs(_ type: any ParsableCommand.Type, below command: any ParsableCommand.Type) -> Bool {
        var next: [any ParsableCommand.Type] = [command]
        while let candidate = next.popLast() {
            if ObjectIdentifier(candidate) == ObjectIdentifier(type) { return true }
            next += candidate.configuration.subcommands
        }
        return false
    }

    /// Runs a command that talks to a server (the sync's, which are async: the server's driver is) to its end:
    /// the one place the synchronous entry waits on the concurrency pool. The task inherits the caller's
    /// task-local values (the console the command writes to).
    private static func wait(for command: sending any AsyncParsableCommand) throws {
        // The command is sent to the task (nothing here touches it after), the result comes back through a lock.
        let result = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            var command = command
            let r: Result<Void, any Error>
            do {
                try await command.run()
                r = .success(())
            } catch {
                r = .failure(error)
            }
            result.withLock { $0 = r }
            done.signal()
        }
        done.wait()
        try result.withLock { $0! }.get()
    }

    /// Says why `error` ended the command, where it belongs; the exit status.
    private static func report(_ error: any Error) -> Int32 {
        switch error {
        case let e as ExitCode:
            return e.rawValue  // the command has said why
        case let e as any UserFacingError:
            return fail(e.userMessage)
        default:
            let code = Burrow.exitCode(for: error)
            let message = Burrow.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { Console.current.out(message + "\n") }
                return 0
            }
            Console.current.err(message + "\n")
            return code == .validationFailure ? 2 : code.rawValue
        }
    }

    private static func fail(_ message: String) -> Int32 {
        Console.current.err("burrow: " + Sanitizer.visible(message) + "\n")
        return 1
    }
}
