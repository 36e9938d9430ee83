import ArgumentParser
import BurrowConfig
import Foundation
import ObjectGraph
import Outline
import TerminalKit

/// `--db PATH`, shared by every command.
public struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The outline database.",
            discussion: """
                Default: $BURROW_DB, else the config file's database, else $XDG_DATA_HOME/burrow/outline.sqlite \
                (~/.local/share/burrow/outline.sqlite).
                """))
    public var db: String?

    public init() {}

    /// How commands' actions are named in the shared undo history ("Undid: … (command line, 2 min ago)").
    public static let origin = "command line"

    /// The config file's `[history]` limits (read only for commands that write).
    var historyLimits: HistoryLimits {
        let environment = Console.current.environment
        return Configuration.load(from: Configuration.path(environment: environment), environment: environment).historyLimits
    }

    /// The database path: `--db`, `$BURROW_DB`, the config file's `database`, or the default one (its folder
    /// created unless reading). A config file with problems changes nothing here but what it gets right:
    /// only `burrow config check` and the outliner speak of them.
    public func path(creatingFolder: Bool = true) throws -> String {
        try location(creatingFolder: creatingFolder).path
    }

    /// The database path, and whether the user named it (`--db`, `$BURROW_DB`, the config file) rather than
    /// taking the default one; the config file is read once, and only when it can matter.
    private func location(creatingFolder: Bool) throws -> (path: String, named: Bool) {
        let environment = Console.current.environment
        // Read only when it can matter: most scripts name their database.
        let unnamed = (db ?? "").isEmpty && (environment["BURROW_DB"] ?? "").isEmpty
        let configured = unnamed ? Configuration.load(from: Configuration.path(environment: environment), environment: environment).database : nil
        do {
            let path = try OutlineLocation.resolve(
                explicit: db, configured: configured, environment: environment, creatingFolder: creatingFolder)
            return (path, !unnamed || configured != nil)
        } catch {
            throw UserError("cannot create the folder for the outline: \(error)")
        }
    }

    /// Runs a command that changes the outline: opened for writing (created, or upgraded, when needed,
    /// with its top item made before any unit of work), and checkpointed at the end so the database file
    /// alone is a complete copy.
    public func write<T>(creatingRoot: Bool = true, _ body: (Outline) throws -> T) throws -> T {
        let outline = try open(creatingRoot: creatingRoot)
        defer {
            // What the command said goes out before the checkpoint (seconds after a big import).
            Console.current.flush()
            outline.checkpoint()
            DatabaseOptions.leaveToExit(outline)
        }
        return try body(outline)
    }

    /// Runs a command that fills a new outline (an import where there is none yet): written aside and given
    /// its name when complete (see `Store.makeNew`). Nil when an outline is there, or it cannot be made that
    /// way (then `body` may have run, with no effect kept): run it with ``write(creatingRoot:_:)`` then.
    public func writeNew<T>(_ body: (Outline) throws -> T) throws -> T? {
        let limits = historyLimits
        return try Store.makeNew(at: try path(), model: OutlineModel.model) { store in
            let outline = Outline(context: Context(store: store))
            _ = try outline.root()
            outline.undoHistory.origin = DatabaseOptions.origin
            outline.undoHistory.limits = limits
            let result = try body(outline)
            Console.current.flush()
            // Closed by `makeNew`; its objects, as `leaveToExit` says, kept to the exit.
            KeptToExit.shared.keepIfExiting(outline)
            return result
        }
    }

    /// Runs a command that changes only an outline that exists (undo, redo, clearing history): where there
    /// is none, it says so rather than making one.
    public func writeExisting<T>(_ body: (Outline) throws -> T) throws -> T {
        let path = try self.path(creatingFolder: false)
        // Not a link (or none there): absent.
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        guard FileManager.default.fileExists(atPath: path) || link else { throw UserError("there is no outline at \(path) (burrow add makes one)") }
        return try write(body)
    }

    /// Runs a command that only reads: the store is opened read-only, so not a byte of it changes, a
    /// read-only file or folder will do, and a writer never makes it wait. Where there is no outline yet,
    /// the command reads an empty one (and nothing is created).
    /// A database named by `--db`, `$BURROW_DB` or the config file must exist (a mistyped name is not an
    /// empty outline); only the default one may be missing, before the first item.
    public func read<T>(_ body: (Outline) throws -> T) throws -> T {
        let (path, named) = try location(creatingFolder: false)
        let outline = try DatabaseOptions.reading(path, named: named)
        defer {
            Console.current.flush()
            DatabaseOptions.leaveToExit(outline)
        }
        return try body(outline)
    }

    /// Closes a command's outline and, in the `burrow` process, keeps its objects until it exits, which comes
    /// next: their release would start two threads (GRDB's dispatch queues hand a destructor to a new worker
    /// thread as they go) and tell NotificationCenter, about a millisecond of a quick command's few. Best
    /// effort: every change is committed by now, and a connection that fails to close is closed by GRDB's
    /// release or dropped by the exit, after which SQLite recovers anything left in the log.
    static func leaveToExit(_ outline: Outline) {
        try? outline.context.store.close()
        KeptToExit.shared.keepIfExiting(outline)
    }

    private static func reading(_ path: String, named: Bool) throws -> Outline {
        let nothingYet = { Outline(context: Context(store: try Store(inMemoryWith: OutlineModel.model))) }
        // A link to nowhere is not "nothing yet": opening it says what is wrong.
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        guard FileManager.default.fileExists(atPath: path) || link else {
            if named { throw UserError("there is no outline at \(path) (burrow add makes one)") }
            return try nothingYet()
        }
        let outline: Outline
        do {
            outline = try Outline(readingAt: path)
        } catch {
            // An empty file (made but never written) holds no outline yet either.
            if error.code == .cannotOpen && error.message == Store.noStoreYet { return try nothingYet() }
            throw UserError(error.description)
        }
        return outline
    }

    /// The outline for writing, or a user error that says why it cannot be opened. With `creatingRoot`, a
    /// new store gets its top item at once (before any command's unit of work, so it is never part of one).
    func open(creatingRoot: Bool = true) throws -> Outline {
        do {
            let outline = try Outline(path: try path())
            if creatingRoot { _ = try outline.root() }
            outline.undoHistory.origin = DatabaseOptions.origin
            outline.undoHistory.limits = historyLimits
            return outline
        } catch let e as StoreError {
            throw UserError(e.description)
        } catch {
            throw UserError("cannot open the outline: \(error)")
        }
    }

}

extension Outline {
    /// “Title” for messages, control characters made visible.
    func quoted(_ item: Item) -> String {
        Sanitizer.visible(quotedTitle(item))
    }
}
