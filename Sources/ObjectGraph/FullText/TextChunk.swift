import CTextScan
import Foundation

/// The folded texts of a run of rows, as one row of a search index's table (`og_text_<Entity>`): the rows
/// whose IDs lie from the chunk's start up to the next chunk's start, in ascending ID order, each with one
/// text per indexed attribute (or none). A search reads every chunk and looks for the query's bytes in the
/// texts end to end, so a million rows cost a few thousand rows of SQLite, not a million.
///
/// Public as the store's file format, so that a baseline on the raw SQLite API can write what the store
/// writes:
///
/// ```swift
/// var chunk = TextChunk(columns: 2)
/// chunk.append(42) { $0 == 0 ? TextFolding.fold("Gödel") : nil }
/// let bytes = chunk.encoded(start: 42)   // stored under the key 42 in og_text_<Entity>
/// ```
///
/// Encoded as: a format byte; the number of rows; the length in bytes of the IDs that follow (so a scan can
/// look through the texts before it reads anything else); each row's ID less the one before (the first less
/// the chunk's start), as unsigned LEB128 varints; then the texts, row by row, attribute by attribute, each
/// ended by the byte 0xFF, none written as 0xFE alone. Neither byte occurs in UTF-8, so a query's bytes
/// never match across two texts, and a scan finds which row a match is in by counting the 0xFF before it.
public struct TextChunk: Sendable {
    /// The format byte an encoded chunk starts with.
    public static let format: UInt8 = 2
    /// A chunk is written when one more row would take it past this many bytes, so that most chunks fit one
    /// 4 KiB page whole (a row of up to 4,061 bytes is kept on its page, with no overflow pages to read); a
    /// store made since 2026-12-04 has 16 KiB pages, four chunks to a page.
    /// A row whose texts alone are bigger gets a chunk of its own.
    public static let capacity = 3_800

    /// The byte that ends each text.
    static let end: UInt8 = 0xFF
    /// The byte that stands for no text (followed by ``end``).
    static let none: UInt8 = 0xFE

    /// Indexed attributes per row.
    public let columns: Int
    /// The rows' IDs, ascending.
    public private(set) var ids: [Int64] = []
    /// The texts as stored: each ended by ``end``, none as ``none`` then ``end``, row after row. Kept in
    /// this form so that a row is carried from a chunk read to the one written as one copy of its bytes.
    private(set) var text: [UInt8] = []
    /// Where each row's texts end in ``text``.
    private(set) var rowEnds: [Int] = []
    /// About what ``encoded(start:)`` takes when the start is the first ID (a start further below adds a
    /// byte or two): kept as rows are appended, so filling a chunk costs no pass over it.
    public private(set) var size = TextChunk.emptySize

    /// Format byte and generous varints for the row count and the IDs' length.
    private static let emptySize = 1 + 5 + 3

    /// An empty chunk of rows with `columns` indexed attributes.
    public init(columns: Int) { self.columns = columns }

    /// True when it holds no row.
    public var isEmpty: Bool { ids.isEmpty }
    /// The rows it holds.
    public var count: Int { ids.count }

    /// Appends a row after the last one (a greater ID); `text(c)` gives attribute `c`'s text, nil for
    /// none.
    public mutating func append(_ id: Int64, text: (Int) -> String?) {
        size += TextChunk.varintSize(UInt64(bitPattern: id &- (ids.last ?? id)))
        ids.append(id)
        let before = self.text.count
        for c in 0..<columns {
            if let t = text(c) { self.text.append(contentsOf: t.utf8) } else { self.text.append(TextChunk.none) }
            self.text.append(TextChunk.end)
        }
        rowEnds.append(self.text.count)
        size += self.text.count - before
    }

    /// The bytes row `k`'s texts take, ends included.
    public func rowSize(_ k: Int) -> Int { rowEnds[k] - (k == 0 ? 0 : rowEnds[k - 1]) }

    /// Appends row `k` of `other` (a greater ID than the last here).
    mutating func append(row k: Int, of other: TextChunk) {
        let id = other.ids[k]
        size += TextChunk.varintSize(UInt64(bitPattern: id &- (ids.last ?? id))) + other.rowSize(k)
        ids.append(id)
        text.append(contentsOf: other.text[(k == 0 ? 0 : other.rowEnds[k - 1])..<other.rowEnds[k]])
        rowEnds.append(text.count)
    }

    /// Appends rows `range` of `other` (greater IDs than the last here) in one copy.
    mutating func append(rows range: Range<Int>, of other: TextChunk) {
        guard !range.isEmpty else { return }
        var previous = ids.last ?? other.ids[range.lowerBound]
        for k in range {
            size += TextChunk.varintSize(UInt64(bitPattern: other.ids[k] &- previous))
            previous = other.ids[k]
        }
        ids.append(contentsOf: other.ids[range])
        let from = range.lowerBound == 0 ? 0 : other.rowEnds[range.lowerBound - 1]
        let shift = text.count - from
        text.append(contentsOf: other.text[from..<other.rowEnds[range.upperBound - 1]])
        size += other.rowEnds[range.upperBound - 1] - from
        rowEnds.reserveCapacity(rowEnds.count + range.count)
        for k in range { rowEnds.append(other.rowEnds[k] + shift) }
    }

