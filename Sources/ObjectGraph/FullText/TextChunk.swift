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
    /// 4 KiB page whole (a row of up to 4,061 bytes is kept on its page, with no overflow pages to read).
    /// A row whose texts alone are bigger gets a chunk of its own.
    public static let capacity = 3_800

    /// Indexed attributes per row.
    public let columns: Int
    /// The rows' IDs, ascending.
    public private(set) var ids: [Int64] = []
    /// Each row's texts' lengths in bytes, `columns` to a row; -1 for none.
    private(set) var lengths: [Int32] = []
    /// The texts, end to end.
    private(set) var text: [UInt8] = []
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
        for c in 0..<columns {
            if let t = text(c) {
                let before = self.text.count
                self.text.append(contentsOf: t.utf8)
                let n = self.text.count - before
                lengths.append(Int32(n))
                size += n + 1
            } else {
                lengths.append(-1)
                size += 2
            }
        }
    }

    /// Appends row `k` of `other`, whose texts start at `textStart` in its ``text``.
    mutating func append(row k: Int, of other: TextChunk, textStart: Int) {
        let id = other.ids[k]
        size += TextChunk.varintSize(UInt64(bitPattern: id &- (ids.last ?? id)))
        ids.append(id)
        var at = textStart
        for c in 0..<columns {
            let n = other.lengths[k * columns + c]
            lengths.append(n)
            if n >= 0 {
                text.append(contentsOf: other.text[at..<(at + Int(n))])
                at += Int(n)
            }
            size += n < 0 ? 2 : Int(n) + 1
        }
    }

    /// The bytes of row `k`'s texts, all attributes together.
    public func rowTextLength(_ k: Int) -> Int {
        var n = 0
        for c in 0..<columns { n += max(0, Int(lengths[k * columns + c])) }
        return n
    }

    /// Row `k`'s texts, when they start at `textStart` in ``text``; nil for none.
    public func texts(ofRow k: Int, textStart: Int) -> [String?] {
        var at = textStart
        return (0..<columns).map { c in
            let n = Int(lengths[k * columns + c])
            guard n >= 0 else { return nil }
            defer { at += n }
            return String(decoding: text[at..<(at + n)], as: UTF8.self)
        }
    }

    /// Empties it, keeping its storage.
    public mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        size = TextChunk.emptySize
    }

    /// The byte that ends each text.
    static let end: UInt8 = 0xFF
    /// The byte that stands for no text (followed by ``end``).
    static let none: UInt8 = 0xFE

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
        out.reserveCapacity(size + deltas.count + 10)
        out.append(TextChunk.format)
        TextChunk.appendVarint(UInt64(ids.count), to: &out)
        TextChunk.appendVarint(UInt64(deltas.count), to: &out)
        out.append(contentsOf: deltas)
        var at = 0
        for n in lengths {
            if n < 0 {
                out.append(TextChunk.none)
            } else {
                out.append(contentsOf: text[at..<(at + Int(n))])
                at += Int(n)
            }
            out.append(TextChunk.end)
        }
        return out
    }

    /// Decodes a stored chunk; nil when the bytes are not one (a damaged index: `check` reports it): IDs
    /// not ascending or past the end, texts not `columns` to a row, a stray 0xFE.
    public init?(decoding bytes: UnsafeRawBufferPointer, start: Int64, columns: Int) {
        self.columns = columns
        guard columns > 0, let (n, offsets) = TextChunk.textStart(bytes) else { return nil }
        var at = offsets.ids
        var id = start
        ids.reserveCapacity(n)
        for k in 0..<n {
            guard let delta = TextChunk.readVarint(bytes, &at), delta <= UInt64(Int64.max), k == 0 || delta > 0 else { return nil }
            let (next, overflow) = id.addingReportingOverflow(Int64(delta))
            if overflow { return nil }
            id = next
            ids.append(id)
        }
        guard at == offsets.text else { return nil }
        lengths.reserveCapacity(n * columns)
        text.reserveCapacity(bytes.count - at)
        while at < bytes.count {
            var stop = at
            while stop < bytes.count && bytes[stop] != TextChunk.end { stop += 1 }
            guard stop < bytes.count else { return nil }
            let segment = bytes[at..<stop]
            if segment.count == 1 && segment.first == TextChunk.none {
                lengths.append(-1)
            } else {
                if segment.contains(TextChunk.none) { return nil }
                lengths.append(Int32(segment.count))
                text.append(contentsOf: segment)
            }
            at = stop + 1
            if lengths.count > n * columns { return nil }
        }
        guard lengths.count == n * columns else { return nil }
        size = TextChunk.emptySize
        var previous = ids[0]
        for id in ids {
            size += TextChunk.varintSize(UInt64(bitPattern: id &- previous))
            previous = id
        }
        for n in lengths { size += n < 0 ? 2 : Int(n) + 1 }
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
