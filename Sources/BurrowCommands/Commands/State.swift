import ArgumentParser
import ObjectGraph
import Outline
import TerminalKit

/// `burrow state PATH [STATE|none] [--priority A|none]`
struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state", _superCommandName: Burrow.toolName,
        abstract: "Show or set an item's task state (TODO, DONE, or the outline's own) and priority.",
        discussion: "Done follows the state: a done state (DONE) marks the item done and closes it now; none makes it a plain item.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item.")
    var path: String

    @Argument(help: "The state to set (none: a plain item). Without it, the state is printed.")
    var state: String?

    @Option(help: "The priority to set: one letter (A, B, C) or none.")
    var priority: String?

    func validate() throws {
        if let state, state != "none", state.isEmpty || state.contains(where: \.isWhitespace) || state == "|" {
            throw ValidationError("a state is one word (TODO, NEXT, DONE), or none")
        }
        if let priority, priority != "none", priority.count != 1 || priority.first!.isWhitespace {
            throw ValidationError("a priority is one character (A, B, C), or none")
        }
    }

    func run() throws {
        guard state != nil || priority != nil else {
            try database.read { o in
                let item = try o.item(at: path)
                say(
                    Sanitizer.visible([item.state ?? "(no state)", item.priority.map { "priority \($0)" }].compactMap { $0 }.joined(separator: " · "))
                )
            }
            return
        }
        try database.writeExisting { o in
            let item = try o.perform { () throws -> Item in
                let item = try o.item(at: path)
                guard !item.isRoot else { throw UserError("the top of the outline is no task") }
                if let state { try o.setState(item.objectID, to: state == "none" ? nil : state) }
                if let priority { item.priority = priority == "none" ? nil : priority }
                o.recordPlace(of: item)
                o.context.setActionName("Change the task of " + o.quoted(item))
                return item
            }
            let workflow = try o.workflow(at: item.objectID)
            if let state, state != "none", !workflow.states.contains(state) {
                say(
                    Sanitizer.visible(
                        "Note: \(state) is not in the outline's workflow (\(workflow.states.joined(separator: " "))); Org export declares it"))
            }
            say(Sanitizer.visible((item.state ?? "No state") + (item.priority.map { " [#\($0)]" } ?? "")) + ": " + o.quoted(item))
        }
    }
}
