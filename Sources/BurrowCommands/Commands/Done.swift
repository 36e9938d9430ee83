import ArgumentParser
import ObjectGraph
import Outline

/// `burrow done PATH [--undo]`
struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", _superCommandName: Burrow.toolName, abstract: "Mark an item done (or not done with --undo).")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item.")
    var path: String

    @Flag(help: "Mark it not done.")
    var undo = false

    func run() throws {
        try database.writeExisting { o in
            let item = try o.perform { () throws -> Item in
                let item = try o.item(at: path)
                guard !item.isRoot else { throw UserError("the top of the outline cannot be marked done") }
                // A task's state follows (TODO ⇄ DONE), as Space does in the outliner.
                try o.setDone(item.objectID, to: !undo)
                o.recordPlace(of: item)
                o.context.setActionName((undo ? "Mark not done " : "Mark done ") + o.quoted(item))
                return item
            }
            say((undo ? "Not done: " : "Done: ") + o.quoted(item))
        }
    }
}
