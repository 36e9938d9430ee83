/// A Markdown text's lines as cmark numbers them (a line ends at LF, CR or CRLF), read back exactly, with
/// the indentation of the containers they are in taken off.
struct SourceLines {
    let bytes: [UInt8]
    /// Where each line starts and ends (before its line ending); line n is at index n - 1.
    private var ranges: [Range<Int>] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var start = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                ranges.append(start..<i)
                i += b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
                start = i
            } else {
                i += 1
            }
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
    }

    var count: Int { ranges.count }

    /// Line `number` (from 1) without the first `column` columns of its indentation (tabs stop every 4
    /// columns, as in CommonMark; a tab that crosses `column` leaves the rest of its width as spaces). A
    /// lazy line, indented less, loses only its blanks. On the line that holds the item's marker
    /// (`throughMarker`), the marker is skipped with the blanks.
    func line(_ number: Int, droppingColumns column: Int, throughMarker: Bool = false) -> ArraySlice<UInt8> {
        guard number >= 1 && number <= ranges.count else { return [] }
        let range = ranges[number - 1]
        var i = range.lowerBound
        var col = 0
        while col < column && i < range.upperBound {
            let b = bytes[i]
            if b == 0x09 {
                let next = (col / 4 + 1) * 4
                if next > column {
                    return ArraySlice(Array(repeating: 0x20, count: next - column) + bytes[(i + 1)..<range.upperBound])
                }
                col = next
            } else if b == 0x20 || throughMarker {
                col += 1
            } else {
                break
            }
            i += 1
        }
        return bytes[i..<range.upperBound]
    }

    /// The line holds only blanks (spaces and tabs), or nothing.
    func isBlank(_ number: Int) -> Bool {
        guard number >= 1 && number <= ranges.count else { return true }
        return bytes[ranges[number - 1]].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }
}
