import ArgumentParser
import Foundation
import Outline

/// The `burrow` command. The full-screen outliner and the scripting subcommands arrive with their issues;
/// for now it opens (or creates) the outline database and prints the outline as an indented tree.
@main
struct Burrow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burrow",
        abstract: "A terminal outliner.",
        version: BurrowVersion.current)

    @Option(name: .long, help: "The outline database (default: $BURROW_DB, else $XDG_DATA_HOME/burrow/outline.sqlite).")
    var db: String?

    @Option(name: .long, help: "How many levels to print.")
    var depth: Int = 3

    func run() throws {
        do {
            let path = try OutlineLocation.resolve(explicit: db)
            let outline = try Outline(path: path)
            let root = try outline.root()
            print("\(root.title) — \(path)")
            if root.childCount == 0 { print("  (empty: the full-screen outliner will let you add items)") }
            try printLevel(outline, root, indent: 1)
        } catch {
            // One clear line on stderr, exit 1: the user's file is left as it was.
            FileHandle.standardError.write(Data("burrow: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func printLevel(_ outline: Outline, _ parent: Item, indent: Int) throws {
        guard indent <= depth else { return }
        for item in try outline.children(of: parent) {
            let box = item.isDone ? "[x]" : "[ ]"
            let more = item.childCount > 0 && indent == depth ? " (\(item.childCount))" : ""
            print(String(repeating: "  ", count: indent) + box + " " + Sanitized.line(item.title) + more)
            try printLevel(outline, item, indent: indent + 1)
        }
    }
}

enum BurrowVersion {
    static let current = "0.1.0"
}

/// Titles are untrusted: control characters are printed visibly, never sent to the terminal.
enum Sanitized {
    static func line(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x00...0x1F: out += "^" + String(UnicodeScalar(u.value + 0x40)!)
            case 0x7F: out += "^?"
            case 0x80...0x9F: out += "<U+\(String(u.value, radix: 16, uppercase: true))>"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
