import Outline
import TerminalKit

/// The text `y` puts on the system clipboard: one title a line, indented two spaces a level, which reads back
/// as the same outline (`IndentedText`, and a paste into the capture line). Titles come from the store, so they
/// are made safe to paste anywhere, a shell included: line breaks and tabs become spaces, leading blanks go
/// (they would read as indentation), and every other control character becomes its visible stand-in.
///
/// For example: “Groceries” with “Milk” below it is `"Groceries\n  Milk\n"`.
enum ClipboardText {
    static func make(_ rows: [SubtreeRow]) -> String {
        var out = ""
        for row in rows {
            let flat = String(row.title.map { $0.isNewline || $0 == "\t" ? " " : $0 }).drop { $0 == " " }
            out += String(repeating: "  ", count: row.depth) + Sanitizer.visible(flat) + "\n"
        }
        return out
    }
}
