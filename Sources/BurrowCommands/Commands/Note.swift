import ArgumentParser
import Foundation
import ObjectGraph
import Outline

/// `burrow note PATH [TEXT|-]`
struct Note: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note", _superCommandName: Burrow.toolName,
        abstract: "Show an item's note, or set it: to TEXT, or to standard input with -.",
        discussion: """
            Without TEXT, prints the note as stored (nothing when the item has none). With TEXT, the note \
            becomes TEXT; an empty TEXT ("") removes it. With -, the note is all of standard input, less one \
            line break at the end (what an editor or `echo` adds).
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item.")
    var path: String

    @Argument(help: "The new note; \"\" removes it; - reads it from standard input.")
    var text: String?

    func run() throws {
        guard let text else {
            try database.read { o in
                let item = try o.item(at: path)
                if let note = item.note, !note.isEmpty { say(note) }
            }
            return
        }
        let note = text == "-" ? try Note.standardInput() : text
        try database.writeExisting { o in
            let (item, change) = try o.perform { () throws -> (Item, String) in
                let item = try o.item(at: path)
                guard !item.isRoot else { throw UserError("the top of the outline has no note") }
                let old = item.note ?? ""
                guard old != note else { return (item, "unchanged") }
                item.note = note.isEmpty ? nil : note
                o.recordPlace(of: item)
                let change = note.isEmpty ? "Removed the note of" : old.isEmpty ? "Added a note to" : "Changed the note of"
                o.context.setActionName("\(change) \(o.quoted(item))")
                return (item, change)
            }
            if change == "unchanged" {
                say("The note of \(o.quoted(item)) is unchanged")
            } else {
                say("\(change) \(o.quoted(item))")
            }
        }
    }

    /// Standard input as text, less one line break at the end. Bytes that are not UTF-8 are refused: a
    /// note stored with stand-ins for them would lose what the user meant without saying so.
    static func standardInput() throws -> String {
        let data = Console.current.input()
        guard var text = String(validating: data, as: UTF8.self) else {
            throw UserError("standard input is not UTF-8 text; nothing was changed")
        }
        if text.hasSuffix("\r\n") {
            text.removeLast()  // "\r\n" is one Character
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        return text
    }
}
