import ArgumentParser
import Foundation
import Outline

extension OutlineFormat: ExpressibleByArgument {}

/// `burrow export [PATH] [--format opml|markdown|org|text|json] [-o FILE]`
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
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
            var progress = Progress("exporting", total: nil)
            let below = try o.nodes(under: item) { progress.update($0) }
            progress.finish()
            let nodes = item.isRoot ? below : [OutlineNode(item.title, note: item.note, done: item.isDone, children: below)]
            let fmt = format ?? output.flatMap { OutlineFormat.guess(fileName: $0) } ?? .opml
            if let limit = fmt.maximumLevels, let levels = nodes.map(\.levels).max(), levels > limit {
                // Refused rather than written: import would refuse the file (and it would be gigabytes).
                throw UserError("the outline is \(levels) levels deep and \(fmt.rawValue) holds at most \(limit): export it as OPML or JSON")
            }
            let text = fmt.write(nodes, title: item.isRoot ? "Burrow" : item.title)
            guard let output else {
                Console.current.out(text)
                return
            }
            do {
                // Written whole then renamed into place: a failed export never leaves half a file.
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw UserError("cannot write \(output): \((error as NSError).localizedDescription)")
            }
            let count = nodes.reduce(0) { $0 + $1.count }
            Console.current.err("Exported \(count) item\(count == 1 ? "" : "s") to \(output) (\(fmt.rawValue))\n")
        }
    }
}
