import ArgumentParser
import ObjectGraph
import Outline
import TerminalKit

/// `--db PATH`, shared by every command.
public struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The outline database.", discussion: "Default: $BURROW_DB, else $XDG_DATA_HOME/burrow/outline.sqlite (~/.local/share/burrow/outline.sqlite)."))
    public var db: String?

    public init() {}

    /// The database path: `--db`, `$BURROW_DB`, or the default one (its folder created).
    public func path() throws -> String {
        do {
            return try OutlineLocation.resolve(explicit: db)
        } catch {
            throw UserError("cannot create the folder for the outline: \(error)")
        }
    }

    /// The outline, or a user error that says why it cannot be opened. With `creatingRoot`, a new store
    /// gets its top item at once (before any command's unit of work, so it is never part of one).
    public func open(creatingRoot: Bool = true) throws -> Outline {
        do {
            let outline = try Outline(path: try path())
            if creatingRoot { _ = try outline.root() }
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
