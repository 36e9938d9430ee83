import ArgumentParser
import Outline
import TerminalKit

/// `burrow find QUERY [--json] [--limit N]`
struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the items whose title or note contains a text.",
        discussion: "Case and diacritics are ignored (godel finds Gödel); the hits come in outline order, as #ID  path › title.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The text to find (anywhere in a title or note, even inside a word).")
    var query: String

    @Option(help: "Show at most this many hits (default: all).")
    var limit: Int?

    @Flag(help: "Print JSON: an array of id, title, path (the titles above it), done and note.")
    var json = false

    func validate() throws {
        if query.isEmpty { throw ValidationError("the text to find is empty") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        try database.read { try find($0) }
    }

    func find(_ o: Outline) throws {
        let results = try o.find(query)
        try results.load(upTo: limit ?? Int.max)
        let hits = results.ordered.prefix(limit ?? Int.max)
        if json {
            var s = "["
            for id in hits {
                guard let row = try o.row(id) else { continue }  // deleted meanwhile
                let path = try o.titles(downTo: id).dropFirst().dropLast()
                s += (s == "[" ? "" : ",\n ") + "{\"id\": \(id.rowID), \"title\": " + JSONOutline.quote(row.title)
                s += ", \"path\": [" + path.map(JSONOutline.quote).joined(separator: ", ") + "]"
                s += ", \"done\": \(row.isDone)"
                if row.hasNote, let note = try o.note(of: id) { s += ", \"note\": " + JSONOutline.quote(note) }
                s += "}"
            }
            say(s + "]")
            return
        }
        if hits.isEmpty { say("(nothing contains “\(Sanitizer.visible(query))”)") }
        for id in hits {
            let titles = try o.titles(downTo: id).dropFirst()
            guard !titles.isEmpty else { continue }  // deleted meanwhile
            say("#\(id.rowID)  " + titles.map(Sanitizer.visible).joined(separator: " › "))
        }
    }
}
