import ArgumentParser
import Foundation
import Outline

extension OutlineFormat: ExpressibleByArgument {}

/// `burrow export [PATH] [--format opml|markdown|org|text|json] [-o FILE]`
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", _superCommandName: Burrow.toolName,
        abstract: "Write the outline, or one item with its sub-items, as OPML, Markdown, Org, text or JSON.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The item to export with its sub-items (default: the whole outline).")
    var path: String = ""

    @Option(help: "opml, markdown, org, text or json (default: from the -o file name, else opml).")
    var format: OutlineFormat?

    @Option(name: .shortAndLong, help: "The file to write (default: standard output).")
    var output: String?

    func run() throws {
        try database.read { o in
            let item = try o.item(at: path)
            let fmt = format ?? output.flatMap { OutlineFormat.guess(fileName: $0) } ?? .opml
            let title = item.isRoot ? "Burrow" : item.title
            // Counted only for a bar that may be drawn.
            let total = Console.current.errIsTerminal ? try o.exportCount(of: item) : nil
            var progress = Progress("exporting", total: total)
            guard let output else {
                defer { progress.finish() }
                // Standard output cannot be taken back: the depth is checked before anything is written.
                try o.export(
                    item, as: fmt, title: title, checkingDepthFirst: true,
                    write: { if !$0.isEmpty { Console.current.out(String(decoding: $0, as: UTF8.self)) } },
                    // Text on a terminal shows its own progress: a bar on the same terminal would be mixed into it.
                    progress: { if !Console.current.outIsTerminal { progress.update($0) } })
                return
            }
            let file = try ExportFile(path: output)
            let count: Int
            do {
                count = try o.export(item, as: fmt, title: title, write: file.write, progress: { progress.update($0) })
                try file.commit()
            } catch {
                progress.finish()
                file.discard()
                throw error
            }
            progress.finish()
            Console.current.err("Exported \(count) item\(count == 1 ? "" : "s") to \(output) (\(fmt.rawValue))\n")
        }
    }
}
