import ArgumentParser
import Foundation
import ObjectGraph
import Outline
import TerminalKit

/// `burrow add TEXT… [--under PATH] [--top]`
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", _superCommandName: Burrow.toolName,
        abstract: "Add items: one per argument, or one per line from standard input with -.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The item to add under (a path or #ID; default: the top level).")
    var under: String?

    @Flag(help: "Add at the top of the level instead of at the end.")
    var top = false

    @Flag(help: "Take each text as the title as it is: no state, !A, due: or sched: tokens.")
    var literal = false

    @Argument(help: "The titles, as the capture line reads them (TODO Call Bob !A due:fri); - reads one per line from standard input.")
    var texts: [String]

    func validate() throws {
        if texts.isEmpty { throw ValidationError("give at least one title, or - to read them from standard input") }
        // As the outliner's capture line refuses an empty title, and as rename does.
        if texts.contains(where: Add.isBlank) {
            throw ValidationError("a title is empty: give at least one character other than a space")
        }
    }

    /// True for a text of spaces only (or nothing): what `trimmingCharacters(in: .whitespaces)` empties, the
    /// scalars of Unicode's category Zs, the tab and (in Foundation's set, as Unicode once had it) the zero-width
    /// space, read without Foundation's character sets (their first use is a tenth of a quick `add`).
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    func run() throws {
        var titles: [String] = []
        for t in texts {
            if t == "-" {
                // `\r\n` is one Character: split on any line break, not on "\n".
                // Blank lines (spaces only) are no titles: skipped, as empty lines are.
                titles += String(decoding: Console.current.input(), as: UTF8.self).split(whereSeparator: \.isNewline)
                    .filter { !$0.allSatisfy(\.isWhitespace) }.map(String.init)
            } else {
                titles.append(t)
            }
        }
        guard !titles.isEmpty else { throw UserError("nothing to add: standard input was empty") }
        try database.write { o in
            // Read as the outliner's capture line reads them: the tokens become the task's, the rest its title.
            let workflow = literal ? .standard : try o.workflow(at: try o.item(at: under ?? "").objectID)
            let today = Outline.today()
            let captured = titles.map { literal ? nil : CaptureLine($0, today: today, workflow: workflow) }
            titles = zip(titles, captured).map { $1?.title ?? $0 }
            let (parent, added) = try o.perform(titles.count == 1 ? "Add “\(titles[0])”" : "Add \(titles.count) items") {
                let parent = try o.item(at: under ?? "")
                o.setActionPlace(ActionPlace(container: parent.objectID))
                let ids =
                    top
                    ? try titles.enumerated().map { try o.insert($1, into: parent.objectID, at: $0) }
                    : try o.append(titles: titles, to: parent.objectID)
                for (id, c) in zip(ids, captured) { if let extras = c?.extras { try o.setTask(id, extras) } }
                return (parent, ids)
            }
            for (k, (title, id)) in zip(titles, added).enumerated() {
                let took = captured[k]?.summary.map { " (" + Sanitizer.visible($0) + ")" } ?? ""
                say("Added \(Sanitizer.visible("“\(title)”")) #\(id.rowID) under \(o.quoted(parent))" + took)
            }
        }
    }
}
