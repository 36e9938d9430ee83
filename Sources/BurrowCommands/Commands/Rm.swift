import ArgumentParser
import ObjectGraph
import Outline
import TerminalKit

/// `burrow rm PATH`
struct Rm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", _superCommandName: Burrow.toolName, abstract: "Delete an item with all its sub-items.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item to delete.")
    var path: String

    func run() throws {
        try database.writeExisting { o in
            let what = try o.perform { () throws -> String in
                let item = try o.item(at: path)
                o.recordPlace(of: item)
                return try o.deleteNamingAction(item.objectID)
            }
            say("Deleted \(Sanitizer.visible(what))")
        }
    }
}
