import ArgumentParser
import Foundation
import ObjectGraph
import Outline

/// `burrow import FILE|- [--format auto|opml|markdown|org|text|json] [--under PATH]`
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", _superCommandName: Burrow.toolName,
        abstract: "Add the items of an OPML, Markdown, Org, text or JSON file; nothing is added if the file is bad.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case auto, opml, markdown, org, text, json
    }

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The file to read; - reads standard input.")
    var file: String

    @Option(help: "auto (from the file name, else the content; text only by name), opml, markdown, org, text or json.")
    var format: Format = .auto

    @Option(help: "The item to add under (default: the top level).")
    var under: String?

    func run() throws {
        // A file is mapped, not read: a big OPML file is read where it lies, once, and its pages go as they
        // are read. What cannot be mapped (standard input, an empty file) is read into memory.
        let mapped = file == "-" ? nil : MappedFile(path: file)
        // `data` below points into the mapping without owning it: the mapping stays until the command ends.
        defer { withExtendedLifetime(mapped) {} }
        let data: Data
        if let mapped {
            data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: mapped.bytes.baseAddress!), count: mapped.bytes.count, deallocator: .none)
        } else if file == "-" {
            data = Console.current.input()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw UserError("cannot read \(file): \((error as NSError).localizedDescription)")
            }
        }
        let name = file == "-" ? "standard input" : file
        let named = OutlineFormat(rawValue: format.rawValue) ?? (file == "-" ? nil : OutlineFormat.guess(fileName: file))
        // Named by its extension, else by how it starts; never guessed (any text reads as indented text, so
        // that fallback turned an Org file into 100,002 flat items).
        let sniffed = named == nil ? data.withUnsafeBytes { OutlineFormat.sniff(bytes: $0.bindMemory(to: UInt8.self)) } : nil
        guard let fmt = named ?? sniffed else {
            throw UserError("cannot tell the format of \(name); name it with --format \(OutlineFormat.names)")
        }
        // Items are written as they are read, so a million items are never all in memory: OPML from its bytes
        // (its declared encoding honoured), Org and indented text line by line, Markdown and JSON as they are
        // read (after a first pass that finds faults and late members). A fault found on the way rolls the whole import back. Text must be UTF-8: checked
        // before the store is opened.
        let text = fmt == .opml ? nil : try Import.utf8(data, name: name)
        if text != nil { mapped?.releasePages() }
        // Into a new outline, the store is written aside and takes its name when complete (`Store.makeNew`);
        // into one that exists, or where that cannot be done, the ordinary way.
        let importing = { (o: Outline) throws -> (total: Int, parent: String, keptPreamble: Bool) in
            var progress = Progress("importing", total: nil)
            // All that can fail is done inside the transaction, the reading of an OPML file included. After the
            // commit come only messages, so no import is left half done for a retry to add again.
            // The undo history names the file: "Undid: Import “notes.md” (1234 items)".
            let source = file == "-" ? "from standard input" : "“" + URL(fileURLWithPath: file).lastPathComponent + "”"
            var keptPreamble = false
            let (parent, total) = try o.perform("Import \(source)") { () throws -> (Item, Int) in
                let parent = try o.item(at: under ?? "")
                o.context.setActionPlace(ActionPlace(container: parent.objectID))
                var loader = try OutlineLoader(o, under: parent)
                var preamble: String?
                do {
                    // The file is read and its rows made on another thread while this one writes them: two
                    // cores, and the writing alone is what a user waits for.
                    let maker = loader.handOverRows()
                    let fromFile = mapped != nil
                    let ahead = ReadAhead<ItemRowMaker.Made, String?> { emit in
                        var maker = maker
                        var preamble: String?
                        let each = { (node: OutlineNode, depth: Int) throws in try emit(maker.make(node, depth: depth)) }
                        if let text {
                            // An Org file's settings and introduction (a Markdown file's blocks before its first
                            // item) are the note of the item it goes under (the outline's own at the top), not an
                            // item: `burrow export` writes them back there.
                            try fmt.read(text, preamble: { preamble = $0 }, each: each)
                        } else {
                            try OPML.read(bytes: data, mappedFromFile: fromFile, each: each)
                        }
                        return preamble
                    }
                    defer { ahead.finish() }
                    while var batch = try ahead.next() {
                        try loader.add(contentsOf: &batch)
                        progress.update(loader.count)
                    }
                    preamble = ahead.outcome ?? nil
                } catch let error as InterchangeError {
                    throw UserError("\(name): \(error.description)")
                }
                try loader.finish()
                if let preamble {
                    Import.keep(preamble, asNoteOf: parent)
                    keptPreamble = true
                }
                let n = loader.count
                o.context.setActionName("Import \(source) (\(n) item\(n == 1 ? "" : "s"))")
                return (parent, n)
            }
            progress.finish()
            return (total, o.quoted(parent), keptPreamble)
        }
        let tell = { (done: (total: Int, parent: String, keptPreamble: Bool)) in
            say("Imported \(done.total) item\(done.total == 1 ? "" : "s") from \(name) (\(fmt.rawValue)) under \(done.parent)")
            // Said, so that text that became no item is not taken for lost.
            if done.keptPreamble {
                let first = fmt == .org ? "headline" : "item"
                say("Its text before the first \(first) is the note of \(done.parent) (burrow export writes it back)")
            }
        }
        if let done = try database.writeNew(importing) {
            tell(done)
        } else {
            try database.write { o in tell(try importing(o)) }
        }
    }

    /// Puts a file's text above its first headline in `parent`'s note: the whole note when it has none, else
    /// after it (a blank line between), unless the note holds that text already (the same file imported again).
    static func keep(_ preamble: String, asNoteOf parent: Item) {
        guard let note = parent.note, !note.isEmpty else {
            parent.note = preamble
            return
        }
        if !note.contains(preamble) { parent.note = note + "\n\n" + preamble }
    }

    /// The text of a file that must be UTF-8 (a byte-order mark is dropped); otherwise an error that
    /// says where the first bad byte is.
    static func utf8(_ data: Data, name: String) throws -> String {
        // Checked where the bytes lie (a mapped file is not copied first); the slow walk only for an error.
        let bom = data.starts(with: [0xEF, 0xBB, 0xBF])
        if let s = String(validating: bom ? data.dropFirst(3) : data[...], as: UTF8.self) { return s }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        // Walk the sequences by their lead byte until one does not decode.
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b >> 5 == 0b110 ? 2 : b >> 4 == 0b1110 ? 3 : b >> 3 == 0b11110 ? 4 : 0
            if length == 0 || i + length > bytes.count || String(validating: bytes[i..<(i + length)], as: UTF8.self) == nil {
                let lineStart = (bytes[..<i].lastIndex(of: 0x0A) ?? -1) + 1
                let line = bytes[..<i].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
                let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
                throw UserError(
                    "\(name) line \(line), column \(column): not UTF-8 (byte 0x\(String(b, radix: 16, uppercase: true))); convert the file to UTF-8")
            }
            i += length
        }
        throw UserError("\(name) is not UTF-8")
    }
}
