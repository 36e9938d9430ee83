import ArgumentParser
import ObjectGraph
import Outline
import TerminalKit

/// `burrow undo [N]`
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", _superCommandName: Burrow.toolName,
        abstract: "Undo the latest actions, whichever burrow made them.",
        discussion: """
            The outline keeps one undo history, shared by the outliner and every command, that survives quitting: \
            undo takes the newest action not undone yet. An action that would overwrite a later change made \
            without an undo step is reported and skipped, and the one before it is undone instead.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "How many actions to undo.")
    var count = 1

    func validate() throws {
        if count < 1 { throw ValidationError("the count must be at least 1") }
    }

    func run() throws {
        try database.writeExisting { try Undo.replay($0, undoing: true, count: count) }
    }

    /// Undoes (or redoes) `count` actions, one transaction each, saying what each was; conflicts are
    /// reported on stderr and skipped. Fails when nothing at all could be done.
    static func replay(_ o: Outline, undoing: Bool, count: Int) throws {
        var done = 0, skipped = 0
        while done < count {
            let entry: HistoryEntry?
            do {
                entry = try undoing ? o.context.undoAction() : o.context.redoAction()
            } catch let conflict as UndoConflict {
                // Each skipped action is passed over for good, so the next try meets the one before it.
                Console.current.err("burrow: skipped: \(Sanitizer.visible(conflict.description))\n")
                skipped += 1
                continue
            }
            guard let entry else { break }
            done += 1
            say("\(undoing ? "Undid" : "Redid"): \(Sanitizer.visible(entry.name)) (\(Undo.describe(entry, in: o)))")
        }
        if done == 0 && skipped == 0 { throw UserError(undoing ? "nothing to undo" : "nothing to redo") }
    }

    /// "outliner, 2 min ago, in Burrow › Groceries".
    static func describe(_ entry: HistoryEntry, in o: Outline) -> String {
        var parts = [entry.origin.isEmpty ? "another program" : Sanitizer.visible(entry.origin), entry.age()]
        // The place is for reading only: an item gone (or unreadable) has none.
        if let container = entry.place.container, let titles = try? o.titles(downTo: container), !titles.isEmpty {
            parts.append("in " + Sanitizer.visible(titles.joined(separator: " › ")))
        }
        return parts.joined(separator: ", ")
    }
}
