import BurrowSettings
import ObjectGraph
import Outline
import TerminalKit

/// What copying and moving many items share: the outermost of the selection, how to name items, which went
/// meanwhile; and handing copied text to the terminal. (`Clipboard` has `y`, `m`, `p` and `P`.)
extension App {
    /// The most text `y` sends to the system clipboard: terminals take about this much (xterm's default limit
    /// is near it, and every byte is sent through the terminal and any ssh connection on the way).
    static let clipboardByteLimit = 100_000
    /// More items than this are not even read for the clipboard: their text would be larger than the limit
    /// at any length of title worth reading.
    static let clipboardItemLimit = 20_000

    /// The selection without items inside another selected item's subtree (they go with it), with the titles
    /// the user saw.
    func outermostSelection() throws -> [Named] {
        let rows = selectedItems
        var titles: [ObjectID: String] = [:]
        for row in rows { titles[row.id] = row.title }
        return try outline.outermost(rows.map(\.id)).map { ($0, titles[$0] ?? "") }
    }

    /// “A”, “A” and 3 sub-items, “A” and 2 other items, “A” and 2 other items with 5 sub-items.
    func describe(_ items: [Named], subItems: Int = 0) -> String {
        guard let first = items.first else { return "nothing" }
        var out = quoted(first.title)
        if items.count > 1 { out += " and \(items.count - 1) other item\(items.count == 2 ? "" : "s")" }
        if subItems > 0 { out += (items.count > 1 ? " with " : " and ") + "\(subItems) sub-item\(subItems == 1 ? "" : "s")" }
        return out
    }

    /// Hands text `y` copied to the terminal's clipboard (the run loop calls it after each event).
    public func deliverClipboard(to writer: any ClipboardWriter) {
        guard let text = clipboard.takeText() else { return }
        writer.copyToClipboard(text)
    }

    /// The items asked for that went meanwhile, for the end of a message.
    func missingNote(_ missing: [ObjectID], of items: [Named]) -> String {
        guard !missing.isEmpty else { return "" }
        let gone = items.filter { missing.contains($0.id) }
        return " (\(describe(gone)) \(gone.count == 1 ? "was" : "were") deleted meanwhile)"
    }

}
