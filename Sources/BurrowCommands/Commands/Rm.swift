import ArgumentParser
import Outline

/// `burrow rm PATH`
struct Rm: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete an item with all its sub-items.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item to delete.")
    var path: String

    func run() throws {
        let o = try database.open()
        let item = try o.item(at: path)
        let below = try o.nodes(under: item).reduce(0) { $0 + $1.count }
        let name = o.quoted(item)
        try o.delete(item)
        let what = below == 0 ? name : "\(name) and \(below) sub-item\(below == 1 ? "" : "s")"
        try o.commit("Delete \(what)")
        say("Deleted \(what)")
    }
}
