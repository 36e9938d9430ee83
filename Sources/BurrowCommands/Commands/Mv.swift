import ArgumentParser
import ObjectGraph
import Outline

/// `burrow mv PATH --to PATH [--position N]`
struct Mv: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv", _superCommandName: Burrow.toolName, abstract: "Move an item (with its sub-items) under another item.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item to move.")
    var path: String

    @Option(help: "The new parent.")
    var to: String

    @Option(help: "Its position among the new parent's sub-items, from 1 (default: last).")
    var position: Int?

    func validate() throws {
        if let position, position < 1 { throw ValidationError("--position counts from 1") }
    }

    func run() throws {
        try database.writeExisting { o in
            let (item, parent) = try o.perform { () throws -> (Item, Item) in
                let item = try o.item(at: path)
                let parent = try o.item(at: to)
                // Where undo puts it back: its level now.
                o.recordPlace(of: item)
                // Past the end means last: the level is read inside the transaction, not counted before it.
                try o.move(item.objectID, to: parent.objectID, at: (position.map { $0 - 1 }) ?? Int.max)
                o.setActionName("Move \(o.quoted(item))")
                return (item, parent)
            }
            say("Moved \(o.quoted(item)) under \(o.quoted(parent)) at position \(try o.position(of: item) + 1)")
        }
    }
}
