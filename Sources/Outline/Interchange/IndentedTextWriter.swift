import Foundation

/// Writes indented text an item at a time (see `OutlineWriter`): a line per item, a tab a level, the title
/// on one line without leading blanks.
struct IndentedTextWriter: OutlineWriter {
    func begin(into out: inout [UInt8]) {}

    func enter(_ node: OutlineNode, depth: Int, hasChildren: Bool, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
        var title = node.title
        title.withUTF8 { bytes in
            // Most titles have no line break and start with no blank: copy them whole.
            if let first = bytes.first, first != 0x20, first != 0x09, !bytes.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                out.append(contentsOf: bytes)
            } else {
                out.append(contentsOf: Self.flattened(node.title).utf8)
            }
        }
        out.append(0x0A)
    }

    func leave(depth: Int, into out: inout [UInt8]) {}

    func end(into out: inout [UInt8]) {}

    /// Each line break a space, then the blanks (whole characters) at the start dropped.
    private static func flattened(_ title: String) -> String {
        let title = title.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
        return String(title.drop { $0 == " " || $0 == "\t" })
    }
}
