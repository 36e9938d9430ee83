import ArgumentParser
import Outline
import TerminalKit

/// `burrow ls [PATH] [--tree] [--depth N] [--ids] [--notes] [--json]`
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

    @Flag(help: "Show each item's note under it, indented past its box.")
    var notes = false

    @Flag(help: "Print JSON: id, title, note, done, a task's state, priority and dates, and children.")
    var json = false

    func validate() throws {
        if let depth, depth < 1 { throw ValidationError("--depth must be at least 1") }
    }

    func run() throws {
        try database.read { try list($0) }
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
