import ArgumentParser
import Outline
import TerminalKit

/// `burrow ls [PATH] [--tree] [--depth N] [--ids] [--notes] [--json]`, `burrow ls --tag TAG [--ids] [--json]`
struct Ls: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", _superCommandName: Burrow.toolName, abstract: "List a level, or a subtree with --tree.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item whose sub-items to list (default: the top level).")
    var path: String = ""

    @Flag(help: "List the whole subtree, indented.")
    var tree = false

    @Option(help: "How many levels to list (default: 1, or all with --tree).")
    var depth: Int?

    @Flag(help: "Show each item's ID (#42), which any PATH accepts.")
    var ids = false

    @Flag(help: "Show each item's note under it, indented past its box.")
    var notes = false

    @Flag(help: "Print JSON: id, title, note, done, a task's state, priority, dates and tags, and children.")
    var json = false

    @Option(help: "List every item tagged TAG (work or #work), each with its path, instead of a level.")
    var tag: String?

    func validate() throws {
        if let depth, depth < 1 { throw ValidationError("--depth must be at least 1") }
        if tag != nil, !path.isEmpty || tree || depth != nil || notes {
            throw ValidationError("--tag lists the whole outline's items: it takes no PATH, --tree, --depth or --notes")
        }
    }

    func run() throws {
        try database.read { o in
            if let tag { try listTagged(tag.hasPrefix("#") ? String(tag.dropFirst()) : tag, o) } else { try list(o) }
        }
    }

    /// Every item tagged `tag`, in the outline's order of IDs, as its path (`Work/Projects/Call Bob`).
    func listTagged(_ tag: String, _ o: Outline) throws {
        var lines: [String] = []
        var objects: [String] = []
        for id in try o.items(tagged: tag) {
            guard let item = try o.context.existingObject(for: id) as? Item, !item.isInaccessible else { continue }
            // Without the top item's title: a path as `item(at:)` reads it.
            let path = Array(try o.titles(downTo: id).dropFirst())
            let (task, dates) = Ls.task(item.extras)
            let shown = o.path(of: item)
            lines.append((ids ? "#\(id.rowID) " : "") + (item.isDone ? "[x] " : "[ ] ") + task + Sanitizer.visible(shown) + dates)
            objects.append(
                "{\"id\": \(id.rowID), \"title\": " + JSONOutline.quote(item.title) + ", \"path\": ["
                    + path.map(JSONOutline.quote).joined(separator: ", ") + "], \"done\": \(item.isDone)}")
        }
        if json {
            say("[" + objects.joined(separator: ",\n ") + "]")
        } else if lines.isEmpty {
            say("(no items tagged #\(Sanitizer.visible(tag)))")
        } else {
            for line in lines { say(line) }
        }
    }

    func list(_ o: Outline) throws {
        let parent = try o.item(at: path)
        let levels = depth ?? (tree ? Int.max : 1)
        // Read level by level as values: a query per level, not per item, and sub-items found by reading them.
        let rows = try o.subtree(under: parent, depth: levels)
        if json {
            say(jsonTree(rows, try o.storedExtras(under: rows.map(\.parent))))
            return
        }
        if rows.isEmpty { say("(no items under \(o.quoted(parent)))") }
        let extras = try o.storedExtras(under: rows.map(\.parent))
        for row in rows {
            let box = row.isDone ? "[x]" : "[ ]"
            let count = row.childCount > 0 ? " (\(row.childCount))" : ""
            let id = ids ? "#\(row.id.rowID) " : ""
            let (task, dates) = Ls.task(extras[row.id.rowID])
            say(Ls.indent(row.depth) + id + box + " " + task + Sanitizer.visible(row.title) + dates + count)
            if notes, let note = row.note, !note.isEmpty {
                // Under the title, past the box: a line that starts with no box is never an item.
                let pad = Ls.indent(row.depth) + String(repeating: " ", count: id.count + 4)
                for line in note.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                    say(line.isEmpty ? "" : pad + Sanitizer.visible(String(line)))
                }
            }
        }
    }

    /// Two spaces a level down to `maxIndent` levels, then the level's number: a 100,000-level outline
    /// prints lines of bounded length, not gigabytes of spaces.
    static func indent(_ depth: Int) -> String {
        depth <= maxIndent
            ? String(repeating: "  ", count: depth)
            : String(repeating: "  ", count: maxIndent) + "(level \(depth + 1)) "
    }

    static let maxIndent = 32

    /// What goes before a task's title (`TODO [#B] `) and after it (` · planned 2026-12-01 · due 2026-12-03`).
    static func task(_ e: OutlineNode.Extras?) -> (String, String) {
        guard let e else { return ("", "") }
        var before = e.state.map { Sanitizer.visible($0) + " " } ?? ""
        if let p = e.priority { before += "[#" + Sanitizer.visible(p) + "] " }
        var after = ""
        if let s = e.scheduled { after += " · planned " + Sanitizer.visible(s) }
        if let d = e.deadline { after += " · due " + Sanitizer.visible(d) }
        after += e.tags.map { " #" + Sanitizer.visible($0) }.joined()
        return (before, after)
    }

    /// `[{"id", "title", "note"?, "done", "childCount", "state"?…, "children"?}]`, nested by depth without recursion.
    private func jsonTree(_ rows: [SubtreeRow], _ extras: [Int64: OutlineNode.Extras]) -> String {
        var s = "["
        for (k, row) in rows.enumerated() {
            if k > 0 && row.depth <= rows[k - 1].depth { s += row.depth == 0 ? ",\n " : ", " }
            s += "{\"id\": \(row.id.rowID), \"title\": " + JSONOutline.quote(row.title)
            if let note = row.note { s += ", \"note\": " + JSONOutline.quote(note) }
            s += ", \"done\": \(row.isDone), \"childCount\": \(row.childCount)"
            if let e = extras[row.id.rowID] {
                for (key, value) in zip(
                    ["state", "priority", "scheduled", "deadline", "closed"], [e.state, e.priority, e.scheduled, e.deadline, e.closed])
                {
                    if let value { s += ", \"\(key)\": " + JSONOutline.quote(value) }
                }
                if !e.tags.isEmpty { s += ", \"tags\": [" + e.tags.map(JSONOutline.quote).joined(separator: ", ") + "]" }
            }
            let next = k + 1 < rows.count ? rows[k + 1].depth : 0
            if next > row.depth {
                s += ", \"children\": ["
            } else {
                s += "}"
                // Close the lists (and their objects) this row ends.
                for _ in 0..<(row.depth - next) { s += "]}" }
            }
        }
        return s + "]"
    }
}
