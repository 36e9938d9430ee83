import ArgumentParser
import Foundation
import Outline
import TerminalKit

/// `burrow agenda [--days N] [--from DAY] [--json]`
struct AgendaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agenda", _superCommandName: Burrow.toolName,
        abstract: "List the tasks overdue, then each day's planned and due tasks, from today.",
        discussion: "A task is an item with a planned day or a deadline (burrow schedule, or SCHEDULED:/DEADLINE: from Org); done ones are left out.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "How many days from the first (default: 7).")
    var days = 7

    @Option(help: "The first day (2026-12-01; default: today).")
    var from: String?

    @Flag(help: "Print JSON: overdue and days, each entry with id, title, state, priority, scheduled, deadline and path.")
    var json = false

    func validate() throws {
        guard days >= 1, days <= 366 else { throw ValidationError("--days must be from 1 to 366") }
        if let from, Outline.timestamp(from)?.count != 10 { throw ValidationError("--from must be a day: 2026-12-01") }
    }

    func run() throws {
        try database.read { o in
            // As given (`<2026-12-01 Tue>` too), the day alone.
            let first = from.flatMap { Outline.timestamp($0) } ?? Outline.today()
            let agenda = try o.agenda(from: first, days: days)
            if json {
                say(Self.json(agenda))
                return
            }
            if !agenda.overdue.isEmpty {
                say("Overdue")
                for e in agenda.overdue { say(Self.line(e, showing: true)) }
            }
            for (day, entries) in agenda.days {
                let name = Agenda.weekday(day)
                say("\(name) \(day)" + (day == Outline.today() ? " (today)" : ""))
                if entries.isEmpty { say("  (nothing)") }
                for e in entries { say(Self.line(e, showing: false)) }
            }
        }
    }

    /// `  09:00 TODO [#A] Call Bob · due · Work › Calls`; overdue entries say which day they were for.
    static func line(_ e: Agenda.Entry, showing day: Bool) -> String {
        var s = "  " + (e.time.map { $0 + " " } ?? "")
        if let state = e.row.state { s += Sanitizer.visible(state) + " " }
        if let p = e.row.priority { s += "[#" + Sanitizer.visible(p) + "] " }
        s += Sanitizer.visible(e.row.title)
        let stamp = e.isDeadline ? e.row.deadline : e.row.scheduled
        if day, let stamp {
            s += (e.isDeadline ? " · was due " : " · was planned for ") + String(stamp.prefix(10))
        } else if e.isDeadline {
            s += " · due"
        }
        if !e.path.isEmpty { s += " · " + e.path.map { Sanitizer.visible($0) }.joined(separator: " › ") }
        return s
    }

    static func json(_ agenda: Agenda) -> String {
        func entry(_ e: Agenda.Entry) -> String {
            var s = "{\"id\": \(e.row.id.rowID), \"title\": " + JSONOutline.quote(e.row.title)
            for (key, value) in [("state", e.row.state), ("priority", e.row.priority), ("scheduled", e.row.scheduled), ("deadline", e.row.deadline)] {
                if let value { s += ", \"\(key)\": " + JSONOutline.quote(value) }
            }
            return s + ", \"path\": [" + e.path.map(JSONOutline.quote).joined(separator: ", ") + "]}"
        }
        let days = agenda.days.map { day, entries in
            "{\"day\": \"\(day)\", \"entries\": [" + entries.map(entry).joined(separator: ", ") + "]}"
        }
        return "{\"overdue\": [" + agenda.overdue.map(entry).joined(separator: ", ") + "], \"days\": [" + days.joined(separator: ",\n ") + "]}"
    }
}
