/// A Markdown text's lines as cmark numbers them (a line ends at LF, CR or CRLF), read back exactly, with
/// the indentation of the containers they are in taken off. Over an array, or over the bytes of a text being
/// imported (not copied: a million-item file is tens of megabytes).
struct SourceLines<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
    let bytes: Bytes
    /// Where each line starts, and after them the end of the text: line n is from `starts[n - 1]` to before
    /// the line ending that precedes `starts[n]`.
    private var starts: [Int] = []

    init(_ bytes: Bytes) {
        self.bytes = bytes
        var i = bytes.startIndex
        var start = i
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                starts.append(start)
                i += b == 0x0D && i + 1 < bytes.endIndex && bytes[i + 1] == 0x0A ? 2 : 1
                start = i
            } else {
                i += 1
            }
        }
        if start < bytes.endIndex { starts.append(start) }
        starts.append(bytes.endIndex)
    }

    var count: Int { starts.count - 1 }

    /// The columns of line `number`'s indentation (tabs stop every 4), and whether it holds nothing else.
    func indentation(_ number: Int) -> (columns: Int, blank: Bool) {
        guard number >= 1 && number <= count else { return (0, true) }
        var col = 0
        for i in range(number) {
            switch bytes[i] {
            case 0x20: col += 1
            case 0x09: col = (col / 4 + 1) * 4
            default: return (col, false)
            }
        }
        return (col, true)
    }

    /// The bytes of line `number` (from 1), without its line ending.
    private func range(_ number: Int) -> Range<Int> {
        let start = starts[number - 1]
        var end = starts[number]
        if end > start && bytes[end - 1] == 0x0A { end -= 1 }
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// Line `number` (from 1) without the first `column` columns of its indentation (tabs stop every 4
    /// columns, as in CommonMark; a tab that crosses `column` leaves the rest of its width as spaces). A
    /// lazy line, indented less, loses only its blanks. On the line that holds the item's marker
    /// (`throughMarker`), the marker is skipped with the blanks.
    func line(_ number: Int, droppingColumns column: Int, throughMarker: Bool = false) -> ArraySlice<UInt8> {
        guard number >= 1 && number <= count else { return [] }
        let range = range(number)
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
        return ArraySlice(bytes[i..<range.upperBound])
    }
}
