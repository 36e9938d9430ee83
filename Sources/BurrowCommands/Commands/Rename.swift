import ArgumentParser
import ObjectGraph
import Outline

/// `burrow rename PATH NEW`
struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", _superCommandName: Burrow.toolName, abstract: "Give an item a new title.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item.")
    var path: String

    @Argument(help: "Its new title.")
    var title: String

    func validate() throws {
        // As the outliner's editors do: an item with no visible title cannot be found or told apart.
        if title.allSatisfy(\.isWhitespace) {
            throw ValidationError("the new title is empty: give at least one character other than a space")
        }
    }

    func run() throws {
        try database.writeExisting { o in
            let (item, old) = try o.perform { () throws -> (Item, String) in
                let item = try o.item(at: path)
                guard !item.isRoot else { throw UserError("the top of the outline cannot be renamed") }
                let old = o.quoted(item)
                item.title = title
                o.recordPlace(of: item)
                o.context.setActionName("Rename \(old) to \(o.quoted(item))")
                return (item, old)
            }
            say("Renamed \(old) to \(o.quoted(item))")
        }
    }
}
