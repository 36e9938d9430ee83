import ArgumentParser

/// `burrow redo [N]`
struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo", _superCommandName: Burrow.toolName,
        abstract: "Redo the latest undone actions.",
        discussion: "Undone actions can be redone until a new action is made, by any burrow.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "How many actions to redo.")
    var count = 1

    func validate() throws {
        if count < 1 { throw ValidationError("the count must be at least 1") }
    }

    func run() throws {
        try database.writeExisting { try Undo.replay($0, undoing: false, count: count) }
    }
}
