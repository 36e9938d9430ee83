import ArgumentParser
import Foundation
import ObjectGraph
import Outline
import TerminalKit

/// `burrow history [--limit N] [--json] [--clear]`
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", _superCommandName: Burrow.toolName,
        abstract: "List the undo history, newest first (or clear it).",
        discussion: """
            Every action of the outliner and of the commands is kept in the outline, undone ones too (they can be \
            redone until a new action is made). The config file's [history] section bounds it.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "How many actions to list.")
    var limit = 20

    @Flag(help: "Print JSON: sequence, name, date, origin, state (done, undone or skipped), objects, bytes, place.")
    var json = false

    @Flag(help: "Forget every action (nothing in the outline changes).")
    var clear = false

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit cannot be negative") }
        if clear && json { throw ValidationError("--clear lists nothing: leave out --json") }
    }

    func run() throws {
        if clear {
            try database.writeExisting { o in
                let n = try o.context.undoHistory.totals()
                try o.context.undoHistory.clear()
                say("Cleared the undo history (\(n.undo + n.redo) action\(n.undo + n.redo == 1 ? "" : "s"))")
            }
            return
        }
        try database.read { o in
            let entries = try o.context.undoHistory.entries(limit: limit)
            if json {
                say(jsonList(entries, o))
                return
            }
            if entries.isEmpty && limit > 0 { return say("No actions yet") }
            for e in entries {
                say(
                    "\(e.sequence)  \(e.state == .done ? "" : e.isUndone ? "undone: " : "skipped: ")\(Sanitizer.visible(e.name))  (\(Undo.describe(e, in: o)))"
                )
            }
        }
    }

    private func jsonList(_ entries: [HistoryEntry], _ o: Outline) -> String {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let items = entries.map { e -> String in
            var s = "{\"sequence\": \(e.sequence), \"name\": \(JSONOutline.quote(e.name)), \"date\": \"\(iso.string(from: e.date))\""
            s += ", \"origin\": \(JSONOutline.quote(e.origin)), \"state\": \"\(e.state)\", \"objects\": \(e.objectCount), \"bytes\": \(e.size)"
            var place: [String] = []
            if let c = e.place.container {
                place.append("\"container\": \(c.rowID)")
                // The path is for reading only: an item gone (or unreadable) has none.
                if let titles = try? o.titles(downTo: c), !titles.isEmpty {
                    place.append("\"location\": [" + titles.map(JSONOutline.quote).joined(separator: ", ") + "]")
                }
            }
            if let f = e.place.focus { place.append("\"focus\": \(f.rowID)") }
            return s + ", \"place\": {\(place.joined(separator: ", "))}}"
        }
        return "[" + items.joined(separator: ",\n ") + "]"
    }
}