    /// Row `k`'s texts; nil for none.
    public func texts(ofRow k: Int) -> [String?] {
        var out: [String?] = []
        out.reserveCapacity(columns)
        var at = k == 0 ? 0 : rowEnds[k - 1]
        for _ in 0..<columns {
            var stop = at
            while text[stop] != TextChunk.end { stop += 1 }
            out.append(stop == at + 1 && text[at] == TextChunk.none ? nil : String(decoding: text[at..<stop], as: UTF8.self))
            at = stop + 1
        }
        return out
    }

    /// Empties it, keeping its storage.
    public mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        rowEnds.removeAll(keepingCapacity: true)
        size = TextChunk.emptySize
    }

    /// The chunk as stored under the key `start` (at most the first ID).
    public func encoded(start: Int64) -> [UInt8] {
        var deltas: [UInt8] = []
        deltas.reserveCapacity(ids.count * 2)
        var previous = start
        for id in ids {
            TextChunk.appendVarint(UInt64(bitPattern: id &- previous), to: &deltas)
            previous = id
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + deltas.count + 12)
        out.append(TextChunk.format)
        TextChunk.appendVarint(UInt64(ids.count), to: &out)
        TextChunk.appendVarint(UInt64(deltas.count), to: &out)
        out.append(contentsOf: deltas)
        out.append(contentsOf: text)
        return out
    }

    /// Decodes a stored chunk; nil when the bytes are not one (a damaged index: `check` reports it): IDs
    /// not ascending or past the end, texts not `columns` to a row, a stray 0xFE.
    public init?(decoding bytes: UnsafeRawBufferPointer, start: Int64, columns: Int) {
        self.columns = columns
        guard columns > 0, let (n, offsets) = TextChunk.textStart(bytes), let base = bytes.baseAddress else { return nil }
        var at = offsets.ids
        var id = start
        ids.reserveCapacity(n)
        var deltaBytes = 0
        for k in 0..<n {
            let from = at
            // The delta is the difference of two IDs as an unsigned number (two IDs may be further apart
            // than `Int64.max`); it must not carry the ID past `Int64.max`.
            guard let delta = TextChunk.readVarint(bytes, &at), k == 0 || delta > 0,
                delta <= TextChunk.ordered(Int64.max) - TextChunk.ordered(id)
            else { return nil }
            id = id &+ Int64(bitPattern: delta)
            ids.append(id)
            deltaBytes += at - from
        }
        guard at == offsets.text else { return nil }
        // Every text ended, `columns` to a row, and 0xFE only alone; where each row ends.
        let texts = base + offsets.text
        let length = bytes.count - offsets.text
        rowEnds = Array(repeating: 0, count: n)
        let columnCount = columns
        let sound = rowEnds.withUnsafeMutableBufferPointer { ends in
            burrow_text_rows(texts.assumingMemoryBound(to: UInt8.self), length, columnCount, n, ends.baseAddress)
        }
        guard sound == 1 else { return nil }
        text = Array(UnsafeRawBufferPointer(start: texts, count: length))
        size = TextChunk.emptySize + deltaBytes + length
    }

    /// The number of rows, where their IDs begin and where the texts begin, read from the first bytes
    /// alone; nil when they are not a chunk's.
    static func textStart(_ bytes: UnsafeRawBufferPointer) -> (rows: Int, (ids: Int, text: Int))? {
        guard bytes.count > 0, bytes[0] == TextChunk.format else { return nil }
        var at = 1
        guard let n = readVarint(bytes, &at), n > 0, n <= UInt64(bytes.count),
            let length = readVarint(bytes, &at), length <= UInt64(bytes.count - at)
        else { return nil }
        return (Int(n), (at, at + Int(length)))
    }

    /// `id` as an unsigned number in the same order (the sign bit flipped).
    static func ordered(_ id: Int64) -> UInt64 { UInt64(bitPattern: id) ^ (1 << 63) }

    // MARK: Varints

    static func varintSize(_ v: UInt64) -> Int {
        var v = v, n = 1
        while v >= 0x80 {
            v >>= 7
            n += 1
        }
        return n
    }

    static func appendVarint(_ v: UInt64, to out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func readVarint(_ bytes: UnsafeRawBufferPointer, _ at: inout Int) -> UInt64? {
        var v: UInt64 = 0, shift: UInt64 = 0
        while at < bytes.count, shift < 64 {
            let b = bytes[at]
            at += 1
            v |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }
}
