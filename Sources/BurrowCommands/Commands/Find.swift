import ArgumentParser
import ObjectGraph
import Outline
import TerminalKit

/// `burrow find QUERY [--json] [--limit N]`
struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", _superCommandName: Burrow.toolName,
        abstract: "Find the items whose title or note contains a text, or that a query's filters match.",
        discussion: """
            Case and diacritics are ignored (godel finds Gödel); the hits come in outline order, as #ID  path › title, \
            with "(in the note)" where only the note holds the text. Exits 1 when nothing is found, as grep does.

            Filters, all of which must hold, with words and "quoted phrases" the title or note must contain: \
            state:TODO (state:TODO,NEXT, state:none, state:any), tag:work or #work, pri:A (pri:none), \
            due: and sched: with a day (today, tomorrow, fri, +3d, 7d, 2026-12-01) after <, <=, >, >= or nothing \
            (that day), or any, none; is:done, is:open, is:task. \
            For example: burrow find 'state:TODO #work due:<7d'.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The text to find (anywhere in a title or note, even inside a word), or a query with filters.")
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
        // One snapshot for the whole search: the walk reads the outline a page at a time, and a writer in
        // another process (the outliner, a sync) must not make it skip an item or print one twice.
        try database.read { o in try o.context.reading { try find(o) } }
    }

    func find(_ o: Outline) throws {
        let parsed: ItemQuery
        do {
            parsed = try ItemQuery(query, today: Outline.today(), workflow: try o.workflow())
        } catch {
            throw UserError("cannot read the query: \(error)")
        }
        let hits: ArraySlice<ObjectID>
        // Without filters or quotes the query is one text, as it always was (`find milk bread`).
        let isQuery = parsed.hasFilters || query.contains("\"")
        if isQuery {
            hits = try o.items(matching: parsed).prefix(limit ?? Int.max)
        } else {
            // With a limit, the hits in order first: a common word fills it after a few items, without
            // counting every hit in the index (a count `find` never prints).
            let results = try limit.map { try o.find(query, firstScreen: $0) } ?? o.find(query)
            try results.load(upTo: limit ?? Int.max)
            hits = results.ordered.prefix(limit ?? Int.max)
        }
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
            if hits.isEmpty { throw ExitCode(1) }
            return
        }
        // Nothing found: nothing on stdout and status 1, so `if burrow find X` and pipes work; the sentence
        // goes to stderr for whoever reads the terminal.
        if hits.isEmpty {
            Console.current.err((parsed.hasFilters ? "(nothing matches “" : "(nothing contains “") + Sanitizer.visible(query) + "”)\n")
            throw ExitCode(1)
        }
        let folded = (isQuery ? parsed.text : [query]).map(TextFolding.fold)
        for id in hits {
            let titles = try o.titles(downTo: id).dropFirst()
            guard let title = titles.last else { continue }  // deleted meanwhile
            let inNote = !folded.isEmpty && !folded.allSatisfy { TextFolding.fold(title).contains($0) }
            say("#\(id.rowID)  " + titles.map(Sanitizer.visible).joined(separator: " › ") + (inNote ? "  (in the note)" : ""))
        }
    }
}
