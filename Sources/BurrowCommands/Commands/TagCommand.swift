import ArgumentParser
import ObjectGraph
import Outline
import TerminalKit

/// `burrow tag PATH [TAG...] [--remove TAG...]`, `burrow tag --list`
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", _superCommandName: Burrow.toolName,
        abstract: "Show, add or remove an item's tags, or list every tag.",
        discussion: """
            Tags are written without # (work, not #work); a tag of several words is one argument ("big project"). \
            Without TAG or --remove, the item's tags are printed. `burrow ls --tag TAG` lists a tag's items.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item (not with --list).")
    var path: String?

    @Argument(help: "Tags to add, after those the item has.")
    var tags: [String] = []

    @Option(name: .customLong("remove"), help: "A tag to take off (repeat for more).")
    var removed: [String] = []

    @Flag(help: "List every tag with how many items have it.")
    var list = false

    func validate() throws {
        if list {
            guard path == nil, removed.isEmpty else { throw ValidationError("--list takes no item and no tags") }
            return
        }
        guard path != nil else { throw ValidationError("name an item (or --list every tag)") }
        for tag in tags + removed {
            let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
            if let why = Tag.problem(with: name) { throw ValidationError("“\(Sanitizer.visible(tag))” is not a tag: \(why)") }
        }
    }

    func run() throws {
        let add = tags.map(Self.bare), remove = removed.map(Self.bare)
        if list {
            try database.read { o in
                for (name, count) in try o.allTags() { say(Sanitizer.visible("#\(name)  \(count)")) }
            }
            return
        }
        guard let path else { return }
        guard !add.isEmpty || !remove.isEmpty else {
            try database.read { o in
                let item = try o.item(at: path)
                say(item.tagNames.isEmpty ? "No tags: " + o.quoted(item) : Sanitizer.visible(item.tagNames.map { "#" + $0 }.joined(separator: " ")))
            }
            return
        }
        try database.writeExisting { o in
            let item = try o.perform { () throws -> Item in
                let item = try o.item(at: path)
                guard !item.isRoot else { throw UserError("the top of the outline has no tags") }
                let have = item.tagNames
                try o.setTags(item.objectID, have.filter { !remove.contains($0) } + add.filter { !have.contains($0) && !remove.contains($0) })
                o.recordPlace(of: item)
                o.context.setActionName("Tag " + o.quoted(item))
                return item
            }
            let now = item.tagNames.map { "#" + $0 }.joined(separator: " ")
            say((now.isEmpty ? "No tags" : Sanitizer.visible(now)) + ": " + o.quoted(item))
        }
    }

    /// A tag as typed, `#work` or `work`, without its `#`.
    private static func bare(_ tag: String) -> String { tag.hasPrefix("#") ? String(tag.dropFirst()) : tag }
}
