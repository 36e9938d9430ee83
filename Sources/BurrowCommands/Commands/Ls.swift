import ArgumentParser
import Outline
import TerminalKit

/// `burrow ls [PATH] [--tree] [--depth N] [--ids] [--json]`
struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List a level, or a subtree with --tree.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item whose sub-items to list (default: the top level).")
    var path: String = ""

    @Flag(help: "List the whole subtree, indented.")
    var tree = false

    @Option(help: "How many levels to list (default: 1, or all with --tree).")
    var depth: Int?

    @Flag(help: "Show each item's ID (#42), which any PATH accepts.")
    var ids = false

    @Flag(help: "Print JSON: id, title, note, done and children.")
    var json = false

    func validate() throws {
        if let depth, depth < 1 { throw ValidationError("--depth must be at least 1") }
    }

    func run() throws {
        try list(try database.open())
    }

    func list(_ o: Outline) throws {
        let parent = try o.item(at: path)
        let levels = depth ?? (tree ? Int.max : 1)
        if json {
            say(try jsonTree(o, parent, levels))
            return
        }
        var stack: [(Item, Int)] = try o.children(of: parent).reversed().map { ($0, 0) }
        if stack.isEmpty { say("(no items under \(o.quoted(parent)))") }
        while let (item, level) = stack.popLast() {
            let box = item.isDone ? "[x]" : "[ ]"
            let count = item.childCount > 0 ? " (\(item.childCount))" : ""
            let id = ids ? "#\(item.objectID.rowID) " : ""
            say(String(repeating: "  ", count: level) + id + box + " " + Sanitizer.visible(item.title) + count)
            if level + 1 < levels && item.childCount > 0 {
                stack += try o.children(of: item).reversed().map { ($0, level + 1) }
            }
        }
    }

    private func jsonTree(_ o: Outline, _ parent: Item, _ levels: Int) throws -> String {
        func object(_ item: Item, _ level: Int) throws -> String {
            var s = "{\"id\": \(item.objectID.rowID), \"title\": " + JSONOutline.quote(item.title)
            if let note = item.note { s += ", \"note\": " + JSONOutline.quote(note) }
            s += ", \"done\": \(item.isDone), \"childCount\": \(item.childCount)"
            if level + 1 < levels && item.childCount > 0 {
                s += ", \"children\": [" + (try o.children(of: item).map { try object($0, level + 1) }.joined(separator: ", ")) + "]"
            }
            return s + "}"
        }
        return "[" + (try o.children(of: parent).map { try object($0, 0) }.joined(separator: ",\n ")) + "]"
    }
}
