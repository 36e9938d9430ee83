import Foundation

/// The benchmark's large outlines, written here so every scenario runs from a fresh clone. The files are
/// byte for byte those of the generator the earlier figures in PERFORMANCE.md were measured on
/// (`gen_outline.py N`, kept outside the project), so old and new figures stay comparable.
///
/// Shape: 10 top-level items, 10 children each, 10 grandchildren each (1,110 inner items, depth 3), and the
/// rest of `size` as leaves at depth 4 spread over the 1,000 third-level items, the first
/// `(size - 1110) % 1000` of them taking one more. A size under 1,110 still gives the 1,110 inner items, as
/// that generator did. Each item's text is "L<depth> <path> quick brown fox <last index>", e.g.
/// "L4 3.1.7.42 quick brown fox 42".
struct OutlineGenerator {
    /// The number of items asked for (the outline has at least the 1,110 inner items).
    let size: Int

    /// The files the benchmarks read: hnb's XML (the hnb baseline), OPML (import) and tab-indented text
    /// (the start-up setup). The old generator's other formats (org, Markdown, h-m-m, SQLite) are left out
    /// because no scenario reads them.
    static let files = ["big.hnb", "big.opml", "big.txt"]

    private static let fanOut = 10
    private static let inner = fanOut + fanOut * fanOut + fanOut * fanOut * fanOut

    /// The number of items the outline holds.
    var count: Int { max(size, Self.inner) }

    /// Writes `files` into `dir` (made if missing, files replaced) in one pass, through a 64 KiB buffer per
    /// file: a million items make 180 MB of files, which need not sit in memory.
    func write(to dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var hnb = try Sink(dir + "/big.hnb")
        var opml = try Sink(dir + "/big.opml")
        var txt = try Sink(dir + "/big.txt")
        // The item text is letters, digits, dots and spaces only, so the XML escaping the old generator
        // applied (`escape`, `quoteattr`) never changed a byte and is not repeated here.
        try hnb.append(
            """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <!DOCTYPE tree[
            \t<!ELEMENT tree (node*)>
            \t<!ELEMENT data (#PCDATA)>
            \t<!ELEMENT node (data?,node*)>
            \t<!ATTLIST node done (yes|no) #IMPLIED
            \t          type CDATA #IMPLIED
            \t>]>

            <tree>

            """)
        try opml.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
            <head><title>big outline</title></head>
            <body>

            """)
        // Both XML forms keep an item's element open until the next item at its depth or above (or the end).
        var openDepth = 0
        func close(downTo depth: Int) throws {
            while openDepth >= depth {
                try hnb.repeated(UInt8(ascii: "\t"), openDepth - 1)
                try hnb.append("</node>\n")
                try opml.repeated(UInt8(ascii: " "), 2 * openDepth)
                try opml.append("</outline>\n")
                openDepth -= 1
            }
        }
        try forEachItem { depth, path in
            try close(downTo: depth)
            try hnb.repeated(UInt8(ascii: "\t"), depth - 1)
            try hnb.append("<node><data>")
            try hnb.text(depth, path)
            try hnb.append("</data>\n")
            try opml.repeated(UInt8(ascii: " "), 2 * depth)
            try opml.append("<outline text=\"")
            try opml.text(depth, path)
            try opml.append("\">\n")
            try txt.repeated(UInt8(ascii: "\t"), depth - 1)
            try txt.text(depth, path)
            try txt.append("\n")
            openDepth = depth
        }
        try close(downTo: 1)
        try hnb.append("</tree>\n")
        try opml.append("</body>\n</opml>\n")
        try hnb.close()
        try opml.close()
        try txt.close()
    }

    /// Calls `body` with each item's depth (1...4) and index path (1-based, `depth` entries used) in document
    /// order.
    func forEachItem(_ body: (Int, (Int, Int, Int, Int)) throws -> Void) rethrows {
        let n = Self.fanOut
        let leaves = max(0, size - Self.inner)
        let (base, extra) = leaves.quotientAndRemainder(dividingBy: n * n * n)
        var third = 0
        for a in 1...n {
            try body(1, (a, 0, 0, 0))
            for b in 1...n {
                try body(2, (a, b, 0, 0))
                for c in 1...n {
                    try body(3, (a, b, c, 0))
                    let count = base + (third < extra ? 1 : 0)
                    third += 1
                    for d in stride(from: 1, through: count, by: 1) { try body(4, (a, b, c, d)) }
                }
            }
        }
    }

    /// A file written through a buffer, flushed whenever it fills.
    private struct Sink {
        private let handle: FileHandle
        private var buffer: [UInt8] = []
        private static let capacity = 1 << 16

        init(_ path: String) throws {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            buffer.reserveCapacity(Self.capacity)
        }

        /// Appends literal ASCII text.
        mutating func append(_ s: StaticString) throws {
            s.withUTF8Buffer { buffer.append(contentsOf: $0) }
            try flushIfFull()
        }

        /// Appends `count` copies of `byte` (an indentation).
        mutating func repeated(_ byte: UInt8, _ count: Int) throws {
            guard count > 0 else { return }
            buffer.append(contentsOf: repeatElement(byte, count: count))
            try flushIfFull()
        }

        /// An item's text: "L<depth> <a>.<b>.<c>.<d> quick brown fox <last>".
        mutating func text(_ depth: Int, _ path: (Int, Int, Int, Int)) throws {
            buffer.append(UInt8(ascii: "L"))
            decimal(depth)
            buffer.append(UInt8(ascii: " "))
            decimal(path.0)
            for index in [path.1, path.2, path.3].prefix(depth - 1) {
                buffer.append(UInt8(ascii: "."))
                decimal(index)
            }
            buffer.append(contentsOf: " quick brown fox ".utf8)
            decimal(depth == 1 ? path.0 : depth == 2 ? path.1 : depth == 3 ? path.2 : path.3)
            try flushIfFull()
        }

        /// Appends a non-negative number in decimal, without going through a String per number.
        private mutating func decimal(_ value: Int) {
            if value >= 10 { decimal(value / 10) }
            buffer.append(UInt8(ascii: "0") + UInt8(value % 10))
        }

        private mutating func flushIfFull() throws {
            if buffer.count >= Self.capacity { try flush() }
        }

        private mutating func flush() throws {
            try handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes what is left and closes the file, so a failed write is thrown rather than lost.
        mutating func close() throws {
            try flush()
            try handle.close()
        }
    }
}
