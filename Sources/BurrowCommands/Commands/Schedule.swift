import ArgumentParser
import ObjectGraph
import Outline

/// `burrow schedule PATH DATE|none [--deadline]`
struct Schedule: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", _superCommandName: Burrow.toolName,
        abstract: "Plan an item for a day (or set its deadline with --deadline).",
        discussion: "DATE is 2026-12-01, optionally with a time and Org's repeater and warning: \"2026-12-01 09:00 +1w -2d\"; none clears it.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item.")
    var path: String

    @Argument(help: "The day (2026-12-01, \"2026-12-01 09:00 +1w\"), or none.")
    var date: String

    @Flag(help: "Set the deadline rather than when it is planned.")
    var deadline = false

    func run() throws {
        let kept: String?
        if date == "none" {
            kept = nil
        } else {
            guard let t = Outline.timestamp(date) else {
                throw UserError("“\(date)” is not a date: write 2026-12-01, optionally with a time (09:00) and a repeater (+1w)")
            }
            kept = t
        }
        try database.writeExisting { o in
            let item = try o.perform { () throws -> Item in
                let item = try o.item(at: path)
                guard !item.isRoot else { throw UserError("the top of the outline cannot be scheduled") }
                if deadline { item.deadline = kept } else { item.scheduled = kept }
                o.recordPlace(of: item)
                o.context.setActionName((deadline ? "Set the deadline of " : "Schedule ") + o.quoted(item))
                return item
            }
            let what = deadline ? "Due" : "Planned"
            say((kept.map { "\(what) \($0)" } ?? (deadline ? "No deadline" : "Not planned")) + ": " + o.quoted(item))
        }
    }
}
